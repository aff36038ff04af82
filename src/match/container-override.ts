/**
 * Whether a ValidatingAdmissionPolicy that checks a pod-level securityContext field lets a
 * container override it. A container's own securityContext takes precedence over the pod's for
 * runAsNonRoot, runAsUser, runAsGroup, seccompProfile, appArmorProfile and seLinuxOptions
 * (k8s.io/api core/v1 PodSecurityContext: "the value specified in SecurityContext takes
 * precedence"), so a pod with `runAsNonRoot: true` whose container sets `runAsNonRoot: false`
 * runs that container unchecked; Pod Security's restricted level checks both levels
 * (k8s.io/pod-security-admission policy/check_runAsNonRoot.go).
 *
 * Shown by evaluating the policy, not by reading its text: on a made-up Pod (or workload) that
 * passes it, three objects that differ in one field only are evaluated with CEL:
 *
 * - the pod-level field bad (`runAsNonRoot: false`): some validation is false (the policy checks it);
 * - the pod-level field good: every validation is true;
 * - the pod-level field good, the first container's own bad: every validation is true (a way past).
 *
 * Each step must give a boolean from the evaluator (an error, a function it lacks, the budget:
 * not shown), and the policy's matchConditions must be true on all three. Other policies of the
 * run that see the request are evaluated on the last two: one that admits the good pod and
 * denies the overridden one checks the container, and nothing is reported; so is a policy that
 * reads securityContext and cannot be evaluated here, and a validating webhook called on the
 * request (its checks are in code).
 */
import { celMeterOf, type Meter } from '../cel/budget.js';
import { evaluateValue } from '../cel/evaluate.js';
import { loadCelSync } from '../cel/library.js';
import type { PolicyObject } from '../model/objects.js';
import { policySpec } from '../model/policies.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { policySeesRequest, validatingWebhookSees, type RequestAttributes } from './subresource-request.js';

/** A securityContext field a container's own setting overrides, with values a policy accepts (tried in order) and one it means to refuse. */
interface OverridableField {
  /** Under securityContext: `runAsNonRoot`, `seccompProfile.type`. */
  readonly path: readonly string[];
  readonly good: readonly unknown[];
  readonly bad: unknown;
}

export const OVERRIDABLE_FIELDS: readonly OverridableField[] = [
  { path: ['runAsNonRoot'], good: [true], bad: false },
  { path: ['runAsUser'], good: [1000n, 65534n, 10001n], bad: 0n },
  { path: ['runAsGroup'], good: [1000n, 65534n, 10001n], bad: 0n },
  { path: ['seccompProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined' },
  { path: ['appArmorProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined' },
  { path: ['seLinuxOptions', 'type'], good: ['container_t'], bad: 'spc_t' },
];

/** The kinds with a pod spec a policy may match, and where their pod template sits. */
const POD_SPEC_KINDS: readonly { readonly group: string; readonly version: string; readonly resource: string; readonly kind: string; readonly template: readonly string[] }[] = [
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', template: [] },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', template: ['spec', 'template'] },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', template: ['spec', 'template'] },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', template: ['spec', 'template'] },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', template: ['spec', 'jobTemplate', 'spec', 'template'] },
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', template: ['spec', 'template'] },
  { group: '', version: 'v1', resource: 'podtemplates', kind: 'PodTemplate', template: ['template'] },
];

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

/**
 * The pod securityContexts the others are varied from: none set, and every field of
 * OVERRIDABLE_FIELDS at its first good value (a policy that checks several asks for them all).
 */
const BASES: readonly Readonly<Record<string, unknown>>[] = [{}, OVERRIDABLE_FIELDS.reduce<Record<string, unknown>>((base, field) => withValue(base, field.path, field.good[0]), {})];

/**
 * A plain pod spec as CEL sees it after defaulting (empty fields left out): one container, the
 * pod securityContext `podLevel`, the container's `containerLevel` (none when undefined).
 */
