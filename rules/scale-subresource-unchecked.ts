import { parseExpression } from '../src/cel/check/index.js';
import type { Expr } from '../src/cel/check/ast.js';
import { nodesOf } from '../src/cel/check/ast.js';
import type { PolicyObject } from '../src/model/objects.js';
import { policySpec } from '../src/model/policies.js';
import { onRequest, policySeesRequest, validatingWebhookSees, type RequestAttributes } from '../src/match/subresource-request.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { memoKey } from '../src/run-scope.js';
import { elideMiddle, joinWords } from '../src/text/list.js';

/**
 * The built-in resources with a scale subresource: `kubectl scale`, and a HorizontalPodAutoscaler,
 * set their spec.replicas with an UPDATE of `<resource>/scale`, whose object is an
 * autoscaling/v1 Scale (spec.replicas again), not with an UPDATE of the resource itself.
 */
const SCALABLE: readonly { readonly group: string; readonly resource: string }[] = [
  { group: 'apps', resource: 'deployments' },
  { group: 'apps', resource: 'statefulsets' },
  { group: 'apps', resource: 'replicasets' },
  { group: '', resource: 'replicationcontrollers' },
];

/** An UPDATE of the resource, or of its scale subresource (whose Scale object carries no labels). */
const request = (target: (typeof SCALABLE)[number], subresource: '' | 'scale'): RequestAttributes => ({
  operation: 'UPDATE',
  group: target.group,
  version: 'v1',
  resource: target.resource,
  subresource,
  namespace: 'default',
  ...(subresource === 'scale' ? { objectLabels: {} } : {}),
});

/** The fields a selection chain reads from its root, root first (`object.spec.?replicas`, `object['spec'].replicas`, `has(object.spec.replicas)`); undefined for anything else. */
function pathOf(e: Expr): string[] | undefined {
  if (e.kind === 'ident') return [e.name];
  if (e.kind === 'select') {
    const before = pathOf(e.operand);
    return before === undefined ? undefined : [...before, e.field];
  }
  if (e.kind === 'call' && (e.fn === '_?._' || e.fn === '_[_]' || e.fn === '_[?_]') && e.args.length === 2) {
    const key = e.args[1]!;
    if (key.kind !== 'literal' || typeof key.value !== 'string') return undefined;
    const before = pathOf(e.args[0]!);
    return before === undefined ? undefined : [...before, key.value];
  }
  return undefined;
}

const isReplicas = (path: readonly string[] | undefined): boolean => path !== undefined && path.length === 3 && path[0] === 'object' && path[1] === 'spec' && path[2] === 'replicas';

interface ReplicaChecks {
  /**
   * The first validation that limits object.spec.replicas: reads its value (itself, or through a
   * variable that does), not only whether it is set, and not beside oldObject's (a policy that
   * keeps the replicas as they were, or unset, leaves them to an autoscaler by design).
   */
  readonly first: { readonly index: number; readonly path: (string | number)[] } | undefined;
  /**
   * A validation or variable reads a `replicas` field of anything but oldObject, or tells the
   * request's subresource or kind apart (`request.subResource`, `object.kind`): on the scale
   * subresource it is taken to check it (the rule stays silent rather than guess).
   */
  readonly mayCheckScale: boolean;
  /** Expressions of validations: to tell whether one refuses every scale request. */
  readonly validations: readonly Expr[];
}

const REPLICA_CHECKS = memoKey<Map<PolicyObject, ReplicaChecks>>('where each policy reads spec.replicas');

function replicaChecksOf(object: PolicyObject, run: RuleRun): ReplicaChecks {
  return run.memo.perObject(REPLICA_CHECKS, object, () => {
    const spec = policySpec(object);
    const text = (value: unknown): string => (typeof value === 'string' ? value : '');
    // A variable reads spec.replicas when its expression does, or reads a variable that does (in order).
    const reading = new Set<string>();
    const readingOld = new Set<string>();
    const readsValue = (expr: Expr): boolean => {
      const nodes = [...nodesOf(expr)];
      // `object.spec.?replicas.hasValue()` tests presence, as has() does.
      const presence = new Set(nodes.flatMap((node) => (node.kind === 'call' && node.fn === 'hasValue' && node.target !== undefined ? [node.target] : [])));
      return nodes.some((node) => {
        if ((node.kind === 'select' && node.testOnly) || presence.has(node)) return false;
        const path = pathOf(node);
        return isReplicas(path) || (path !== undefined && path.length === 2 && path[0] === 'variables' && reading.has(path[1]!));
      });
    };
    const readsOld = (expr: Expr): boolean =>
      [...nodesOf(expr)].some((node) => {
        const path = pathOf(node);
        return path !== undefined && ((path[0] === 'oldObject' && path[path.length - 1] === 'replicas') || (path.length === 2 && path[0] === 'variables' && readingOld.has(path[1]!)));
      });
    const mayCheck = (expr: Expr): boolean =>
      [...nodesOf(expr)].some((node) => {
        const path = pathOf(node);
        if (path === undefined || path.length < 2) return false;
        const last = path[path.length - 1]!;
        return (last === 'replicas' && path[0] !== 'oldObject') || (path[0] === 'request' && (last === 'subResource' || last === 'kind')) || (path[0] === 'object' && path.length === 2 && last === 'kind');
      });
    let mayCheckScale = false;
    for (const variable of Array.isArray(spec?.variables) ? spec.variables : []) {
      const source = text(variable?.expression);
      const expr = source.trim() === '' ? undefined : parseExpression(source, 'validating.variable', run.kubeVersion);
      if (expr === undefined) continue;
      if (readsValue(expr)) reading.add(text(variable?.name));
      if (readsOld(expr)) readingOld.add(text(variable?.name));
      if (mayCheck(expr)) mayCheckScale = true;
    }
    let first: ReplicaChecks['first'];
    const validations: Expr[] = [];
    (Array.isArray(spec?.validations) ? spec.validations : []).forEach((validation, index) => {
      const source = text(validation?.expression);
      const expr = source.trim() === '' ? undefined : parseExpression(source, 'validating.validation', run.kubeVersion);
      if (expr === undefined) return;
      validations.push(expr);
      if (mayCheck(expr)) mayCheckScale = true;
      // (One that holds on every UPDATE, `request.operation != 'CREATE' || …`, limits creations only.)
      if (first === undefined && readsValue(expr) && !readsOld(expr) && !holdsOnUpdate(expr)) first = { index, path: ['spec', 'validations', index, 'expression'] };
    });
    return { first, mayCheckScale, validations };
  });
}

