/**
 * Whether the run's admission policies and validating webhooks see one request that a rule names
 * by its attributes alone: a subresource request such as `kubectl debug`'s UPDATE of
 * pods/ephemeralcontainers or `kubectl scale`'s UPDATE of deployments/scale. Rules that find a
 * check of an object which such a request changes past it (rules/init-containers-unchecked.ts,
 * rules/scale-subresource-unchecked.ts) ask here whether anything of the run is called on it.
 *
 * Only what the manifests decide counts. A rule with resourceNames reaches only the objects it
 * names, so it sees no request of any object; a matchCondition is judged only when it reads
 * nothing but `request.subResource` and `request.operation` (others may let the request in); a
 * binding that only warns or audits rejects nothing; an objectSelector is judged where the
 * request's object has labels known in advance (a Scale has none).
 */
import type { Expr } from '../cel/check/ast.js';
import { parseExpression } from '../cel/check/index.js';
import type { KubeVersion } from '../kube/version.js';
import type { PolicyObject } from '../model/objects.js';
import { bindingCanReject, bindingSpec, policySpec } from '../model/policies.js';
import type { LabelSelector, MatchResources, Webhook } from '../model/types.js';
import { isRecord } from '../json.js';
import type { RunScope } from '../run-scope.js';
import { policyIndexOf } from './bindings.js';
import { compileRule, compiledRuleMatches, type AdmissionRequest } from './request.js';
import { isEmptySelector, selectorMatches, type Labels } from './selector.js';

/**
 * A request by its attributes, no namespace labels. `objectLabels`: the labels its object (and
 * old object) carry when they are known whatever the object (a Scale carries none); undefined
 * when they depend on the object (a Pod's).
 */
export type RequestAttributes = Pick<AdmissionRequest, 'operation' | 'group' | 'version' | 'resource' | 'subresource' | 'namespace'> & { readonly objectLabels?: Labels };

/** Whether an objectSelector lets the request's object in: known labels decide (an invalid selector is taken to); unknown ones, only an empty selector. */
function objectSelectorLets(selector: LabelSelector | null | undefined, request: RequestAttributes, unknown: boolean): boolean {
  // One the API server cannot read (matchExpressions that are no list of requirements) is
  // schema's and api-validation's to report: not judged here.
  if (selector == null || !wellFormed(selector) || isEmptySelector(selector)) return true;
  if (request.objectLabels === undefined) return unknown;
  return selectorMatches(selector, request.objectLabels) !== false;
}

/** Whether rules match the request for any object of its resource (a rule with resourceNames does not). */
export function rulesMatchRequest(rules: unknown, request: RequestAttributes): boolean {
  return (
    Array.isArray(rules) &&
    rules.some((rule) => {
      const compiled = compileRule(rule as Parameters<typeof compileRule>[0]);
      if (compiled === null) return false;
      const names = (rule as { resourceNames?: unknown }).resourceNames;
      return !(Array.isArray(names) && names.length > 0) && compiledRuleMatches(compiled, request);
    })
  );
}

/** A MatchResources on the request: its resourceRules (none: every resource, for a binding) less its excludeResourceRules without names. */
function matchResourcesRequest(match: Readonly<MatchResources> | undefined, request: RequestAttributes, emptyMatchesAll: boolean): boolean {
  const rules = match?.resourceRules;
  const included = emptyMatchesAll && (!Array.isArray(rules) || rules.length === 0) ? true : rulesMatchRequest(rules, request);
  return included && !rulesMatchRequest(match?.excludeResourceRules, request);
}

/**
 * What an expression that reads only `request.subResource` and `request.operation` gives on the
 * request (strings, integers, lists of them, `size()`, comparisons, `in`, `&&`, `||`, `!`);
 * undefined for any other expression, which is not judged.
 */
export function onRequest(e: Expr, request: RequestAttributes): boolean | undefined {
  const value = valueOn(e, request);
  return typeof value === 'boolean' ? value : undefined;
}

type Value = boolean | string | bigint | readonly Value[];

