/**
 * matchConditions for the simulated request (facts §5 step 5): any condition false skips the
 * webhook; all true calls it; otherwise the outcome depends on what the flags do not say.
 *
 * A simulation knows the request's attributes (operation, resource, kind, namespace, dryRun)
 * and that `oldObject` is null on CREATE and CONNECT and `object` on DELETE. With `--object`
 * (and `--old-object`) it knows the objects too, and the request's name. It does not know the
 * user, or what the authorizer would answer. An expression that reads
 * any of those is not evaluated (shown as "depends on"): evaluating it against a made-up value
 * would be a guess (`has(request.userInfo)` is false on a map without the key). The others are
 * evaluated with cel-js; one it cannot evaluate is shown as "depends on" too, and one over the
 * evaluation budget (src/cel/budget.ts) says so after the expression.
 */
import type { MatchCondition } from '../model/types.js';
import { budget, OVER_BUDGET, RUNTIME_COST_BUDGET_MATCH_CONDITIONS, type Meter } from '../cel/budget.js';
import { evaluateConditionResult } from '../cel/evaluate.js';
import type { SimulatedRequest } from './request-flags.js';

export type ConditionsResult =
  | { readonly outcome: 'none' }
  | { readonly outcome: 'true' }
  | { readonly outcome: 'false'; readonly condition: string }
  | { readonly outcome: 'depends'; readonly expressions: readonly string[] };

/** Parts of the request a simulation does not know (`name` is known from an --object). */
const UNKNOWN_REQUEST_FIELDS = /\b(userInfo|uid|options|name)\b/;
const UNKNOWN_REQUEST_FIELDS_WITH_OBJECT = /\b(userInfo|uid|options)\b/;

/** The value of `object` when the simulation knows it (null on DELETE), else undefined (on CONNECT it is the options, never known). */
function objectValue(request: SimulatedRequest): unknown {
  if (request.operation === 'DELETE') return null;
  if (request.operation === 'CONNECT') return undefined;
  return request.object?.value;
}

/** The value of `oldObject` when the simulation knows it (null on CREATE and CONNECT), else undefined. */
function oldObjectValue(request: SimulatedRequest): unknown {
  if (request.operation === 'CREATE' || request.operation === 'CONNECT') return null;
  if (request.operation === 'DELETE') return request.object?.value;
  return request.oldObject?.value;
}

export function readsUnknown(expression: string, request: SimulatedRequest): boolean {
  if (/\b(authorizer|params|namespaceObject|variables)\b/.test(expression)) return true;
  // `request.name`, `request.userInfo`, … (also through brackets or cel.bind: any mention counts).
  const unknownFields = request.object !== undefined ? UNKNOWN_REQUEST_FIELDS_WITH_OBJECT : UNKNOWN_REQUEST_FIELDS;
  if (/\brequest\b/.test(expression) && unknownFields.test(expression)) return true;
  if (/\bobject\b/.test(expression) && objectValue(request) === undefined) return true;
  if (/\boldObject\b/.test(expression) && oldObjectValue(request) === undefined) return true;
  return false;
}

/** The variables a simulation knows: the request's attributes and the objects that are null. */
export function knownVariables(request: SimulatedRequest): Record<string, unknown> {
  const gvk = { group: request.group, version: request.version, kind: request.kind };
  const gvr = { group: request.group, version: request.version, resource: request.resource };
  const variables: Record<string, unknown> = {
    request: {
      kind: gvk,
      resource: gvr,
      subResource: request.subresource,
      requestKind: gvk,
      requestResource: gvr,
      requestSubResource: request.subresource,
      namespace: request.namespace ?? '',
      operation: request.operation,
      dryRun: request.dryRun,
      // An object written with generateName has no name yet when it is admitted.
      ...(request.object !== undefined ? { name: request.object.name ?? '' } : {}),
    },
  };
  const object = objectValue(request);
  const oldObject = oldObjectValue(request);
  if (object !== undefined) variables.object = object;
  if (oldObject !== undefined) variables.oldObject = oldObject;
  return variables;
}

/** Evaluates the conditions; the caller has loaded cel-js (prepareCel) when there are any. */
export function evaluateConditions(conditions: readonly (MatchCondition | null)[] | undefined, request: SimulatedRequest, meter: Meter): ConditionsResult {
  const listed = (conditions ?? []).filter((condition): condition is MatchCondition => condition !== null && typeof condition?.expression === 'string');
  if (listed.length === 0) return { outcome: 'none' };
  const variables = knownVariables(request);
  const open: string[] = [];
  const shared = budget(RUNTIME_COST_BUDGET_MATCH_CONDITIONS);
  for (const condition of listed) {
    const expression = condition.expression!.trim();
    const result = readsUnknown(expression, request) ? undefined : evaluateConditionResult(expression, variables, meter, shared);
    // Any false skips the webhook, whatever the others would give (matchconditions/matcher.go).
    if (result !== undefined && 'value' in result && !result.value) return { outcome: 'false', condition: condition.name ?? expression };
    // Over the budget, the reason goes with the expression: "depends on: … (not evaluated: …)".
    if (result === undefined || !('value' in result)) open.push(result?.notEvaluated === OVER_BUDGET ? `${expression} (${OVER_BUDGET})` : expression);
  }
  return open.length === 0 ? { outcome: 'true' } : { outcome: 'depends', expressions: open };
}
