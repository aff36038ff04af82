/**
 * CEL admission policies and the webhook configuration kinds. Webhooks are never called for
 * ValidatingWebhookConfigurations and MutatingWebhookConfigurations (facts §7), and the shared
 * matcher (src/match/request.ts, used by src/match/policy.ts) applies that exemption to
 * policies as well. The policy plugin does not: it skips only the four policy kinds
 * (k8s.io/apiserver plugin/policy/generic/plugin.go, `admissionResources`: validating and
 * mutating admission policies and their bindings) and the virtual resources. So a
 * ValidatingAdmissionPolicy can guard webhook configurations, and for those two kinds the
 * simulation matches policies here, with the same predicates: the rules (matchPolicy
 * Equivalent included), the excludeResourceRules, and the objectSelector. They are
 * cluster-scoped, so the namespaceSelector does not apply (facts §5 step 1).
 */
import type { Discovery } from '../kube/discovery/discovery.js';
import { asWebhooks } from '../match/policy.js';
import { matchingRule, type AdmissionRequest, type MatchOutcome } from '../match/request.js';
import { isEmptySelector, selectorMatches } from '../match/selector.js';
import type { MatchResources, Webhook } from '../model/types.js';

export const WEBHOOK_CONFIGURATION_RESOURCES: ReadonlySet<string> = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']);

export function isWebhookConfigurationRequest(request: Pick<AdmissionRequest, 'group' | 'resource'>): boolean {
  return request.group === 'admissionregistration.k8s.io' && WEBHOOK_CONFIGURATION_RESOURCES.has(request.resource);
}

type Outcome = MatchOutcome | { readonly called: false; readonly reason: 'excluded' };

function objectSelectorMatches(webhook: Webhook, request: AdmissionRequest): boolean {
  if (isEmptySelector(webhook.objectSelector)) return true;
  if (request.operation === 'CONNECT') return false;
  return [request.objectLabels, request.oldObjectLabels].some((labels) => labels !== undefined && labels !== null && selectorMatches(webhook.objectSelector, labels) === true);
}

function matchOne(match: Readonly<MatchResources> | undefined, request: AdmissionRequest, discovery: Discovery, emptyMatchesAll: boolean): Outcome {
  const { include, exclude } = asWebhooks(match, undefined, emptyMatchesAll);
  const rule = matchingRule(include, request, discovery);
  if (rule === undefined) return { called: false, reason: 'no-rule' };
  if (matchingRule(exclude, request, discovery) !== undefined) return { called: false, reason: 'excluded' };
  if (!objectSelectorMatches(include, request)) return { called: false, reason: 'object-selector' };
  return { called: true, rule: rule.rule, equivalent: rule.equivalent, dependsOnMatchConditions: false };
}

/** matchPolicy (src/match/policy.ts) for requests on the two webhook configuration kinds. */
export function matchPolicyOnWebhookConfiguration(
  policy: { readonly matchConstraints?: MatchResources; readonly matchConditions?: readonly unknown[] } | undefined,
  binding: { readonly matchResources?: MatchResources } | undefined,
  request: AdmissionRequest,
  discovery: Discovery,
): Outcome {
  const byPolicy = matchOne(policy?.matchConstraints, request, discovery, false);
  if (byPolicy.called !== true) return byPolicy;
  const bindingMatch = binding?.matchResources;
  if (bindingMatch !== undefined && bindingMatch !== null) {
    const byBinding = matchOne(bindingMatch, request, discovery, true);
    if (byBinding.called !== true) return byBinding;
  }
  return { ...byPolicy, dependsOnMatchConditions: (policy?.matchConditions ?? []).length > 0 };
}
