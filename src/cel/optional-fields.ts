/**
 * Fields of built-in objects that an admission expression may find missing: the fields that
 * k8s.io/api declares `omitempty` (so an object without them has no such key once converted to
 * the unstructured form CEL reads, apimachinery runtime/converter.go `toUnstructured`) and that
 * neither API defaulting (pkg/apis/core/v1/defaults.go) nor the admission plugins that run
 * before webhooks and policies by default (ServiceAccount, DefaultTolerationSeconds, Priority,
 * LimitRanger…) always set. Selecting such a field, or indexing such a map with a key it lacks,
 * is a CEL runtime error ("no such key").
 *
 * Deliberately partial: metadata of every kind, and the pod spec of Pods and of the pod templates
 * of the apps/v1 and batch/v1 workloads. Fields that are set on some path before admission
 * (spec.securityContext, defaulted to {}; volumes and volumeMounts, which the ServiceAccount plugin
 * adds to Pods; tolerations; serviceAccountName; metadata.name, which generateName fills only
 * after mutating admission) are left out, and so is everything of other kinds and of custom
 * resources: a field this table does not list is never reported.
 */
import type { ResourceInfo } from '../kube/discovery/discovery.js';

/** How an optional path is missing: the field itself, or (for labels and annotations) a key of it. */
export type Optionality = 'field' | 'key';

/** A tree of optional fields; `[]` stands for the elements of a list, `*` for keys of a map. */
interface Node {
  readonly optional?: boolean;
  readonly keysOptional?: boolean;
  readonly fields?: Readonly<Record<string, Node>>;
}

const OPT: Node = { optional: true };
const opt = (fields: Readonly<Record<string, Node>>): Node => ({ optional: true, fields });
const present = (fields: Readonly<Record<string, Node>>): Node => ({ fields });
const optAll = (...names: string[]): Record<string, Node> => Object.fromEntries(names.map((n) => [n, OPT]));

/** ObjectMeta (k8s.io/apimachinery pkg/apis/meta/v1 types.go): every field is omitempty. */
function metadata(labels: boolean): Node {
  return present({
    ...(labels ? { labels: { optional: true, keysOptional: true } } : {}),
    annotations: { optional: true, keysOptional: true },
    ...optAll('ownerReferences', 'finalizers', 'deletionTimestamp', 'deletionGracePeriodSeconds'),
  });
}

/** core/v1 SecurityContext (containers): all pointers, none defaulted. */
const CONTAINER_SECURITY_CONTEXT = opt({
  capabilities: opt(optAll('add', 'drop')),
  ...optAll('privileged', 'seLinuxOptions', 'windowsOptions', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount', 'seccompProfile', 'appArmorProfile'),
});

/** core/v1 Container and EphemeralContainerCommon: what is omitempty and not defaulted (resources is a struct: present). */
const CONTAINER = present({
  ...optAll('command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'stdin', 'stdinOnce', 'tty', 'resizePolicy', 'restartPolicy'),
  resources: present(optAll('limits', 'requests', 'claims')),
  securityContext: CONTAINER_SECURITY_CONTEXT,
});

/** core/v1 PodSpec, as in a Pod or a pod template; spec.securityContext is defaulted to {} (SetDefaults_PodSpec). */
function podSpec(): Node {
  return present({
    containers: present({ '[]': CONTAINER }),
    initContainers: opt({ '[]': CONTAINER }),
    ephemeralContainers: opt({ '[]': CONTAINER }),
    securityContext: present(optAll('runAsUser', 'runAsGroup', 'runAsNonRoot', 'fsGroup', 'supplementalGroups', 'seccompProfile', 'seLinuxOptions', 'sysctls', 'appArmorProfile', 'windowsOptions', 'fsGroupChangePolicy')),
    nodeSelector: { optional: true, keysOptional: true },
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

const withTemplate = (spec: Node): Node => present({ metadata: metadata(true), spec });
const POD = present({ metadata: metadata(true), spec: podSpec() });
const TEMPLATE_WORKLOAD = withTemplate(present({ template: present({ spec: podSpec() }) }));
const CRONJOB = withTemplate(present({ jobTemplate: present({ spec: present({ template: present({ spec: podSpec() }) }) }) }));

/** Kinds with more than metadata, by group/kind, and the subresources whose object is that kind. */
const KINDS: ReadonlyMap<string, { readonly node: Node; readonly subresources: ReadonlySet<string> }> = new Map([
  ['/Pod', { node: POD, subresources: new Set(['', 'status', 'ephemeralcontainers', 'resize']) }],
  ['apps/Deployment', { node: TEMPLATE_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/StatefulSet', { node: TEMPLATE_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/DaemonSet', { node: TEMPLATE_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['apps/ReplicaSet', { node: TEMPLATE_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['batch/Job', { node: TEMPLATE_WORKLOAD, subresources: new Set(['', 'status']) }],
  ['batch/CronJob', { node: CRONJOB, subresources: new Set(['', 'status']) }],
]);

/** Any other built-in kind, as its main resource or status: metadata only. Namespaces always carry kubernetes.io/metadata.name. */
const METADATA_ONLY = present({ metadata: metadata(true) });
const NAMESPACE = present({ metadata: metadata(false) });

/** One resource (and subresource) that an expression's object can be. */
export interface MatchedTarget {
  readonly info: ResourceInfo;
  /** "" for the main resource. */
  readonly subresource: string;
}

/** The optional-field tree of an object of this target, or undefined when it is not known. */
function nodeOf(target: MatchedTarget, builtin: (group: string) => boolean): Node | undefined {
  const { info, subresource } = target;
  if (!builtin(info.group)) return undefined;
  const known = KINDS.get(`${info.group}/${info.kind}`);
  if (known) return known.subresources.has(subresource) ? known.node : undefined;
  if (subresource !== '' && subresource !== 'status') return undefined;
  return info.group === '' && info.kind === 'Namespace' ? NAMESPACE : METADATA_ONLY;
}

/**
 * Whether a path (field names, `[]` for list elements, the last segment a map key when `key`) is
 * missing on some object of every target: optional there, with every parent present or tested
 * for (an untested optional parent is reported instead). Undefined when it is not, or when a
 * target is not known.
 */
export class OptionalFields {
  private readonly nodes: readonly Node[];

  constructor(targets: readonly MatchedTarget[], builtin: (group: string) => boolean) {
    const nodes: Node[] = [];
    let known = targets.length > 0;
    for (const target of targets) {
      const node = nodeOf(target, builtin);
      if (node === undefined) known = false;
      else if (!nodes.includes(node)) nodes.push(node);
    }
    this.nodes = known ? nodes : [];
  }

  get known(): boolean {
    return this.nodes.length > 0;
  }

  /**
   * 'field' when the last segment is an optional field, 'key' when it is a key of an
   * optional-keyed map. An optional parent counts as present only when `guarded` says it is
   * tested for.
   */
  lookup(path: readonly string[], asKey: boolean, guarded: (prefix: readonly string[]) => boolean = () => false): Optionality | undefined {
    if (this.nodes.length === 0 || path.length === 0) return undefined;
    const verdicts = this.nodes.map((root) => lookupIn(root, path, asKey, guarded));
    const first = verdicts[0];
    return first !== undefined && verdicts.every((v) => v === first) ? first : undefined;
  }
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
  if (asKey) return node.keysOptional ? 'key' : undefined;
  return node.optional ? 'field' : undefined;
}
