import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'fail-open',
    title: 'A validating webhook fails open: while it is unreachable, objects are stored unchecked',
    aboutCalls: true,
    aboutSettings: true,
    severity: 'info',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: {
      ignore:
        'webhook "{{webhook}}" has failurePolicy Ignore: when a call fails, the request is admitted unchecked',
    },
    help: 'While the webhook is unreachable, times out or answers with an error, the requests it matches are admitted without its check (its explicit denials still reject). If the check must always hold, set failurePolicy: Fail and run the webhook highly available, or move the check into a ValidatingAdmissionPolicy, which runs inside the API server; keep Ignore only if unchecked objects during an outage are acceptable.',
  },
  create() {
    return {
      webhookConfiguration(object) {
        return webhooksOf(object)
          .filter((entry) => entry.webhook.failurePolicy === 'Ignore' && !isDefaulted(object, [...entry.path, 'failurePolicy']))
          .map((entry) => ({
            messageId: 'ignore' as const,
            data: { webhook: entry.label },
            path: [...entry.path, 'failurePolicy'],
          }));
      },
    };
  },
});
