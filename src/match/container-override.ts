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
import { policySpec } from '../model/policies.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { policySeesRequest, validatingWebhookSees, type RequestAttributes } from './subresource-request.js';

/**
 * A securityContext field a container's own setting overrides, with values a policy accepts
 * (tried in order), one it means to refuse at pod level, and what the container sets to get past
 * (for the two that keep a container from root, both: runAsNonRoot: false with runAsUser: 0 is
 * root whatever the image; either alone may not be, where the other is checked).
 */
interface OverridableField {
  /** Under securityContext: `runAsNonRoot`, `seccompProfile.type`. */
  readonly path: readonly string[];
  readonly good: readonly unknown[];
  readonly bad: unknown;
  readonly override: Readonly<Record<string, unknown>>;
}

const AS_ROOT = { runAsNonRoot: false, runAsUser: 0n };

export const OVERRIDABLE_FIELDS: readonly OverridableField[] = [
  { path: ['runAsNonRoot'], good: [true], bad: false, override: AS_ROOT },
  { path: ['runAsUser'], good: [1000n, 65534n, 10001n], bad: 0n, override: AS_ROOT },
  { path: ['runAsGroup'], good: [1000n, 65534n, 10001n], bad: 0n, override: { runAsGroup: 0n } },
  { path: ['seccompProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined', override: { seccompProfile: { type: 'Unconfined' } } },
  { path: ['appArmorProfile', 'type'], good: ['RuntimeDefault'], bad: 'Unconfined', override: { appArmorProfile: { type: 'Unconfined' } } },
  { path: ['seLinuxOptions', 'type'], good: ['container_t'], bad: 'spc_t', override: { seLinuxOptions: { type: 'spc_t' } } },
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

/**
 * The pods the others are varied from: nothing set; every field of OVERRIDABLE_FIELDS at its
 * first good value (a policy that checks several asks for them all); and that with a container
 * hardened as Pod Security's restricted level asks, limits, and the pod's fsGroup (a policy that
 * checks these beside asks for them too).
 */
const BASES: readonly Base[] = [
  { pod: {}, container: undefined, containerFields: {} },
  { pod: ALL_GOOD, container: undefined, containerFields: {} },
  {
    pod: { ...ALL_GOOD, fsGroup: 1000n, supplementalGroups: [1000n] },
    container: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true },
    containerFields: { resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } } },
  },
];

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

/** What CEL sees on a CREATE of `kind` with `object`. */
function contextOf(kind: PodSpecKind, object: Record<string, unknown>): Record<string, unknown> {
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

/** The policy's text that may read a container's securityContext: its validations, variables and matchConditions. */
function readsSecurityContext(object: PolicyObject): boolean {
  const spec = policySpec(object);
  return JSON.stringify([spec?.validations ?? [], spec?.variables ?? [], spec?.matchConditions ?? [], (spec as { mutations?: unknown } | undefined)?.mutations ?? []]).includes('securityContext');
}

/**
 * Whether a validation may tell the objects here apart: it reads securityContext, one of the
 * fields, or a variable (which may). One that does not (a label, resource limits) gives the same
 * on every object here, and a real pod can meet it while keeping the container's override.
 */
function mayTellApart(expression: string): boolean {
  return expression.includes('securityContext') || expression.includes('variables') || OVERRIDABLE_FIELDS.some((field) => expression.includes(field.path[0]!));
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
  const validations = (Array.isArray(spec.validations) ? spec.validations : []).map((validation) => text(validation?.expression));
  const source = JSON.stringify(validations) + JSON.stringify(spec.variables ?? []);
  const fields = OVERRIDABLE_FIELDS.filter((field) => source.includes(field.path[0]!));
  if (fields.length === 0) return [];
  const kinds = POD_SPEC_KINDS.filter((kind) => policySeesRequest(object, run, requestOf(kind)));
  if (kinds.length === 0 || !loadCelSync()) return [];
  const meter = celMeterOf(run);
  /** The validations that may tell the objects apart; the others are met by a real pod whatever its containers set. */
  const telling = validations.map(mayTellApart);
  /** Every telling validation true (and every condition): the policy admits the object. */
  const admits = (values: ReturnType<typeof judged>): boolean => Array.isArray(values) && values.every((value, index) => !telling[index] || value === true);
  const found: ContainerOverride[] = [];
  for (const field of fields) {
    const name = field.path.join('.');
    search: for (const kind of kinds) {
      for (const base of BASES) {
        const spec = (podLevel: unknown, overridden: boolean): Record<string, unknown> =>
          podSpec(withValue(base.pod, field.path, podLevel), overridden ? { ...base.container, ...field.override } : base.container === undefined ? undefined : { ...base.container }, base.containerFields);
        const refused = judged(object, contextOf(kind, objectOf(kind, spec(field.bad, false))), meter);
        if (!Array.isArray(refused) || refused.some((value, index) => telling[index] && value === undefined)) continue;
        const checking = refused.findIndex((value, index) => telling[index] && value === false);
        if (checking < 0) continue;
        const good = field.good.find((value) => admits(judged(object, contextOf(kind, objectOf(kind, spec(value, false))), meter)));
        if (good === undefined) continue;
        if (!admits(judged(object, contextOf(kind, objectOf(kind, spec(good, true))), meter))) continue;
        if (coveredElsewhere(object, run, kind, spec(good, false), spec(good, true), meter)) break search;
        found.push({ validation: checking, field: name, bad: field.bad, kind: kind.kind });
        break search;
      }
    }
  }
  return found;
}

/**
 * Whether something else of the run may keep the overridden container out: another policy that
 * sees the request and refuses it (refusesOverride), a MutatingAdmissionPolicy that sees it and
 * writes securityContext, or a validating webhook called on it (its code is not seen). For a
 * workload, the Pods its controller creates from the template are asked too, of every policy,
 * this one included: one that refuses them lets no such container run.
 */
function coveredElsewhere(object: PolicyObject, run: RunScope, kind: PodSpecKind, passing: Record<string, unknown>, overridden: Record<string, unknown>, meter: Meter): boolean {
  const covered = (on: PodSpecKind, self: boolean): boolean => {
    const request = requestOf(on);
    if (validatingWebhookSees(run, request)) return true;
    const good = contextOf(on, objectOf(on, passing));
    const bad = contextOf(on, objectOf(on, overridden));
    return run.policies.some((other) => {
      if ((other === object && !self) || !other.decodable || !policySeesRequest(other, run, request)) return false;
      if (other.kind === 'MutatingAdmissionPolicy') return readsSecurityContext(other);
      return other.kind === 'ValidatingAdmissionPolicy' && refusesOverride(other, good, bad, meter);
    });
  };
  return covered(kind, false) || (kind !== POD_KIND && covered(POD_KIND, true));
}

function requestOf(kind: PodSpecKind): RequestAttributes {
  return { operation: 'CREATE', group: kind.group, version: kind.version, resource: kind.resource, subresource: '', namespace: 'default' };
}
