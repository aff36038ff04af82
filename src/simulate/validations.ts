/**
 * With `--object`, a called ValidatingAdmissionPolicy's validations evaluated against the object
 * (k8s.io/apiserver plugin/policy/validating validator.go): its variables in order, then each
 * validation; a validation that is false fails with its message (or `failed expression: <expr>`).
 * An expression that reads what the simulation does not know (the user, the authorizer, params
 * of a policy with a paramKind, a variable it could not evaluate, the namespace's object when the
 * run has no manifest for it) is not evaluated: the verdict then depends on it. Evaluation is
 * metered as every CEL evaluation from a manifest (src/cel/budget.ts).
 */
import type { Meter } from '../cel/budget.js';
import { evaluateConditionResult, evaluateValue } from '../cel/evaluate.js';
import type { NamespaceObject } from '../model/objects.js';
import type { AdmissionPolicySpec } from '../model/types.js';
import { knownVariables, readsUnknown } from './conditions.js';
import type { SimulatedRequest } from './request-flags.js';

export type ValidationVerdict =
  | { readonly outcome: 'pass' }
  /** The first failed validation's message, as the API server reports the first denial. */
  | { readonly outcome: 'fail'; readonly message: string; readonly failed: number }
  | { readonly outcome: 'depends'; readonly expressions: readonly string[] };

const ROOTS_THE_REQUEST_DOES_NOT_TELL = /\b(authorizer)\b/;

/** The validations of a called policy against the request's object; undefined without an object. */
export function evaluateValidations(spec: AdmissionPolicySpec | undefined, request: SimulatedRequest, namespace: NamespaceObject | undefined, meter: Meter): ValidationVerdict | undefined {
  if (request.object === undefined || spec === undefined) return undefined;
  const validations = (spec.validations ?? []).filter((validation) => validation !== null && typeof validation?.expression === 'string');
  if (validations.length === 0) return { outcome: 'pass' };
  const context: Record<string, unknown> = knownVariables(request);
  // Without a paramKind, params is null; with one, the binding's paramRef names an object the run may not hold.
  const paramsKnown = spec.paramKind == null;
  if (paramsKnown) context.params = null;
  const namespaceKnown = request.namespace === null || namespace !== undefined;
  if (request.namespace === null) context.namespaceObject = null;
  else if (namespace !== undefined) context.namespaceObject = namespace.written;
  const variables: Record<string, unknown> = {};
  const unknownVariables = new Set<string>();
  context.variables = variables;

  const unknown = (expression: string): boolean => {
    if (ROOTS_THE_REQUEST_DOES_NOT_TELL.test(expression)) return true;
    if (!paramsKnown && /\bparams\b/.test(expression)) return true;
    if (!namespaceKnown && /\bnamespaceObject\b/.test(expression)) return true;
    // conditions.ts's test, without the roots known here (params, namespaceObject, variables).
    if (readsUnknown(expression.replace(/\b(params|namespaceObject|variables)\b/g, '_'), request)) return true;
    for (const match of expression.matchAll(/\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g)) if (unknownVariables.has(match[1]!) || !(match[1]! in variables)) return true;
    return false;
  };

  for (const variable of spec.variables ?? []) {
    if (variable === null || typeof variable?.name !== 'string' || typeof variable.expression !== 'string') continue;
    if (unknown(variable.expression)) {
      unknownVariables.add(variable.name);
      continue;
    }
    const result = evaluateValue(variable.expression, context, meter);
    if (result.ok) variables[variable.name] = result.value;
    else unknownVariables.add(variable.name);
  }

  const open: string[] = [];
  let failed = 0;
  let first: string | undefined;
  for (const validation of validations) {
    const expression = validation!.expression!.trim();
    const result = unknown(expression) ? undefined : evaluateConditionResult(expression, context, meter);
    if (result === undefined || !('value' in result)) {
      open.push(expression);
      continue;
    }
    if (result.value) continue;
    failed++;
    first ??= messageOf(validation!, expression, context, meter, unknown);
  }
  if (first !== undefined) return { outcome: 'fail', message: first, failed };
  return open.length === 0 ? { outcome: 'pass' } : { outcome: 'depends', expressions: open };
}

function messageOf(
  validation: NonNullable<AdmissionPolicySpec['validations']>[number],
  expression: string,
  context: Record<string, unknown>,
  meter: Meter,
  unknown: (expression: string) => boolean,
): string {
  if (typeof validation.messageExpression === 'string' && !unknown(validation.messageExpression)) {
    const result = evaluateValue(validation.messageExpression, context, meter);
    if (result.ok && typeof result.value === 'string' && result.value.trim() !== '') return result.value;
  }
  if (typeof validation.message === 'string' && validation.message !== '') return validation.message;
  return `failed expression: ${expression}`;
}
