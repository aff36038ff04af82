/**
 * Evaluation of CEL from manifests (matchConditions for a request, sub-expressions for the
 * abstract evaluation), metered: `meter` is the run's (celMeterOf), so one run's spending never
 * limits another's. The library must be loaded first (src/cel/library.ts).
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { Evaluation } from './bounded.js';
import type { Budget, Meter } from './budget.js';
import { celLibrary } from './library.js';

/** A condition's value, or why it was not evaluated (a syntax error, an unsupported function, the budget). */
export type ConditionEvaluation = { readonly value: boolean } | { readonly notEvaluated: string };

/**
 * Evaluates an expression against plain data (as a matchCondition is evaluated for a request),
 * within the evaluation budget (src/cel/budget.ts): `meter` is the run's: the expression comes from a manifest, so
 * its cost is bounded and `matches` runs with RE2. `shared` is the budget of the webhook's
 * conditions for this request (RuntimeCELCostBudgetMatchConditions).
 */
export function evaluateConditionResult(expression: string, context: Record<string, unknown>, meter: Meter, shared?: Budget): ConditionEvaluation {
  const result = celLibrary().bounded.evaluate(expression, context, meter, shared);
  if (!result.ok) return { notEvaluated: result.reason };
  return typeof result.value === 'boolean' ? { value: result.value } : { notEvaluated: 'not a bool' };
}

/**
 * true or false, or undefined when it cannot be evaluated here (a syntax error, a Kubernetes
 * library function such as `authorizer` that cel-js does not have, or over the budget).
 */
export function evaluateCondition(expression: string, context: Record<string, unknown>, meter: Meter, shared?: Budget): boolean | undefined {
  const result = evaluateConditionResult(expression, context, meter, shared);
  return 'value' in result ? result.value : undefined;
}

/** Any CEL value of an expression, within the evaluation budget. */
export function evaluateValue(expression: string, context: Record<string, unknown>, meter: Meter): Evaluation {
  return celLibrary().bounded.evaluate(expression, context, meter);
}

/** The AST the API server would build (unary runs collapsed); undefined on a syntax error or when too deep to walk. */
export function parseBounded(expression: string): ASTNode | undefined {
  return celLibrary().bounded.parse(expression);
}
