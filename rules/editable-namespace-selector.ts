import { namespaceSelectorApplies } from '../src/match/scope.js';
import { selectorKeys } from '../src/match/selector.js';
import { isAtLeast } from '../src/kube/version.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/recognize.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'validating' | 'mutating';

export const rule = defineObjectRule({
  meta: {
    id: 'editable-namespace-selector',
    title: 'namespaceSelector keys on a label that namespace editors can change, so it is an opt-out switch',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      validating:
        'namespaceSelector of webhook "{{webhook}}" reads the namespace label "{{key}}": anyone who can edit a namespace\'s labels can take that namespace out of this check',
      mutating:
        'namespaceSelector of webhook "{{webhook}}" reads the namespace label "{{key}}": anyone who can edit a namespace\'s labels can switch this mutation on or off for it',
    },
    help: `Select namespaces by ${NAMESPACE_NAME_LABEL} (set by the API server, not editable), or protect the label with a policy and pass it to --trusted-namespace-label.`,
  },
  check(object, context) {
    // The API server sets (and guards) the name label only from Kubernetes 1.21.
    const trusted = new Set([...(isAtLeast(context.kubeVersion, 1, 21) ? [NAMESPACE_NAME_LABEL] : []), ...context.trustedNamespaceLabels]);
    return webhooksOf(object).flatMap((entry) => {
      // Rules that only match cluster-scoped objects never consult the selector.
      if (!namespaceSelectorApplies(entry.webhook.rules, context.discovery)) return [];
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
});
