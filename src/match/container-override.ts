/**
 * Whether a ValidatingAdmissionPolicy that checks a pod-level securityContext field lets a
 * container override it. A container's own securityContext takes precedence over the pod's for
 * runAsNonRoot, runAsUser, runAsGroup, seccompProfile, appArmorProfile and seLinuxOptions
 * (k8s.io/api core/v1 PodSecurityContext: "the value specified in SecurityContext takes
 * precedence"), so a pod with `runAsNonRoot: true` whose container sets `runAsNonRoot: false`
 * runs that container unchecked; Pod Security's restricted level checks both levels
 * (k8s.io/pod-security-admission policy/check_runAsNonRoot.go).
 *
 * Shown by evaluating the policy, not by reading its text: on a made-up Pod (or workload), three
 * objects that differ in one field only are evaluated with CEL:
 *
 * - the pod-level field bad (`runAsNonRoot: false`): some validation is false (the policy checks it);
 * - the pod-level field good: every validation is true;
 * - the pod-level field good, the container setting its own (`runAsNonRoot: false, runAsUser: 0`):
 *   every validation is still true (a way past).
 *
 * Each step must give booleans from the evaluator (an error, a function it lacks, the budget: not
 * shown), and the policy's matchConditions must be true on all three. A validation that reads
 * neither securityContext, a field nor a variable is left out of the last two (a real pod meets
 * it and keeps the override). Something else of the run that may keep the container out
 * (coveredElsewhere) leaves the policy unreported.
 */
import { celMeterOf, type Meter } from '../cel/budget.js';
import { evaluateValue } from '../cel/evaluate.js';
import { loadCelSync } from '../cel/library.js';
import type { PolicyObject } from '../model/objects.js';
import { bindingCanReject, bindingSpec, policySpec } from '../model/policies.js';
import { isRecord } from '../json.js';
import { policyIndexOf } from './bindings.js';
import { ADMISSION_VARIABLES, type Requester } from './system-requests.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { bindingMatchesRequest, onRequest, policySeesRequest, validatingWebhookSees, type RequestAttributes } from './subresource-request.js';
import { parseExpression } from '../cel/check/index.js';
import { children, type Expr } from '../cel/check/ast.js';

/**
 * What a container sets to get past a pod-level check, and the fields the made-up pod then
 * leaves unset at both levels (so that the container's setting decides).
 */
interface Override {
  readonly container: Readonly<Record<string, unknown>>;
  readonly unset: readonly string[];
}

/**
 * A securityContext field a container's own setting overrides, with values a policy accepts
 * (tried in order), one it means to refuse at pod level, and what a container sets to get past
 * it. For the two that keep a container from root, a container is root with both set
 * (`runAsNonRoot: false, runAsUser: 0`), and with either alone where the other is set nowhere
 * (`runAsNonRoot: false` runs the image's user; `runAsUser: 0` is refused by the kubelet only
 * where runAsNonRoot is true).
 */
interface OverridableField {
  /** Under securityContext: `runAsNonRoot`, `seccompProfile.type`. */
  readonly path: readonly string[];
  readonly good: readonly unknown[];
  readonly bad: unknown;
  readonly overrides: readonly Override[];
}

const AS_ROOT: Override = { container: { runAsNonRoot: false, runAsUser: 0n }, unset: [] };
const only = (container: Readonly<Record<string, unknown>>, unset: readonly string[] = []): Override => ({ container, unset });