function podSpec(podLevel: Record<string, unknown>, containerLevel: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    containers: [
      {
        name: 'app',
        image: 'registry.example.com/app:1.0',
        imagePullPolicy: 'IfNotPresent',
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
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
function objectOf(kind: (typeof POD_SPEC_KINDS)[number], spec: Record<string, unknown>): Record<string, unknown> {
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

/** What CEL sees on a CREATE of `kind` with `object`. */
function contextOf(kind: (typeof POD_SPEC_KINDS)[number], object: Record<string, unknown>): Record<string, unknown> {
  return {
    object,
    oldObject: null,
    request: {
      kind: { group: kind.group, version: kind.version, kind: kind.kind },
      resource: { group: kind.group, version: kind.version, resource: kind.resource },
      requestKind: { group: kind.group, version: kind.version, kind: kind.kind },
      requestResource: { group: kind.group, version: kind.version, resource: kind.resource },
      name: 'app',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'someone@example.com', groups: ['system:authenticated'] },
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
    namespaceObject: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The policy's matchConditions and validations on one object: 'passes' when every condition and
 * validation is true, 'denies' when the conditions are and a validation is false, 'skipped' when
 * a condition is false (it does not run), undefined when any is not a boolean here. `failing`
 * gets the indexes of the false validations.
 */
function outcome(object: PolicyObject, context: Record<string, unknown>, meter: Meter, failing?: Set<number>): 'passes' | 'denies' | 'skipped' | undefined {
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
  const validations = Array.isArray(spec?.validations) ? spec.validations : [];
  if (validations.length === 0) return undefined;
  let passes = true;
  for (const [index, validation] of validations.entries()) {
    const result = evaluateValue(text(validation?.expression), full, meter);
    if (!result.ok || typeof result.value !== 'boolean') return undefined;
    if (!result.value) {
      passes = false;
      failing?.add(index);
    }
  }
  return passes ? 'passes' : 'denies';
}

/**
 * Whether another policy may check the container: it denies the overridden pod and not the good
 * one, or it reads securityContext and cannot be evaluated here (params, a function the
 * evaluator lacks, an error).
 */
function checksContainer(other: PolicyObject, passing: Record<string, unknown>, overridden: Record<string, unknown>, meter: Meter): boolean {
  const spec = policySpec(other);
  const readsSecurityContext = JSON.stringify([spec?.validations ?? [], spec?.variables ?? [], spec?.matchConditions ?? []]).includes('securityContext');
  if (spec?.paramKind != null) return readsSecurityContext;
  const before = outcome(other, passing, meter);
  const after = outcome(other, overridden, meter);
  if (before === undefined || after === undefined) return readsSecurityContext;
  return before !== 'denies' && after === 'denies';
}

/** A way past a policy: the validation that checks the field at pod level, the field, and the kind it was shown on. */
export interface ContainerOverride {
  readonly validation: number;
  readonly field: string;
  readonly bad: unknown;
  readonly kind: string;
}

const OVERRIDES = memoKey<Map<PolicyObject, readonly ContainerOverride[]>>('pod-level securityContext checks a container overrides, per policy');

/** The ways past the policy (one per field; the first kind that shows it), computed once per run. */
export function containerOverrides(object: PolicyObject, run: RunScope): readonly ContainerOverride[] {
  return run.memo.perObject(OVERRIDES, object, () => find(object, run));
}

function find(object: PolicyObject, run: RunScope): ContainerOverride[] {
  const spec = policySpec(object);
  if (object.kind !== 'ValidatingAdmissionPolicy' || !object.decodable || spec === undefined || spec.paramKind != null) return [];
  const source = JSON.stringify(spec.validations ?? []) + JSON.stringify(spec.variables ?? []);
  const fields = OVERRIDABLE_FIELDS.filter((field) => source.includes(field.path[0]!));
  if (fields.length === 0) return [];
  const kinds = POD_SPEC_KINDS.filter((kind) => policySeesRequest(object, run, requestOf(kind)));
  if (kinds.length === 0 || !loadCelSync()) return [];
  const meter = celMeterOf(run);
  const found: ContainerOverride[] = [];
  for (const field of fields) {
    const name = field.path.join('.');
    for (const [kind, base] of kinds.flatMap((kind) => BASES.map((base) => [kind, base] as const))) {
      const at = (podLevel: unknown, containerLevel: unknown): Record<string, unknown> =>
        contextOf(kind, objectOf(kind, podSpec(withValue(base, field.path, podLevel), containerLevel === undefined ? undefined : (nested(field.path, containerLevel) as Record<string, unknown>))));
      const failing = new Set<number>();
      if (outcome(object, at(field.bad, undefined), meter, failing) !== 'denies') continue;
      const good = field.good.find((value) => outcome(object, at(value, undefined), meter) === 'passes');
      if (good === undefined) continue;
      const overridden = at(good, field.bad);
      if (outcome(object, overridden, meter) !== 'passes') continue;
      // Another policy that sees the request may check the container; a validating webhook that
      // is called on it checks in code what cannot be seen here.
      const passing = at(good, undefined);
      const request = requestOf(kind);
      const checkedElsewhere =
        validatingWebhookSees(run, request) ||
        run.policies.some((other) => other !== object && other.kind === 'ValidatingAdmissionPolicy' && other.decodable && policySeesRequest(other, run, request) && checksContainer(other, passing, overridden, meter));
      if (checkedElsewhere) break;
      found.push({ validation: Math.min(...failing), field: name, bad: field.bad, kind: kind.kind });
      break;
    }
  }
  return found;
}

function requestOf(kind: (typeof POD_SPEC_KINDS)[number]): RequestAttributes {
  return { operation: 'CREATE', group: kind.group, version: kind.version, resource: kind.resource, subresource: '', namespace: 'default' };
}
