import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule } from '../src/rule.js';
import { joinCapped } from '../src/text/list.js';

export const rule = defineObjectRule({
  meta: {
    id: 'fail-open',
    title: 'A validating webhook fails open: while it is unreachable, objects are stored unchecked',
    aboutCalls: true,
    aboutSettings: true,
    severity: 'info',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: {
      ignore: '{{which}} {{has}} failurePolicy Ignore: when a call fails, the request is admitted unchecked',
    },
    help: 'While the webhook is unreachable, times out or answers with an error, the requests it matches are admitted without its check (its explicit denials still reject). If the check must always hold, set failurePolicy: Fail and run the webhook highly available, or move the check into a ValidatingAdmissionPolicy, which runs inside the API server; keep Ignore only if unchecked objects during an outage are acceptable.',
  },
  create() {
    return {
      webhookConfiguration(object) {
        // One cause, one finding: the webhooks of a configuration that write Ignore are reported
        // together, at the first of them.
        const entries = webhooksOf(object).filter((entry) => entry.webhook.failurePolicy === 'Ignore' && !isDefaulted(object, [...entry.path, 'failurePolicy']));
        if (entries.length === 0) return [];
        const which = entries.length === 1 ? `webhook "${entries[0]!.label}"` : `webhooks ${joinCapped(entries.map((entry) => `"${entry.label}"`), 2, { width: 50 })}`;
        return [
          {
            messageId: 'ignore' as const,
            data: { which, has: entries.length === 1 ? 'has' : 'have' },
            path: [...entries[0]!.path, 'failurePolicy'],
            alsoAt: entries.slice(1).map((entry) => [...entry.path, 'failurePolicy']),
          },
        ];
      },
    };
  },
});