/** Whether a validation holds on every UPDATE of the resource whatever the object: an `||` with a term true on UPDATE (`request.operation != 'CREATE'`, `oldObject != null`). */
function holdsOnUpdate(expr: Expr): boolean {
  return onRequest(expr, { operation: 'UPDATE', group: 'apps', version: 'v1', resource: 'deployments', subresource: '', namespace: 'default' }) === true;
}

/** Whether a validation (or one of its `&&` terms) fails on every request like this one: `false`, or false on its subresource or operation. */
function refuses(expr: Expr, scale: RequestAttributes): boolean {
  if (onRequest(expr, scale) === false) return true;
  return expr.kind === 'call' && expr.fn === '_&&_' && expr.args.length === 2 && (refuses(expr.args[0]!, scale) || refuses(expr.args[1]!, scale));
}

/**
 * Whether the scale request of a resource is checked in the run: a ValidatingAdmissionPolicy that
 * sees it reads spec.replicas (a Scale has it too) or refuses it, or a validating webhook is
 * called on it (its code is not judged).
 */
function scaleChecked(run: RuleRun, scale: RequestAttributes): boolean {
  const checked = run.memo.get(SCALE_CHECKED, () => new Map<string, boolean>());
  const key = `${scale.group}/${scale.resource}`;
  let answer = checked.get(key);
  if (answer === undefined) {
    answer = scaleCheckedNow(run, scale);
    checked.set(key, answer);
  }
  return answer;
}

/** scaleChecked, per run and resource. */
const SCALE_CHECKED = memoKey<Map<string, boolean>>('whether the run checks the scale subresource of each resource');

function scaleCheckedNow(run: RuleRun, scale: RequestAttributes): boolean {
  return (
    run.policies.some((policy) => {
      if (policy.kind !== 'ValidatingAdmissionPolicy' || !policy.decodable || !policySeesRequest(policy, run, scale)) return false;
      const checks = replicaChecksOf(policy, run);
      return checks.mayCheckScale || checks.validations.some((expr) => refuses(expr, scale));
    }) || validatingWebhookSees(run, scale)
  );
}

/** The subresources left, short: one or two named, else how many. */
function scaleList(resources: readonly string[]): string {
  const named = joinWords(resources.map((resource) => `${resource}/scale`));
  return resources.length === 1 || (resources.length === 2 && named.length <= 40) ? named : `${resources.length} scale subresources`;
}

/** Where resources of the policy are left: one finding per policy, at its first validation that reads spec.replicas. */
function check(object: PolicyObject, run: RuleRun): Violation<'unchecked'>[] {
  if (object.kind !== 'ValidatingAdmissionPolicy') return [];
  const { first } = replicaChecksOf(object, run);
  if (first === undefined) return [];
  const left = SCALABLE.filter((target) => policySeesRequest(object, run, request(target, '')) && !scaleChecked(run, request(target, 'scale')));
  if (left.length === 0) return [];
  const resources = left.map((target) => target.resource);
  return [
    {
      messageId: 'unchecked',
      data: {
        site: `validations[${first.index}]`,
        policy: elideMiddle(object.name ?? '(unnamed)', 30),
        scale: scaleList(resources),
      },
      path: first.path,
    },
  ];
}

export const rule = defineObjectRule({
  meta: {
    id: 'scale-subresource-unchecked',
    title: 'A policy checks spec.replicas, but kubectl scale sets it through the scale subresource',
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy'],
    messages: {
      unchecked: '{{site}} of policy "{{policy}}" limits spec.replicas; kubectl scale goes past it through {{scale}}',
    },
    help: 'kubectl scale and a HorizontalPodAutoscaler change spec.replicas with an UPDATE of the scale subresource (deployments/scale), which a rule of the resource does not match: the policy never sees it. Check it in a policy of its own on the subresource (resources: ["deployments/scale"], operations UPDATE): its object is an autoscaling/v1 Scale, which has no labels, no pod template and only spec.replicas, left out when it is 0, so read object.spec.?replicas.orValue(0). (Adding the subresource to this policy makes every other check of it fail on a Scale.)',
  },
  create(run) {
    return { policy: (object) => check(object, run) };
  },
});
