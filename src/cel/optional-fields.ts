/**
 * Fields of built-in objects that an admission expression may find missing: the fields that
 * k8s.io/api declares `omitempty` (so an object without them has no such key once converted to
 * the unstructured form CEL reads, apimachinery runtime/converter.go `toUnstructured`) and that
 * neither API defaulting (pkg/apis/core/v1/defaults.go) nor the admission plugins that run
 * before webhooks and policies by default (ServiceAccount, DefaultTolerationSeconds, Priority,
 * LimitRanger…) always set. Selecting such a field, or indexing such a map with a key it lacks,
 * is a CEL runtime error ("no such key").
 *
 * Deliberately partial: metadata of every kind (a Namespace's labels are always there, with the
 * name label, and a Node's, which the kubelet registers it with, but any other key may be
 * missing), the pod spec of Pods and of the pod templates of the apps/v1 and batch/v1 workloads, Services (k8s.io/api core/v1 ServiceSpec; no ports on
 * an ExternalName Service), ConfigMaps and Secrets. Fields that are set on some path before admission
 * (spec.securityContext, defaulted to {}; volumes and volumeMounts, which the ServiceAccount plugin
 * adds to Pods; tolerations; serviceAccountName; metadata.name, which generateName fills only
 * after mutating admission) are left out, and so is everything of other kinds but their
 * metadata: a field this table does not list is never reported. A custom resource's fields are
 * read from its CRD's schema where the run holds the CRD (customResource).
 */
import type { ResourceInfo } from '../kube/discovery/discovery.js';
import { fieldShape, kindShape, type FieldShape } from '../kube/fields.js';

/** How an optional path is missing: the field itself, or (for labels and annotations) a key of it. */
export type Optionality = 'field' | 'key';

/** A tree of optional fields; `[]` stands for the elements of a list, `*` for keys of a map. */
interface Node {
  readonly optional?: boolean;
  readonly keysOptional?: boolean;
  /** Keys of an optional-keyed map that are always there. */
  readonly presentKeys?: ReadonlySet<string>;
  readonly fields?: Readonly<Record<string, Node>>;
  /** The root of a custom resource's tree (customResource). */
  readonly custom?: true;
  /** A custom resource's string scalar: absent, it stands for '' (a Go string by value; strings are seldom pointers). */
  readonly zero?: '';
}

const OPT: Node = { optional: true };
const opt = (fields: Readonly<Record<string, Node>>): Node => ({ optional: true, fields });
const present = (fields: Readonly<Record<string, Node>>): Node => ({ fields });
const optAll = (...names: string[]): Record<string, Node> => Object.fromEntries(names.map((n) => [n, OPT]));

/** A map that an object may lack, and whose keys it may lack. */
const OPT_MAP: Node = { optional: true, keysOptional: true };
/** A map that is always there (defaulted), whose keys an object may lack. */
const MAP: Node = { keysOptional: true };

/**
 * ObjectMeta (k8s.io/apimachinery pkg/apis/meta/v1 types.go): every field is omitempty. A
 * Namespace always has labels (SetDefaults_Namespace sets kubernetes.io/metadata.name), but any
 * other key of them may be missing.
 */
function metadata(labels: Node = OPT_MAP): Node {
  return present({
    labels,
    annotations: OPT_MAP,
    ...optAll('ownerReferences', 'finalizers', 'deletionTimestamp', 'deletionGracePeriodSeconds'),
  });
}

