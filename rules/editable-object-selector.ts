/**
 * A validating webhook's objectSelector reads labels that the requester writes. An opt-out
 * (`NotIn`, `DoesNotExist`) is a switch anyone creating the object can flip to skip the check: a
 * warning. An opt-in (matchLabels, `In`, `Exists`) scopes the check to labelled objects, which is
 * how a controller validates its own objects; the manifest cannot show whether unlabelled ones
 * matter, so it is an info that says what the scope is.
 */
import { selectorKeys } from '../src/match/selector.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'optOut' | 'optIn';

export const rule = defineObjectRule({
  meta: {
    id: 'editable-object-selector',
    title: 'A validating webhook has an objectSelector: the requester writes the labels and can opt out',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: {
      optOut: 'objectSelector of webhook "{{webhook}}" skips objects by label "{{key}}" ({{operator}})',
      optIn: 'objectSelector of webhook "{{webhook}}" checks only objects labelled "{{key}}" ({{operator}})',
    },
    help: 'The requester writes the object\'s labels: with an opt-out selector (NotIn, DoesNotExist) whoever writes an object can set its label to skip the check; with an opt-in one (In, Exists, matchLabels) objects without the label are not checked. Drop the objectSelector and decide inside the webhook (or with matchConditions on fields the requester cannot choose, such as request.userInfo).',
  },
  create() {
    return {
      webhookConfiguration(object) {
        return webhooksOf(object).flatMap((entry) => {
          const at = [...entry.path, 'objectSelector'];
          const selector = entry.webhook.objectSelector;
          return selectorKeys(selector).map(({ key, where }): Violation<MessageId> => {
            const operator = where[0] === 'matchLabels' ? 'matchLabels' : String(selector?.matchExpressions?.[where[1]]?.operator ?? '');
            const optOut = operator === 'NotIn' || operator === 'DoesNotExist';
            return {
              messageId: optOut ? 'optOut' : 'optIn',
              data: { webhook: entry.label, key, operator },
              path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
              locateAt: [...at, ...where],
              ...(optOut ? {} : { severity: 'info' as const }),
            };
          });
        });
      },
    };
  },
});
