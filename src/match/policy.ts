/**
 * Does a policy, through one of its bindings, apply to this request? The CEL admission plugins
 * match like webhooks (k8s.io/apiserver plugin/policy/matching/matching.go uses the webhook
 * namespace, object and rule predicates), with three differences that this module adds on top
 * of the shared request matcher (matchWebhook):
 *
 * - a request that matches an `excludeResourceRules` entry is not matched, whatever the
 *   `resourceRules` say (checked with the same matchPolicy, so Equivalent applies to exclusions too);
 * - a rule with `resourceNames` matches only objects of those names;
 * - a binding's `matchResources` without `resourceRules` matches every resource; with
 *   `resourceRules` (or selectors) it further restricts the policy's `matchConstraints`:
 *   the policy applies through the binding only when both match (policy_matcher.go:
 *   DefinitionMatches, then BindingMatches; a binding without matchResources matches all).
 */
import type { Discovery } from '../kube/discovery/discovery.js';
import type { MatchResources, NamedRuleWithOperations, RuleWithOperations, Webhook } from '../model/types.js';
import { matchWebhook, type AdmissionRequest, type MatchOutcome } from './request.js';
import { ObjectMemo } from '../cache.js';

export interface PolicyRequest extends AdmissionRequest {
  /** The object's name; undefined when unknown (then rules with resourceNames do not match, and exclusions by name do not exclude). */
  readonly name?: string;
}

export type PolicyMatchOutcome = MatchOutcome | { readonly called: false; readonly reason: 'excluded' };

/** What a binding's matchResources without resourceRules stands for: every resource. */
const EVERY_RESOURCE: RuleWithOperations = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' };

function isRule(value: unknown): value is NamedRuleWithOperations {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The rules as the webhook matcher reads them, index for index: a rule whose resourceNames
 * leave out the request's object becomes a hole (null) that never matches.
 */
function rulesFor(rules: readonly (NamedRuleWithOperations | null)[] | undefined, name: string | undefined): (RuleWithOperations | null)[] {
  return (rules ?? []).map((rule) => {
    if (!isRule(rule)) return null;
    const names = rule.resourceNames ?? [];
    if (names.length > 0 && (name === undefined || !names.includes(name))) return null;
    return rule;
  });
}

/**
 * The webhook-shaped view of a MatchResources: `include` carries the selectors, matchPolicy and
 * resourceRules; `exclude` the excludeResourceRules with the same matchPolicy and no selectors.
 * `emptyMatchesAll` is true for a binding's matchResources, whose resourceRules are optional.
 */
export function asWebhooks(match: Readonly<MatchResources> | undefined, name: string | undefined, emptyMatchesAll: boolean): { include: Webhook; exclude: Webhook } {
  const resourceRules = match?.resourceRules ?? [];
  const include: Webhook = {
    rules: (emptyMatchesAll && resourceRules.length === 0 ? [EVERY_RESOURCE] : rulesFor(resourceRules, name)) as RuleWithOperations[],
    ...(match?.namespaceSelector ? { namespaceSelector: match.namespaceSelector } : {}),
    ...(match?.objectSelector ? { objectSelector: match.objectSelector } : {}),
    ...(match?.matchPolicy ? { matchPolicy: match.matchPolicy } : {}),
  };
  const exclude: Webhook = {
    rules: rulesFor(match?.excludeResourceRules, name) as RuleWithOperations[],
    ...(match?.matchPolicy ? { matchPolicy: match.matchPolicy } : {}),
  };
  return { include, exclude };
}

/**
 * One MatchResources against a request. `rule` in a "called" outcome indexes its resourceRules
 * (0 for a binding without resourceRules).
 */
/** asWebhooks for requests without an object name, per MatchResources (the model is read-only) and emptyMatchesAll. */
const unnamedViews = [new ObjectMemo<Readonly<MatchResources>, { include: Webhook; exclude: Webhook }>(), new ObjectMemo<Readonly<MatchResources>, { include: Webhook; exclude: Webhook }>()] as const;

function webhooksFor(match: Readonly<MatchResources> | undefined, name: string | undefined, emptyMatchesAll: boolean): { include: Webhook; exclude: Webhook } {
  if (name !== undefined || match === undefined || match === null || typeof match !== 'object') return asWebhooks(match, name, emptyMatchesAll);
  return unnamedViews[emptyMatchesAll ? 1 : 0].get(match, () => asWebhooks(match, undefined, emptyMatchesAll));
}

export function matchResources(match: Readonly<MatchResources> | undefined, request: PolicyRequest, discovery: Discovery | undefined, emptyMatchesAll: boolean): PolicyMatchOutcome {
  const { include, exclude } = webhooksFor(match, request.name, emptyMatchesAll);
  if ((exclude.rules ?? []).length > 0 && matchWebhook(exclude, request, discovery).called === true) return { called: false, reason: 'excluded' };
  const outcome = matchWebhook(include, request, discovery);
  // matchConditions live on the policy, not in MatchResources: the caller evaluates them.
  return outcome.called === true ? { ...outcome, dependsOnMatchConditions: false } : outcome;
}

/**
 * A policy's matchConstraints and (when given) one binding's matchResources against a request.
 * A binding without matchResources matches everything the policy matches. The "called"
 * outcome's `rule` indexes the policy's resourceRules; `dependsOnMatchConditions` says whether
 * the policy has matchConditions, which the caller must evaluate.
 */
export function matchPolicy(
  policy: { readonly matchConstraints?: MatchResources; readonly matchConditions?: readonly unknown[] } | undefined,
  binding: { readonly matchResources?: MatchResources } | undefined,
  request: PolicyRequest,
  discovery: Discovery | undefined,
): PolicyMatchOutcome {
  const byPolicy = matchResources(policy?.matchConstraints, request, discovery, false);
  if (byPolicy.called === false) return byPolicy;
  const bindingMatch = binding?.matchResources;
  if (bindingMatch !== undefined && bindingMatch !== null) {
    const byBinding = matchResources(bindingMatch, request, discovery, true);
    if (byBinding.called === false) return byBinding;
    if (byBinding.called === 'unknown') return { called: 'unknown', rule: byPolicy.rule, unknown: byBinding.unknown };
  }
  if (byPolicy.called === 'unknown') return byPolicy;
  return { ...byPolicy, dependsOnMatchConditions: (policy?.matchConditions ?? []).length > 0 };
}