/** core/v1 SecurityContext (containers): all pointers, none defaulted. */
const CONTAINER_SECURITY_CONTEXT = opt({
  capabilities: opt(optAll('add', 'drop')),
  ...optAll('privileged', 'seLinuxOptions', 'windowsOptions', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount', 'seccompProfile', 'appArmorProfile'),
});

/**
 * core/v1 Container and EphemeralContainerCommon: what is omitempty and not defaulted (resources
 * is a struct: present). volumeMounts only in a pod template: in a Pod the ServiceAccount
 * admission plugin, which runs first, mounts the token (it admits Pods, never templates).
 */
function container(template: boolean): Node {
  return present({
    ...optAll('command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'stdin', 'stdinOnce', 'tty', 'resizePolicy', 'restartPolicy'),
    ...(template ? optAll('volumeMounts') : {}),
    resources: present(optAll('limits', 'requests', 'claims')),
    securityContext: CONTAINER_SECURITY_CONTEXT,
  });
}

/**
 * core/v1 PodSpec, as in a Pod or a pod template; spec.securityContext is defaulted to {}
 * (SetDefaults_PodSpec). In a template, also volumes, tolerations and serviceAccountName: the
 * admission plugins that set them on Pods (ServiceAccount, DefaultTolerationSeconds) do not
 * touch templates.
 */
function podSpec(template = false): Node {
  const each = container(template);
  return present({
    containers: present({ '[]': each }),
    initContainers: opt({ '[]': each }),
    ephemeralContainers: opt({ '[]': each }),
    securityContext: present(optAll('runAsUser', 'runAsGroup', 'runAsNonRoot', 'fsGroup', 'supplementalGroups', 'seccompProfile', 'seLinuxOptions', 'sysctls', 'appArmorProfile', 'windowsOptions', 'fsGroupChangePolicy')),
    nodeSelector: OPT_MAP,
    ...(template ? optAll('volumes', 'tolerations', 'serviceAccountName') : {}),
    ...optAll(
      'affinity',
      'hostNetwork',
      'hostPID',
      'hostIPC',
      'shareProcessNamespace',
      'activeDeadlineSeconds',
      'automountServiceAccountToken',
      'nodeName',
      'hostname',
      'subdomain',
      'dnsConfig',
      'readinessGates',
      'runtimeClassName',
      'topologySpreadConstraints',
      'setHostnameAsFQDN',
      'os',
      'hostUsers',
      'schedulingGates',
      'resourceClaims',
      'hostAliases',
      'imagePullSecrets',
    ),
  });
}

const withTemplate = (spec: Node): Node => present({ metadata: metadata(), spec });
const POD = present({ metadata: metadata(), spec: podSpec() });

/**
 * core/v1 Service: ports, selector and the type-specific fields are omitempty; SetDefaults_Service
 * sets type, sessionAffinity and each port's protocol and targetPort, and internalTrafficPolicy
 * for every type but ExternalName. An ExternalName Service has no ports and no selector; a
 * Service without a selector has none either. (spec.clusterIP is allocated after mutating
 * admission, so it is not listed: a field this table leaves out is never reported.)
 */
const SERVICE = present({
  metadata: metadata(),
  spec: present({
    ports: opt({ '[]': present(optAll('name', 'nodePort', 'appProtocol')) }),
    selector: OPT_MAP,
    ...optAll(
      'externalIPs',
      'externalName',
      'externalTrafficPolicy',
      'healthCheckNodePort',
      'loadBalancerIP',
      'loadBalancerSourceRanges',
      'loadBalancerClass',
      'allocateLoadBalancerNodePorts',
      'publishNotReadyAddresses',
      'sessionAffinityConfig',
      'internalTrafficPolicy',
      'trafficDistribution',
    ),
  }),
});

/**
 * core/v1 ConfigMap: SetDefaults_ConfigMap makes data an empty map, but an empty map under
 * omitempty is left out of the JSON (encoding/json) and of the unstructured form (apimachinery
 * converter.go isZero): data, binaryData and immutable can all be absent.
 */
const CONFIG_MAP = present({ metadata: metadata(), data: OPT_MAP, binaryData: OPT_MAP, ...optAll('immutable') });
/** core/v1 Secret: data is omitempty and not defaulted (stringData is merged into it before admission); type is defaulted. */
const SECRET = present({ metadata: metadata(), data: OPT_MAP, ...optAll('immutable') });
/**
 * A pod template: its labels are required where a selector must match them (apps/v1); a Job's are
 * added by the Job strategy's PrepareForCreate, which runs after mutating admission but before
 * validating admission (apiserver handlers/create.go): taken as there, only their keys optional
 * (says less for mutating policies). Its annotations are omitempty.
 */
const POD_TEMPLATE = present({ metadata: present({ labels: MAP, annotations: OPT_MAP }), spec: podSpec(true) });
const APPS_WORKLOAD = withTemplate(present({ template: POD_TEMPLATE }));
const JOB = withTemplate(present({ template: POD_TEMPLATE }));
const CRONJOB = withTemplate(present({ jobTemplate: present({ spec: present({ template: POD_TEMPLATE }) }) }));

/** Kinds with more than metadata, by group/kind, and the subresources whose object is that kind. */
const KINDS: ReadonlyMap<string, { readonly node: Node; readonly subresources: ReadonlySet<string> }> = new Map([
  ['/Pod', { node: POD, subresources: new Set(['', 'status', 'ephemeralcontainers', 'resize']) }],
  ['apps/Deployment', { node: APPS_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/StatefulSet', { node: APPS_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/DaemonSet', { node: APPS_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/ReplicaSet', { node: APPS_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['batch/Job', { node: JOB, subresources: new Set(['', 'status']) }],
  ['batch/CronJob', { node: CRONJOB, subresources: new Set(['', 'status']) }],
  ['/Service', { node: SERVICE, subresources: new Set(['', 'status']) }],
  ['/ConfigMap', { node: CONFIG_MAP, subresources: new Set(['']) }],
  ['/Secret', { node: SECRET, subresources: new Set(['']) }],
]);

/** Any other built-in kind, as its main resource or status: metadata only. Namespaces and Nodes always carry labels. */
const METADATA_ONLY = present({ metadata: metadata() });
const NAMESPACE = present({ metadata: metadata({ keysOptional: true, presentKeys: new Set(['kubernetes.io/metadata.name']) }) });
/**
 * A Node has labels: the kubelet registers it with its host name, OS and architecture
 * (pkg/kubelet/kubelet_node_status.go initialNode). Any key may be missing, those too: an admin
 * can remove one, and the kubelet puts them back only when it starts (updateDefaultLabels).
 */
const NODE = present({ metadata: metadata(MAP) });

/**
 * A custom resource: ObjectMeta, and the rest as its CRD's structural schema in that version
 * declares it, where the run holds the CRD. A property is missing from an object unless its
 * parent lists it in `required` (in the schema or an `allOf` entry: validation rejects an object
 * without it before validating admission; a mutating webhook or policy may see it missing on
 * CREATE, where the request fails anyway) or gives it a `default` (the API server sets it on
 * every request and read, apiextensions-apiserver pkg/apiserver/schema/defaulting), in every
 * served version of the resource: a request in another version is converted without this
 * version's defaults. A `nullable` property may be null, which no default replaces and
 * `required` lets through. The top-level `spec` is taken as there (typed clients always send
 * it); `status` is not: the status subresource drops it on CREATE (PrepareForCreate). What the
 * schema leaves open (`x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string`, no
 * `properties`, and `metadata`, `apiVersion` and `kind`, which every object has) is not judged
 * past; an embedded resource (`x-kubernetes-embedded-resource`) has its `apiVersion` and `kind`.
 */
function customResource(schema: unknown, others: readonly unknown[]): Node {
  const declared = schemaNode(schema, others, false, 0);
  const fields: Record<string, Node> = {};
  for (const [name, node] of Object.entries(declared.fields ?? {})) {
    if (name === 'metadata' || name === 'apiVersion' || name === 'kind') continue;
    // A manifest without spec is rare, and every typed client sends one: what an object lacks below it is the question.
    fields[name] = name === 'spec' ? { ...node, optional: false } : name === 'status' ? { ...node, optional: true } : node;
  }
  // (No prototype: a path segment such as `constructor` is no field of it.)
  return { fields: Object.assign(Object.create(null) as Record<string, Node>, fields, { metadata: metadata() }), custom: true };
}

/** Deeper than this a schema is not followed (nothing past it is judged). */
const MAX_SCHEMA_DEPTH = 64;

/** The names a schema requires, with those of its `allOf` entries. */
function requiredOf(schema: Record<string, unknown>): Set<string> {
  const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);
  const all = Array.isArray(schema.allOf) ? schema.allOf.flatMap((entry) => (isSchema(entry) ? names(entry.required) : [])) : [];
  return new Set([...names(schema.required), ...all]);
}

/** Whether a schema (a parent's) keeps its property `name` on every object: required or defaulted, and not nullable. */
function keeps(parent: unknown, name: string): boolean {
  if (!isSchema(parent) || !isSchema(parent.properties)) return false;
  const property = Object.hasOwn(parent.properties, name) ? parent.properties[name] : undefined;
  if (!isSchema(property) || property.nullable === true) return false;
  return requiredOf(parent).has(name) || 'default' in property;
}

/** A property's schema, where the parent declares it. */
function propertyOf(parent: unknown, name: string): unknown {
  return isSchema(parent) && isSchema(parent.properties) && Object.hasOwn(parent.properties, name) ? parent.properties[name] : undefined;
}

/**
 * A schema's node, its properties read as they are asked for (a lookup walks one path);
 * `others`: the same place in the resource's other served versions.
 */
function schemaNode(schema: unknown, others: readonly unknown[], optional: boolean, depth: number): Node {
  const node: { optional?: boolean; keysOptional?: boolean; fields?: Readonly<Record<string, Node>>; zero?: '' } = optional ? { optional: true } : {};
  if (isSchema(schema) && schema.type === 'string' && schema.nullable !== true && schema['x-kubernetes-int-or-string'] !== true) node.zero = '';
  if (!isSchema(schema) || depth > MAX_SCHEMA_DEPTH || schema['x-kubernetes-preserve-unknown-fields'] === true || schema['x-kubernetes-int-or-string'] === true) return node;
  if (isSchema(schema.properties)) {
    const properties = schema.properties;
    const children: Record<string, Node> = Object.create(null) as Record<string, Node>;
    const embedded = schema['x-kubernetes-embedded-resource'] === true;
    for (const name of Object.keys(properties)) {
      // The API server requires apiVersion and kind of an embedded object (validateEmbeddedResource).
      const present = (embedded && (name === 'apiVersion' || name === 'kind')) || (keeps(schema, name) && others.every((other) => keeps(other, name)));
      Object.defineProperty(children, name, { enumerable: true, get: () => schemaNode(properties[name], others.map((other) => propertyOf(other, name)), !present, depth + 1) });
    }
    return { ...node, fields: children };
  }
  if (schema.type === 'array' && isSchema(schema.items)) {
    const items = schema.items;
    const otherItems = others.map((other) => (isSchema(other) ? other.items : undefined));
    return { ...node, fields: { get '[]'() { return schemaNode(items, otherItems, false, depth + 1); } } };
  }
  // A map (additionalProperties): any key may be missing.
  if (schema.type === 'object' && (isSchema(schema.additionalProperties) || schema.additionalProperties === true)) return { ...node, keysOptional: true };
  return node;
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One resource (and subresource) that an expression's object can be. */
export interface MatchedTarget {
  readonly info: ResourceInfo;
  /** "" for the main resource. */
  readonly subresource: string;
}

/**
 * Fields of `object` that the request of a subresource always carries, by group/kind and
 * subresource: an UPDATE of `pods/ephemeralcontainers` (`kubectl debug`) is the Pod with the
 * container it adds in `spec.ephemeralContainers` (pkg/registry/core/pod/storage
 * EphemeralContainersREST; one that adds none changes nothing). `oldObject` is the Pod before
 * it: the list may be absent there.
 */
const PRESENT_ON_SUBRESOURCE: ReadonlyMap<string, readonly (readonly string[])[]> = new Map([['/Pod/ephemeralcontainers', [['spec', 'ephemeralContainers']]]]);

/**
 * The fields of `object` (as presence keys, `object.spec.ephemeralContainers`) that every
 * target's request carries, whatever the object is (PRESENT_ON_SUBRESOURCE): none unless every
 * target is such a subresource.
 */
export function presentOnEveryTarget(targets: readonly MatchedTarget[]): string[] {
  const each = targets.map(({ info, subresource }) => PRESENT_ON_SUBRESOURCE.get(`${info.group}/${info.kind}/${subresource}`) ?? []);
  if (each.length === 0) return [];
  const keys = (paths: readonly (readonly string[])[]): string[] => paths.map((path) => ['object', ...path].join('.'));
  return keys(each[0]!).filter((key) => each.every((paths) => keys(paths).includes(key)));
}

/** The optional-field tree of an object of this target, or undefined when it is not known. */
function nodeOf(target: MatchedTarget, builtin: (group: string) => boolean): Node | undefined {
  const { info, subresource } = target;
  // A custom resource (its CRD in the run or not): its metadata is ObjectMeta, as every object's
  // (a CRD's schema may restrict metadata.name and generateName only); the rest is its schema's.
  if (!builtin(info.group)) return info.custom && (subresource === '' || subresource === 'status') ? customResource(info.schema, info.otherSchemas ?? []) : undefined;
  const known = KINDS.get(`${info.group}/${info.kind}`);
  if (known) return known.subresources.has(subresource) ? known.node : undefined;
  if (subresource !== '' && subresource !== 'status') return undefined;
  if (info.group === '' && info.kind === 'Namespace') return NAMESPACE;
  return info.group === '' && info.kind === 'Node' ? NODE : METADATA_ONLY;
}

/**
 * Whether a path (field names, `[]` for list elements, the last segment a map key when `key`) is
 * missing on some object of every target: optional there, with every parent present or tested
 * for (an untested optional parent is reported instead). Undefined when it is not, or when a
 * target is not known.
 */
export class OptionalFields {
  /** Each target's tree, with the shape of its kind's Go type (undefined when not known here). */
  private readonly entries: readonly { readonly node: Node; readonly shape: FieldShape | undefined }[];

  /**
   * `declaredOnly`: a path is judged on the targets whose kind declares it, not on all (see
   * lookup); the reads found so must then be shown to be reached on those kinds
   * (src/match/kind-scenarios.ts failsWhereAbsent).
   */
  constructor(
    targets: readonly MatchedTarget[],
    builtin: (group: string) => boolean,
    private readonly declaredOnly = false,
  ) {
    const entries: { node: Node; shape: FieldShape | undefined }[] = [];
    let known = targets.length > 0;
    for (const target of targets) {
      const node = nodeOf(target, builtin);
      if (node === undefined) {
        known = false;
        continue;
      }
      const shape = kindShape(target.info.group, target.info.version, target.info.kind);
      if (!entries.some((entry) => entry.node === node && entry.shape === shape)) entries.push({ node, shape });
    }
    this.entries = known ? entries : [];
  }

  get known(): boolean {
    return this.entries.length > 0;
  }

  /**
   * What an absent field at `path` (field names, `[]` for list elements) stands for on every
   * target, where that is known: '' for a custom resource's string scalar. Undefined otherwise
   * (built-in fields: src/cel/missing-fields.ts OMITTED_WHEN_ZERO; a custom resource's integer or
   * boolean may be a pointer in its controller, absent then unset).
   */
  zeroWhenAbsent(path: readonly string[]): '' | undefined {
    if (this.entries.length === 0 || !this.entries.every((entry) => entry.node.custom === true)) return undefined;
    const zeros = this.entries.map((entry) => {
      let node: Node | undefined = entry.node;
      for (const segment of path) node = node?.fields?.[segment];
      return node?.zero;
    });
    return zeros.every((zero) => zero === '') ? '' : undefined;
  }

  /** Whether the targets are of several kinds (trees or types): declaredOnly may then judge more. */
  get mixed(): boolean {
    return this.entries.length > 1;
  }

  /**
   * 'field' when the last segment is an optional field, 'key' when it is a key of an
   * optional-keyed map, on every target (with declaredOnly, every target whose kind declares the
   * path: a kind whose type has no such field, `spec.template` on a Pod when a policy matches Pods
   * and Deployments, never has it, and whether the expression reads it there is undefined-field's
   * question). An optional parent counts as present only when `guarded` says it is tested for.
   */
  lookup(path: readonly string[], asKey: boolean, guarded: (prefix: readonly string[]) => boolean = () => false): Optionality | undefined {
    if (this.entries.length === 0 || path.length === 0) return undefined;
    const fields = asKey ? path.slice(0, -1) : path;
    const relevant = this.declaredOnly ? this.entries.filter((entry) => declares(entry.shape, fields) !== false) : this.entries;
    if (relevant.length === 0) return undefined;
    const verdicts = relevant.map((entry) => lookupIn(entry.node, path, asKey, guarded));
    const first = verdicts[0];
    return first !== undefined && verdicts.every((v) => v === first) ? first : undefined;
  }
}

/** Whether a type declares a path (field names, `[]` for list elements): false only when it certainly does not. */
function declares(shape: FieldShape | undefined, path: readonly string[]): boolean | undefined {
  let at = shape;
  for (const segment of path) {
    if (at === undefined) return undefined;
    if (segment === '[]') {
      if (at.kind !== 'list') return at.kind === 'struct' ? false : undefined;
      at = at.element;
      continue;
    }
    if (at.kind === 'map') {
      at = at.element;
      continue;
    }
    if (at.kind !== 'struct') return false;
    const field = fieldShape(at, segment);
    if (!field.declared) return false;
    at = field.shape;
  }
  return true;
}

function lookupIn(root: Node, path: readonly string[], asKey: boolean, guarded: (prefix: readonly string[]) => boolean): Optionality | undefined {
  let node: Node | undefined = root;
  const fields = asKey ? path.slice(0, -1) : path;
  for (let i = 0; i < fields.length; i++) {
    node = node?.fields?.[fields[i]!];
    if (node === undefined) return undefined;
    const last = i === fields.length - 1;
    // An unguarded optional parent is the read to report, not this one.
    if (!last && node.optional && !guarded(fields.slice(0, i + 1))) return undefined;
  }
  if (node === undefined) return undefined;
  if (asKey) return node.keysOptional && !node.presentKeys?.has(path[path.length - 1]!) ? 'key' : undefined;
  return node.optional ? 'field' : undefined;
}
