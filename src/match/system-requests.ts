/**
 * Would a webhook's matchConditions let the system's own writes in kube-system through?
 * The conditions are evaluated (facts §5 step 5) for requests as the kubelet, the scheduler,
 * the controller manager's service accounts and the API server itself make them. The answer is
 * only "called" when every condition is true for one of them; a condition we cannot evaluate
 * here (authorizer checks, say) gives "unknown", and rules stay silent rather than guess.
 */
import type { BuiltinMatch } from '../kube/kube-system-resources.js';
import type { MatchCondition } from '../model/types.js';
import { budget, celMeterOf, RUNTIME_COST_BUDGET_MATCH_CONDITIONS, type Meter } from '../cel/budget.js';
import { evaluateCondition } from '../cel/evaluate.js';
import { memoKey, type RunScope } from '../run-scope.js';

export interface Requester {
  readonly username: string;
  readonly groups: readonly string[];
}

export const SYSTEM_REQUESTERS: readonly Requester[] = [
  { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] },
  { username: 'system:kube-scheduler', groups: ['system:authenticated'] },
  { username: 'system:kube-controller-manager', groups: ['system:authenticated'] },
  {
    username: 'system:serviceaccount:kube-system:replicaset-controller',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  },
  { username: 'system:apiserver', groups: ['system:authenticated', 'system:masters'] },
];

export type ConditionsOutcome = 'called' | 'skipped' | 'unknown';

function kindOf(resource: string): string {
  const singular = resource.endsWith('ies') ? `${resource.slice(0, -3)}y` : resource.endsWith('ses') ? resource.slice(0, -2) : resource.replace(/s$/, '');
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

export interface CelRequest {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly operation: string;
  /** null for cluster-scoped objects. */
  readonly namespace: string | null;
  readonly requester: Requester;
}

/** The variables a matchCondition sees (object, oldObject, request) for such a request. */
export function celVariables(spec: CelRequest): Record<string, unknown> {
  const { group, resource, operation, requester } = spec;
  const kind = { group, version: 'v1', kind: kindOf(resource) };
  const object = {
    apiVersion: group === '' ? 'v1' : `${group}/v1`,
    kind: kind.kind,
    metadata: { name: 'system-object', ...(spec.namespace === null ? {} : { namespace: spec.namespace }), labels: {}, annotations: {} },
    spec: {},
  };
  const request = {
    uid: 'lint',
    kind,
    resource: { group, version: 'v1', resource },
    subResource: spec.subresource,
    requestKind: kind,
    requestResource: { group, version: 'v1', resource },
    name: 'system-object',
    // AdmissionRequest.namespace is "" for cluster-scoped objects.
    namespace: spec.namespace ?? '',
    operation,
    userInfo: { username: requester.username, uid: '', groups: [...requester.groups], extra: {} },
    dryRun: false,
    options: {},
  };
  return {
    request,
    object: operation === 'DELETE' ? null : object,
    oldObject: operation === 'CREATE' ? null : object,
  };
}

/**
 * The outcome over several requests: "called" when every condition is true for one of them,
 * "skipped" when some condition is false for each, "unknown" otherwise.
 */
export function conditionsOutcome(scope: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], requests: readonly CelRequest[]): ConditionsOutcome {
  const expressions = conditions.map((condition) => condition?.expression?.trim() ?? '').filter((e) => e !== '');
  if (expressions.length === 0) return 'called';
  // The outcome depends on the expressions and the requests (and the run's budget): many webhooks share both.
  const key = JSON.stringify([expressions, requests]);
  const outcomes = scope.memo.get(OUTCOMES, () => new Map<string, ConditionsOutcome>());
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    outcome = evaluateConditions(expressions, requests, celMeterOf(scope));
    outcomes.set(key, outcome);
  }
  return outcome;
}

/** Outcomes of conditionsOutcome in a run, by expressions and requests. */
const OUTCOMES = memoKey<Map<string, ConditionsOutcome>>('matchConditions outcomes by expressions and requests');

function evaluateConditions(expressions: readonly string[], requests: readonly CelRequest[], meter: Meter): ConditionsOutcome {
  let unknown = false;
  for (const request of requests) {
    const context = celVariables(request);
    // The webhook's conditions share one budget per request, as in the API server; one over
    // it is unknown (undefined), so the rules say less rather than guess.
    const shared = budget(RUNTIME_COST_BUDGET_MATCH_CONDITIONS);
    const results = expressions.map((expression) => evaluateCondition(expression, context, meter, shared));
    // Any false skips the webhook, even when another condition could not be evaluated.
    if (results.includes(false)) continue;
    if (results.includes(undefined)) {
      unknown = true;
      continue;
    }
    return 'called';
  }
  return unknown ? 'unknown' : 'skipped';
}

/**
 * Outcome for the system's own writes of `match` in kube-system, for every operation the rule
 * lists: called for one requester and operation wins (a lease is created once, renewed often).
 */
export function systemRequestOutcome(scope: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], match: BuiltinMatch, operations: readonly string[]): ConditionsOutcome {
  if (conditions.length === 0) return 'called';
  const listed = operations.includes('*') ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE', 'UPDATE', 'DELETE'].filter((op) => operations.includes(op));
  const resource = match.resource === '*' ? 'pods' : match.resource;
  const subresource = match.subresource === '*' ? '' : match.subresource;
  // The requests follow from the group, resource, subresource and operations: a short key for the outcome.
  const key = JSON.stringify([conditions.map((condition) => condition?.expression ?? null), match.group, resource, subresource, listed]);
  const outcomes = scope.memo.get(SYSTEM_OUTCOMES, () => new Map<string, ConditionsOutcome>());
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    const requests = listed.flatMap((operation) => SYSTEM_REQUESTERS.map((requester) => ({ group: match.group, resource, subresource, operation, namespace: 'kube-system', requester })));
    outcome = conditionsOutcome(scope, conditions, requests);
    outcomes.set(key, outcome);
  }
  return outcome;
}

/** Outcomes of systemRequestOutcome in a run, by conditions and write. */
const SYSTEM_OUTCOMES = memoKey<Map<string, ConditionsOutcome>>('matchConditions outcomes for the system\'s writes');
