import { namespaceSelectorApplies } from '../src/match/scope.js';
import { selectorKeys } from '../src/match/selector.js';
import { isAtLeast } from '../src/kube/version.js';
import type { PolicyObject } from '../src/model/objects.js';
import { bindingSpec, isBinding, isMutatingKind, matchResourcesOf } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'validating' | 'mutating' | 'validatingPolicy' | 'mutatingPolicy';

function trustedKeys(run: RuleRun): Set<string> {
  // The API server sets (and guards) the name label only from Kubernetes 1.21.
  return new Set([...(isAtLeast(run.kubeVersion, 1, 21) ? [NAMESPACE_NAME_LABEL] : []), ...run.trustedNamespaceLabels]);
}

/**
 * Whether the namespaceSelector of a policy's matchConstraints, or of a binding's matchResources,
 * can decide anything: not when the resourceRules only match cluster-scoped objects. A binding
 * without resourceRules matches whatever its policy matches, so the policy's rules decide (when
 * the policy is in the run; otherwise the selector is assumed to matter).
 */
function policySelectorApplies(object: PolicyObject, run: RuleRun): boolean {
  const own = matchResourcesOf(object).match?.resourceRules;
  if (!isBinding(object)) return namespaceSelectorApplies(own, run.discovery);
  if (own !== undefined && own.length > 0 && !namespaceSelectorApplies(own, run.discovery)) return false;
  const policies = policyIndexOf(run).policiesOf(object).filter((policy) => policy.decodable);
  if (policies.length === 0) return true;
  return policies.some((policy) => namespaceSelectorApplies(matchResourcesOf(policy).match?.resourceRules, run.discovery));
}

/** A validating binding without Deny rejects nothing: leaving it loses a warning or an audit record, not a check. */
function rejectsNothing(object: PolicyObject): boolean {
  if (object.kind !== 'ValidatingAdmissionPolicyBinding') return false;
  const actions = bindingSpec(object)?.validationActions;
  return Array.isArray(actions) && actions.length > 0 && !actions.includes('Deny');
}

function checkPolicyObject(object: PolicyObject, run: RuleRun): Violation<MessageId>[] {
  const { match, path } = matchResourcesOf(object);
  if (match === undefined || rejectsNothing(object) || !policySelectorApplies(object, run)) return [];
  const trusted = trustedKeys(run);
  const mutating = isMutatingKind(object.kind);
  const at = [...path, 'namespaceSelector'];
  return selectorKeys(match.namespaceSelector)
    .filter(({ key }) => !trusted.has(key))
    .map(({ key, where }): Violation<MessageId> => ({
      messageId: mutating ? 'mutatingPolicy' : 'validatingPolicy',
      data: { kind: object.kind, name: object.name ?? '(unnamed)', key },
      path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
      locateAt: [...at, ...where],
      severity: mutating ? 'info' : 'warning',
    }));
}

export const rule = defineObjectRule({
  meta: {
    id: 'editable-namespace-selector',
    title: 'namespaceSelector keys on a label that namespace editors can change, so it is an opt-out switch',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'],
    messages: {
      validating:
        'namespaceSelector of webhook "{{webhook}}" reads the editable label "{{key}}"',
      mutating:
        'namespaceSelector of mutating webhook "{{webhook}}" reads the editable label "{{key}}"',
      validatingPolicy:
        'namespaceSelector of {{kind}} "{{name}}" reads the editable label "{{key}}"',
      mutatingPolicy:
        'namespaceSelector of {{kind}} "{{name}}" reads the editable label "{{key}}"',
    },
    help: `Whoever can edit a namespace's labels can take that namespace out of a validating webhook or policy, or switch a mutation on or off for it. Select namespaces by ${NAMESPACE_NAME_LABEL} (set by the API server, not editable), or protect the label with a policy and pass it to --trusted-namespace-label.`,
  },
  create(run) {
    return {
      policy: (object) => checkPolicyObject(object, run),
      webhookConfiguration(object) {
        const trusted = trustedKeys(run);
        return webhooksOf(object).flatMap((entry) => {
          // Rules that only match cluster-scoped objects never consult the selector.
          if (!namespaceSelectorApplies(entry.webhook.rules, run.discovery)) return [];
          const at = [...entry.path, 'namespaceSelector'];
          return selectorKeys(entry.webhook.namespaceSelector)
            .filter(({ key }) => !trusted.has(key))
            .map(({ key, where }): Violation<MessageId> => ({
              messageId: entry.mutating ? 'mutating' : 'validating',
              data: { webhook: entry.label, key },
              // The API server's notation stops at matchLabels; the file position names the key.
              path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
              locateAt: [...at, ...where],
              severity: entry.mutating ? 'info' : 'warning',
            }));
        });
      },
    };
  },
});
