import { webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'reinvoked' | 'update';

export const rule = defineObjectRule({
  meta: {
    id: 'non-idempotent-mutator',
    title: 'A mutating webhook receives its own output again and must be idempotent',
    severity: 'warning',
    appliesTo: ['MutatingWebhookConfiguration'],
    messages: {
      reinvoked:
        'webhook "{{webhook}}" has reinvocationPolicy IfNeeded: it is called again with its own output after later mutations, so its patch must be idempotent (add a sidecar only if absent, never append blindly)',
      update:
        'webhook "{{webhook}}" mutates on {{operation}}: an update carries the object as it was mutated before, so its patch must be idempotent (add a sidecar only if absent, never append blindly)',
    },
    help: 'Make the patch a no-op on an already-mutated object (check before you add), and verify the final object with a validating webhook or ValidatingAdmissionPolicy.',
  },
  check(object) {
    return webhooksOf(object).flatMap((entry): Violation<MessageId>[] => {
      if (!entry.mutating) return [];
      if (entry.webhook.reinvocationPolicy === 'IfNeeded') {
        return [{ messageId: 'reinvoked', data: { webhook: entry.label }, path: [...entry.path, 'reinvocationPolicy'] }];
      }
      for (const [j, rule] of (entry.webhook.rules ?? []).entries()) {
        const k = (rule?.operations ?? []).findIndex((operation) => operation === 'UPDATE' || operation === '*');
        if (k >= 0) {
          return [{ messageId: 'update', data: { webhook: entry.label, operation: rule!.operations![k] === '*' ? '* (every operation, UPDATE included)' : 'UPDATE' }, path: [...entry.path, 'rules', j, 'operations', k] }];
        }
      }
      return [];
    });
  },
});