function valueOn(e: Expr, request: RequestAttributes): Value | undefined {
  if (e.kind === 'literal') {
    if (typeof e.value === 'boolean' || typeof e.value === 'string' || typeof e.value === 'bigint') return e.value;
    return typeof e.value === 'number' && Number.isInteger(e.value) && e.type !== 'double' ? BigInt(e.value) : undefined;
  }
  if (e.kind === 'list') {
    const items = e.elements.map((element) => valueOn(element, request));
    return e.optionalIndices.length === 0 && items.every((item) => item !== undefined) ? (items as Value[]) : undefined;
  }
  // `oldObject == null`: null exactly on CREATE (and CONNECT); compared with null only.
  if (e.kind === 'call' && (e.fn === '_==_' || e.fn === '_!=_') && e.args.length === 2) {
    const [a, b] = e.args;
    const isNull = (x: Expr): boolean => x.kind === 'literal' && x.value === null;
    const isOld = (x: Expr): boolean => x.kind === 'ident' && x.name === 'oldObject';
    if ((isOld(a!) && isNull(b!)) || (isNull(a!) && isOld(b!))) {
      const absent = request.operation === 'CREATE' || request.operation === 'CONNECT';
      return absent === (e.fn === '_==_');
    }
  }
  if (e.kind === 'select') {
    if (e.testOnly || e.operand.kind !== 'ident' || e.operand.name !== 'request') return undefined;
    return e.field === 'subResource' ? request.subresource : e.field === 'operation' ? request.operation : undefined;
  }
  if (e.kind !== 'call') return undefined;
  if (e.fn === 'size') {
    const of = valueOn(e.target ?? e.args[0]!, request);
    return typeof of === 'string' ? BigInt([...of].length) : Array.isArray(of) ? BigInt(of.length) : undefined;
  }
  const [a, b] = e.args;
  if (e.fn === '!_' && a !== undefined) {
    const value = valueOn(a, request);
    return typeof value === 'boolean' ? !value : undefined;
  }
  if ((e.fn === '_&&_' || e.fn === '_||_') && a !== undefined && b !== undefined) {
    const left = valueOn(a, request);
    const right = valueOn(b, request);
    // CEL's && and || are commutative: one side decides, whatever the other is.
    const decides = e.fn !== '_&&_';
    if (left === decides || right === decides) return decides;
    return left === !decides && right === !decides ? !decides : undefined;
  }
  if (a === undefined || b === undefined) return undefined;
  const left = valueOn(a, request);
  const right = valueOn(b, request);
  if (left === undefined || right === undefined) return undefined;
  if (e.fn === '@in') return Array.isArray(right) ? right.some((item) => same(item, left)) : undefined;
  if (e.fn === '_==_' || e.fn === '_!=_') return same(left, right) === (e.fn === '_==_');
  if (typeof left !== 'bigint' || typeof right !== 'bigint') return undefined;
  if (e.fn === '_<_') return left < right;
  if (e.fn === '_<=_') return left <= right;
  if (e.fn === '_>_') return left > right;
  if (e.fn === '_>=_') return left >= right;
  return undefined;
}

/** A selector of the API's shape: matchLabels a map of strings, matchExpressions a list of requirements with a string key and operator and string values. */
function wellFormed(selector: unknown): selector is LabelSelector {
  if (!isRecord(selector)) return false;
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels != null && (!isRecord(matchLabels) || !Object.values(matchLabels).every((value) => typeof value === 'string'))) return false;
  if (matchExpressions == null) return true;
  return Array.isArray(matchExpressions) && matchExpressions.every((requirement) => isRecord(requirement) && typeof requirement.key === 'string' && typeof requirement.operator === 'string' && (requirement.values == null || (Array.isArray(requirement.values) && requirement.values.every((value) => typeof value === 'string'))));
}

/** CEL equality of two values of the kinds read here (lists element by element). */
function same(a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]!));
  return a === b;
}

/** Whether a matchCondition leaves the request out (false on its attributes); an expression that reads more is taken to let it in. */
function conditionExcludes(expression: unknown, kind: 'validating.matchCondition' | 'webhook.matchCondition', request: RequestAttributes, kubeVersion: KubeVersion): boolean {
  const source = typeof expression === 'string' ? expression : '';
  const expr = source.trim() === '' ? undefined : parseExpression(source, kind, kubeVersion);
  return expr !== undefined && onRequest(expr, request) === false;
}

/** Whether a binding's matchResources match the request by its resource rules (none: every resource). */
export function bindingMatchesRequest(binding: PolicyObject, request: RequestAttributes): boolean {
  return matchResourcesRequest(bindingSpec(binding)?.matchResources, request, true);
}

/**
 * Whether a ValidatingAdmissionPolicy sees the request: its matchConstraints match it, no
 * matchCondition on the request's subresource or operation leaves it out, and, when the run holds
 * its bindings, one that can reject (Deny) matches it too.
 */
export function policySeesRequest(object: PolicyObject, run: Pick<RunScope, 'policies' | 'memo' | 'kustomizations' | 'kustomizePatches' | 'kubeVersion'>, request: RequestAttributes): boolean {
  const spec = policySpec(object);
  if (!matchResourcesRequest(spec?.matchConstraints, request, false) || !objectSelectorLets(spec?.matchConstraints?.objectSelector, request, true)) return false;
  if ((Array.isArray(spec?.matchConditions) ? spec.matchConditions : []).some((condition) => conditionExcludes(condition?.expression, 'validating.matchCondition', request, run.kubeVersion))) return false;
  const bindings = policyIndexOf(run).bindingsOf(object).filter((binding) => binding.decodable);
  return bindings.length === 0 || bindings.some((binding) => bindingCanReject(binding) && matchResourcesRequest(bindingSpec(binding)?.matchResources, request, true) && objectSelectorLets(bindingSpec(binding)?.matchResources?.objectSelector, request, true));
}

/**
 * Whether a validating webhook is called on every such request: its rules match it, no
 * objectSelector picks among the objects, and no matchCondition on the request's subresource or
 * operation leaves it out (a namespaceSelector that spares system namespaces is taken to leave
 * the policy's namespaces in). What it checks is in its code: a rule does not judge past it.
 */
export function validatingWebhookSees(run: Pick<RunScope, 'webhookConfigurations' | 'kubeVersion'>, request: RequestAttributes): boolean {
  const sees = (webhook: Readonly<Webhook>): boolean => {
    if (!rulesMatchRequest(webhook.rules, request)) return false;
    if (!objectSelectorLets(webhook.objectSelector, request, false)) return false;
    return !(webhook.matchConditions ?? []).some((condition) => conditionExcludes(condition?.expression, 'webhook.matchCondition', request, run.kubeVersion));
  };
  return run.webhookConfigurations.some(
    (configuration) => configuration.kind === 'ValidatingWebhookConfiguration' && (Array.isArray(configuration.effective.webhooks) ? configuration.effective.webhooks : []).some((webhook) => webhook !== null && sees(webhook)),
  );
}