const OVERRIDABLE_FIELDS: readonly OverridableField[] = [
  { path: ['runAsNonRoot'], good: [true], bad: false, overrides: [AS_ROOT, only({ runAsNonRoot: false }, ['runAsUser'])] },
  { path: ['runAsUser'], good: [1000n, 65534n, 10001n], bad: 0n, overrides: [AS_ROOT, only({ runAsUser: 0n }, ['runAsNonRoot'])] },
  { path: ['runAsGroup'], good: [1000n, 65534n, 10001n], bad: 0n, overrides: [only({ runAsGroup: 0n })] },
  { path: ['seccompProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined', overrides: [only({ seccompProfile: { type: 'Unconfined' } })] },
  { path: ['appArmorProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined', overrides: [only({ appArmorProfile: { type: 'Unconfined' } })] },
  { path: ['seLinuxOptions', 'type'], good: ['container_t'], bad: 'spc_t', overrides: [only({ seLinuxOptions: { type: 'spc_t' } })] },
];

type PodSpecKind = (typeof POD_SPEC_KINDS)[number];

/** The kinds with a pod spec a policy may match, and where their pod template sits. */
const POD_SPEC_KINDS = [
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', template: [] },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', template: ['spec', 'template'] },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', template: ['spec', 'template'] },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', template: ['spec', 'jobTemplate', 'spec', 'template'] },
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', template: ['spec', 'template'] },
  { group: '', version: 'v1', resource: 'podtemplates', kind: 'PodTemplate', template: ['template'] },
] as const satisfies readonly { group: string; version: string; resource: string; kind: string; template: readonly string[] }[];

const POD_KIND: PodSpecKind = POD_SPEC_KINDS[0];

/** A value at a path: `{a: {b: value}}`. */
function nested(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** `base` with `value` at `path` (a copy; the maps on the way copied too). */
function withValue(base: Readonly<Record<string, unknown>>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return { ...base };
  const inner = base[key];
  return { ...base, [key]: rest.length === 0 ? value : withValue(inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>) : {}, rest, value) };
}

/** A made-up pod: its securityContext, its container's, and what else the container sets. */
interface Base {
  readonly pod: Readonly<Record<string, unknown>>;
  readonly container: Readonly<Record<string, unknown>> | undefined;
  readonly containerFields: Readonly<Record<string, unknown>>;
}

const ALL_GOOD = OVERRIDABLE_FIELDS.reduce<Record<string, unknown>>((base, field) => withValue(base, field.path, field.good[0]), {});

const HARDENED_CONTAINER = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true };
const LIMITED = { resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } } };

/**
 * The pods the others are varied from: nothing set; every field of OVERRIDABLE_FIELDS at its
 * first good value (a policy that checks several asks for them all); that with a container
 * hardened as Pod Security's restricted level asks, limits, and the pod's fsGroup (a policy that
 * checks these beside asks for them too); and that with the container setting every field of
 * OVERRIDABLE_FIELDS itself too (a policy that checks some of them of each container).
 */
const BASES: readonly Base[] = [
  { pod: {}, container: undefined, containerFields: {} },
  { pod: ALL_GOOD, container: undefined, containerFields: {} },
  { pod: { ...ALL_GOOD, fsGroup: 1000n, supplementalGroups: [1000n] }, container: HARDENED_CONTAINER, containerFields: LIMITED },
  { pod: { ...ALL_GOOD, fsGroup: 1000n, supplementalGroups: [1000n] }, container: { ...HARDENED_CONTAINER, ...ALL_GOOD }, containerFields: LIMITED },
];

/** A base without the fields an override leaves unset, at both levels. */
function without(base: Base, unset: readonly string[]): Base {
  if (unset.length === 0) return base;
  const drop = (level: Readonly<Record<string, unknown>>): Record<string, unknown> => Object.fromEntries(Object.entries(level).filter(([key]) => !unset.includes(key)));
  return { ...base, pod: drop(base.pod), container: base.container === undefined ? undefined : drop(base.container) };
}

/**
 * A plain pod spec as CEL sees it after defaulting (empty fields left out): one container, the
 * pod securityContext `podLevel`, the container's `containerLevel` (none when undefined).
 */
