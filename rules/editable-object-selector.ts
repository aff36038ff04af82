import { selectorKeys } from '../src/match/selector.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'editable-object-selector',
    title: 'A validating webhook has an objectSelector: the requester writes the labels and can opt out',
    severity: 'warning',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: {
      objectLabel:
        'objectSelector of validating webhook "{{webhook}}" reads the object label "{{key}}": whoever creates or updates the object sets its labels and can skip this check',
    },
    help: 'Drop the objectSelector and decide inside the webhook (or with matchConditions on fields the requester cannot choose, such as request.userInfo).',
  },
  check(object) {
    return webhooksOf(object).flatMap((entry) => {
      const at = [...entry.path, 'objectSelector'];
      return selectorKeys(entry.webhook.objectSelector).map(({ key, where }) => ({
        messageId: 'objectLabel' as const,
        data: { webhook: entry.label, key },
        path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
        locateAt: [...at, ...where],
      }));
    });
  },
});