function podSpec(podLevel: Record<string, unknown>, containerLevel: Record<string, unknown> | undefined, containerFields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    containers: [
      {
        name: 'app',
        image: 'registry.example.com/app:1.0',
        imagePullPolicy: 'IfNotPresent',
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        ...containerFields,
        ...(containerLevel === undefined ? {} : { securityContext: containerLevel }),
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30n,
    dnsPolicy: 'ClusterFirst',
    securityContext: podLevel,
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
  };
}

const LABELS = { app: 'app' };

/** The object of a CREATE of `kind` whose pod spec is `spec`. */
function objectOf(kind: PodSpecKind, spec: Record<string, unknown>): Record<string, unknown> {
  const metadata = { name: 'app', namespace: 'default', labels: LABELS };
  const template = { metadata: { labels: LABELS }, spec };
  const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
  if (kind.template.length === 0) return { apiVersion, kind: kind.kind, metadata, spec };
  let body: Record<string, unknown> = nested(kind.template, template) as Record<string, unknown>;
  // The required fields of the workloads' specs that tests tend to read beside the template.
  const spec0 = body.spec as Record<string, unknown> | undefined;
  if (spec0 !== undefined && kind.resource !== 'cronjobs' && kind.resource !== 'podtemplates') body = { ...body, spec: { ...spec0, replicas: 1n, selector: { matchLabels: LABELS } } };
  if (kind.resource === 'cronjobs') body = { ...body, spec: { ...spec0, schedule: '0 * * * *' } };
  return { apiVersion, kind: kind.kind, metadata, ...body };
}

/** Someone who may create pods and workloads (a person, or a deployment tool). */
const PERSON: Requester = { username: 'someone@example.com', groups: ['system:authenticated'] };

/** The controller that creates a workload's Pods, as its service account (kube-controller-manager's --use-service-account-credentials). */
function controllerOf(kind: PodSpecKind): Requester {
  const name = { Deployment: 'replicaset-controller', ReplicaSet: 'replicaset-controller', StatefulSet: 'statefulset-controller', DaemonSet: 'daemon-set-controller', Job: 'job-controller', CronJob: 'job-controller', ReplicationController: 'replication-controller' }[kind.kind as string] ?? 'unnamed-controller';
  return { username: `system:serviceaccount:kube-system:${name}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] };
}

/** A Pod as a workload's controller creates it from the template's spec: owned, with the template's labels and the controller's own. */
function controllersPod(spec: Record<string, unknown>): Record<string, unknown> {
  const labels = { ...LABELS, 'pod-template-hash': '5d8f7c9b6d', 'controller-revision-hash': 'app-5d8f7c9b6d' };
  const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app-5d8f7c9b6d', uid: '00000000-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }];
  return { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'app-5d8f7c9b6d-', namespace: 'default', labels, ownerReferences }, spec };
}

/** What CEL sees on a CREATE of `kind` with `object`, by `requester`. */
function contextOf(kind: PodSpecKind, object: Record<string, unknown>, requester: Requester = PERSON): Record<string, unknown> {
  return {
    object,
    oldObject: null,
    request: {
      kind: { group: kind.group, version: kind.version, kind: kind.kind },
      resource: { group: kind.group, version: kind.version, resource: kind.resource },
      requestKind: { group: kind.group, version: kind.version, kind: kind.kind },
      requestResource: { group: kind.group, version: kind.version, resource: kind.resource },
      ...(typeof (object.metadata as { name?: unknown }).name === 'string' ? { name: (object.metadata as { name: string }).name } : {}),
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: requester.username, groups: [...requester.groups] },
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
    namespaceObject: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * What the policy does with one object: 'skipped' when a matchCondition is false (it does not
 * run), undefined when one is not a boolean here; otherwise each validation's value (undefined
 * where it is not a boolean here: an error, a function the evaluator lacks, the budget).
 */
function judged(object: PolicyObject, context: Record<string, unknown>, meter: Meter): 'skipped' | (boolean | undefined)[] | undefined {
  const spec = policySpec(object);
  const variables: Record<string, unknown> = {};
  const full = { ...context, variables };
  for (const variable of Array.isArray(spec?.variables) ? spec.variables : []) {
    const result = evaluateValue(text(variable?.expression), full, meter);
    // One that errors is left out: reading it errors too.
    if (result.ok) variables[text(variable?.name)] = result.value;
  }
  for (const condition of Array.isArray(spec?.matchConditions) ? spec.matchConditions : []) {
    const result = evaluateValue(text(condition?.expression), full, meter);
    if (!result.ok || typeof result.value !== 'boolean') return undefined;
    if (!result.value) return 'skipped';
  }
  return (Array.isArray(spec?.validations) ? spec.validations : []).map((validation) => {
    const result = evaluateValue(text(validation?.expression), full, meter);
    return result.ok && typeof result.value === 'boolean' ? result.value : undefined;
  });
}

/** Whether a text may read one of the fields: securityContext, or a field's name. */
const namesAField = (source: string): boolean => source.includes('securityContext') || OVERRIDABLE_FIELDS.some((field) => source.includes(field.path[0]!));

/** The policy's text that may read a container's securityContext: its validations, variables and matchConditions. */
function readsSecurityContext(object: PolicyObject): boolean {
  const spec = policySpec(object);
  return JSON.stringify([spec?.validations ?? [], spec?.variables ?? [], spec?.matchConditions ?? []]).includes('securityContext');
}

/**
 * For each validation: whether it may read the fields, itself or through the variables it reads
 * (a variable's own reads followed in order). One that does not (a label, resource limits) is met
 * by a real pod whatever its containers set.
 */
function tellingValidations(object: PolicyObject): boolean[] {
  const spec = policySpec(object);
  const telling = new Set<string>();
  for (const variable of Array.isArray(spec?.variables) ? spec.variables : []) {
    const source = text(variable?.expression);
    if (namesAField(source) || [...telling].some((name) => source.includes(`variables.${name}`))) telling.add(text(variable?.name));
  }
  return (Array.isArray(spec?.validations) ? spec.validations : []).map((validation) => {
    const source = text(validation?.expression);
    return namesAField(source) || [...telling].some((name) => source.includes(`variables.${name}`)) || /variables\s*\[/.test(source);
  });
}

/**
 * Whether a policy refuses the overridden object and not the passing one (one of its validations
 * is true on the first and false on the second), or may (it reads securityContext and is not
 * evaluated here: params, an error, what the evaluator lacks).
 */
function refusesOverride(other: PolicyObject, passing: Record<string, unknown>, overridden: Record<string, unknown>, meter: Meter): boolean {
  if (policySpec(other)?.paramKind != null) return readsSecurityContext(other);
  const before = judged(other, passing, meter);
  const after = judged(other, overridden, meter);
  if (before === 'skipped' || after === 'skipped') return before === 'skipped' && after === 'skipped' ? false : readsSecurityContext(other);
  if (before === undefined || after === undefined || before.includes(undefined) || after.includes(undefined)) return readsSecurityContext(other);
  return before.some((value, index) => value === true && after[index] === false);
}

/** A way past a policy: the validation that checks the field at pod level, the field, and the value it refuses there. */
export interface ContainerOverride {
  readonly validation: number;
  readonly field: string;
  readonly bad: unknown;
}

const OVERRIDES = memoKey<Map<PolicyObject, readonly ContainerOverride[]>>('pod-level securityContext checks a container overrides, per policy');

/** The ways past the policy (one per field; the first kind that shows it), computed once per run. */
export function containerOverrides(object: PolicyObject, run: RunScope): readonly ContainerOverride[] {
  return run.memo.perObject(OVERRIDES, object, () => find(object, run));
}

function find(object: PolicyObject, run: RunScope): ContainerOverride[] {
  const spec = policySpec(object);
  if (object.kind !== 'ValidatingAdmissionPolicy' || !object.decodable || spec === undefined || spec.paramKind != null) return [];
  const validations = (Array.isArray(spec.validations) ? spec.validations : []).map((validation) => text(validation?.expression));
  const source = JSON.stringify(validations) + JSON.stringify(spec.variables ?? []);
  const fields = OVERRIDABLE_FIELDS.filter((field) => source.includes(field.path[0]!));
  if (fields.length === 0) return [];
  const kinds = POD_SPEC_KINDS.filter((kind) => policySeesRequest(object, run, requestOf(kind)));
  if (kinds.length === 0 || !loadCelSync()) return [];
  const meter = celMeterOf(run);
  const telling = tellingValidations(object);
  const found: ContainerOverride[] = [];
  for (const field of fields) {
    const name = field.path.join('.');
    search: for (const kind of kinds) {
      // The plain pod (nothing set): a validation that reads none of the fields and is false on
      // it asks for what a pod lacks whatever its containers set (a label, limits).
      const plain = judged(object, contextOf(kind, objectOf(kind, podSpec({}, undefined, {}))), meter);
      const unmetByAnyPod = (index: number): boolean => Array.isArray(plain) && plain[index] === false;
      for (const override of field.overrides) {
        for (const base0 of BASES) {
          const base = without(base0, override.unset);
          const specAt = (podLevel: unknown, overridden: boolean): Record<string, unknown> =>
            podSpec(withValue(base.pod, field.path, podLevel), overridden ? { ...base.container, ...override.container } : base.container === undefined ? undefined : { ...base.container }, base.containerFields);
          const at = (podLevel: unknown, overridden: boolean) => judged(object, contextOf(kind, objectOf(kind, specAt(podLevel, overridden))), meter);
          const refused = at(field.bad, false);
          if (!Array.isArray(refused) || refused.some((value, index) => telling[index] && value === undefined)) continue;
          const checking = refused.findIndex((value, index) => telling[index] && value === false);
          if (checking < 0) continue;
          let good: unknown;
          let passing: ReturnType<typeof judged>;
          for (const value of field.good) {
            passing = at(value, false);
            if (Array.isArray(passing) && passing.every((result, index) => !telling[index] || result === true)) {
              good = value;
              break;
            }
          }
          if (good === undefined || !Array.isArray(passing)) continue;
          const overridden = at(good, true);
          // Every telling validation still true; the others as they were, and true, or false on
          // the plain pod too (a label the made-up pods lack, which a real pod has whatever its
          // containers set; one false only here may be about the container's securityContext).
          const stillAdmitted = (result: boolean | undefined, index: number): boolean =>
            telling[index] ? result === true : result !== undefined && result === passing[index] && (result || unmetByAnyPod(index));
          if (!Array.isArray(overridden) || !overridden.every(stillAdmitted)) continue;
          if (coveredElsewhere(object, run, kind, specAt(good, false), specAt(good, true), meter)) break search;
          found.push({ validation: checking, field: name, bad: field.bad });
          break search;
        }
      }
    }
  }
  return found;
}

/**
 * Whether something else of the run keeps the overridden container out wherever the policy
 * applies: another ValidatingAdmissionPolicy that surely sees the request (its selectors and
 * matchConditions let in at least what this one's do) and refuses it (refusesOverride), or a
 * validating webhook called on it (its code is not seen). What a mutating policy or webhook does
 * to the container is not evaluated. For a workload,
 * the Pods its controller creates from the template are asked too (owned, labelled, created by
 * the controller's service account), of every policy, this one included: one that refuses them
 * lets no such container run.
 */
function coveredElsewhere(object: PolicyObject, run: RunScope, kind: PodSpecKind, passing: Record<string, unknown>, overridden: Record<string, unknown>, meter: Meter): boolean {
  const where = reachOf(object, run, requestOf(kind));
  const covered = (on: PodSpecKind, self: boolean, good: Record<string, unknown>, bad: Record<string, unknown>): boolean => {
    const request = requestOf(on);
    if (validatingWebhookSees(run, request)) return true;
    return run.policies.some(
      (other) =>
        other.kind === 'ValidatingAdmissionPolicy' &&
        (other !== object || self) &&
        other.decodable &&
        policySeesRequest(other, run, request) &&
        appliesWherever(reachOf(other, run, request), where, on === kind) &&
        conditionsWherever(other, object, request, on === kind, run) &&
        refusesOverride(other, good, bad, meter),
    );
  };
  if (covered(kind, false, contextOf(kind, objectOf(kind, passing)), contextOf(kind, objectOf(kind, overridden)))) return true;
  if (kind === POD_KIND) return false;
  const controller = controllerOf(kind);
  return covered(POD_KIND, true, contextOf(POD_KIND, controllersPod(passing), controller), contextOf(POD_KIND, controllersPod(overridden), controller));
}

/** One requirement of a selector, on a namespace's labels or the object's. */
interface Requirement {
  readonly on: 'namespace' | 'object';
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: ReadonlySet<string>;
}

/** A selector's requirements (matchLabels as `In` of one value), or undefined when it is not one the API server reads. */
function requirementsOf(selector: unknown, on: Requirement['on']): Requirement[] | undefined {
  if (selector == null) return [];
  if (!isRecord(selector)) return undefined;
  const out: Requirement[] = [];
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels != null) {
    if (!isRecord(matchLabels)) return undefined;
    for (const [key, value] of Object.entries(matchLabels)) {
      if (typeof value !== 'string') return undefined;
      out.push({ on, key, operator: 'In', values: new Set([value]) });
    }
  }
  if (matchExpressions != null) {
    if (!Array.isArray(matchExpressions)) return undefined;
    for (const requirement of matchExpressions) {
      if (!isRecord(requirement) || typeof requirement.key !== 'string') return undefined;
      const { operator, values } = requirement;
      if (operator !== 'In' && operator !== 'NotIn' && operator !== 'Exists' && operator !== 'DoesNotExist') return undefined;
      if (values != null && !(Array.isArray(values) && values.every((value) => typeof value === 'string'))) return undefined;
      // The API server requires values for In and NotIn and none for Exists and DoesNotExist.
      const count = Array.isArray(values) ? values.length : 0;
      if ((operator === 'In' || operator === 'NotIn') === (count === 0)) return undefined;
      out.push({ on, key: requirement.key, operator, values: new Set((values ?? []) as string[]) });
    }
  }
  return out;
}

/**
 * Where a policy applies to a request, by its selectors: for each binding that can reject and
 * matches the request's resource (none in the run: the policy alone), the requirements of the policy's matchConstraints and the binding's
 * matchResources together. Undefined when a selector is not one the API server reads.
 */
function reachOf(object: PolicyObject, run: RunScope, request: RequestAttributes): Requirement[][] | undefined {
  const constraints = policySpec(object)?.matchConstraints;
  const own = [requirementsOf(constraints?.namespaceSelector, 'namespace'), requirementsOf(constraints?.objectSelector, 'object')];
  const bindings = policyIndexOf(run)
    .bindingsOf(object)
    .filter((binding) => binding.decodable && bindingCanReject(binding) && bindingMatchesRequest(binding, request));
  const each = bindings.length === 0 ? [[[], []]] : bindings.map((binding) => [requirementsOf(bindingSpec(binding)?.matchResources?.namespaceSelector, 'namespace'), requirementsOf(bindingSpec(binding)?.matchResources?.objectSelector, 'object')]);
  const sets = each.map((pair) => [...own, ...pair]);
  return sets.some((parts) => parts.some((part) => part === undefined)) ? undefined : sets.map((parts) => parts.flat() as Requirement[]);
}

/** Whether every object and namespace that meets `given` meets `required` too. */
function implied(required: Requirement, given: readonly Requirement[]): boolean {
  // Every Namespace has its name label (the API server sets it).
  if (required.on === 'namespace' && required.key === 'kubernetes.io/metadata.name' && required.operator === 'Exists') return true;
  const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((value) => b.has(value));
  return given.some((each) => {
    if (each.on !== required.on || each.key !== required.key) return false;
    switch (required.operator) {
      case 'Exists':
        return each.operator === 'Exists' || (each.operator === 'In' && each.values.size > 0);
      case 'DoesNotExist':
        return each.operator === 'DoesNotExist';
      case 'In':
        return each.operator === 'In' && each.values.size > 0 && subset(each.values, required.values);
      case 'NotIn':
        return each.operator === 'DoesNotExist' || (each.operator === 'NotIn' && subset(required.values, each.values)) || (each.operator === 'In' && [...each.values].every((value) => !required.values.has(value)));
    }
  });
}

/**
 * Whether a policy that applies where `other` says applies wherever one that applies where
 * `where` says does: for each of the latter's requirement sets, one of the former's whose every
 * requirement it implies (`NotIn [a]` where the other has `NotIn [a, b]`, a `matchLabels` entry as
 * the same `In`, a selector of the policy or of its binding alike).
 */
function appliesWherever(other: Requirement[][] | undefined, where: Requirement[][] | undefined, sameObjects: boolean): boolean {
  if (other === undefined || where === undefined) return false;
  // This policy's objectSelector is on a workload's labels, the other's on its Pods': not compared.
  const givens = sameObjects ? where : where.map((given) => given.filter((requirement) => requirement.on === 'namespace'));
  return givens.every((given) => other.some((required) => required.every((requirement) => implied(requirement, given))));
}

/**
 * Whether the other policy's matchConditions let in whatever this one's do: each is true on
 * every request of the kind, created or updated (`request.operation in ['CREATE', 'UPDATE']`; on
 * a workload's Pods, created),
 * or is one of this policy's (the same parsed expression). On a workload's Pods (`sameObjects`
 * false) the same expression counts only when it reads nothing of the request but its namespace
 * (or dryRun):
 * this policy's reads the workload and a person's request, the other's the Pod and its
 * controller's.
 */
function conditionsWherever(other: PolicyObject, object: PolicyObject, request: RequestAttributes, sameObjects: boolean, run: RunScope): boolean {
  const parsed = (policy: PolicyObject): (Expr | undefined)[] =>
    (Array.isArray(policySpec(policy)?.matchConditions) ? policySpec(policy)!.matchConditions! : []).map((condition) => {
      const source = text(condition?.expression);
      return source.trim() === '' ? undefined : parseExpression(source, 'validating.matchCondition', run.kubeVersion);
    });
  const own = new Set(parsed(object).flatMap((expr) => (expr === undefined ? [] : [canonical(expr)])));
  return parsed(other).every((expr) => {
    if (expr === undefined) return false;
    // (A controller only creates Pods, and a Pod's containers' securityContext cannot be updated.)
    if (onRequest(expr, request) === true && (!sameObjects || onRequest(expr, { ...request, operation: 'UPDATE' }) === true)) return true;
    return own.has(canonical(expr)) && (sameObjects || readsOnlyNamespace(expr));
  });
}

/** An expression's parse, without its positions: two that are written otherwise (spaces, comments) compare equal. */
function canonical(expr: Expr): string {
  return JSON.stringify(expr, (key, value: unknown) => (key === 'offset' ? undefined : typeof value === 'bigint' ? `${value}n` : value));
}


/** The fields of a request that a workload's request and its Pods' share (a dry run creates no Pods). */
const SHARED_REQUEST_FIELDS: ReadonlySet<string> = new Set(['namespace', 'dryRun']);

/**
 * Whether an expression reads nothing of the request but its namespace and dryRun (and the
 * namespace object): no other admission variable, however written (`.request`, CEL's leading
 * dot), except where a macro binds the name to its own loop variable.
 */
function readsOnlyNamespace(expr: Expr): boolean {
  const variable = (e: Expr): string | undefined => (e.kind === 'ident' ? e.name.replace(/^\./, '') : undefined);
  const visit = (e: Expr, bound: ReadonlySet<string>): boolean => {
    if (e.kind === 'select' && variable(e.operand) === 'request' && !bound.has('request')) return SHARED_REQUEST_FIELDS.has(e.field);
    if (e.kind === 'ident') {
      const name = variable(e)!;
      return bound.has(name) || !ADMISSION_VARIABLES.has(name) || name === 'namespaceObject';
    }
    if (e.kind === 'comprehension') {
      const inner = new Set([...bound, e.iterVar, ...(e.iterVar2 === undefined ? [] : [e.iterVar2]), e.accuVar]);
      return visit(e.iterRange, bound) && visit(e.accuInit, bound) && visit(e.loopCondition, inner) && visit(e.loopStep, inner) && visit(e.result, inner);
    }
    return children(e).every((child) => visit(child, bound));
  };
  return visit(expr, new Set());
}

function requestOf(kind: PodSpecKind): RequestAttributes {
  return { operation: 'CREATE', group: kind.group, version: kind.version, resource: kind.resource, subresource: '', namespace: 'default' };
}
