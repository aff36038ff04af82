import { isDefaulted, isV1beta1, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'implicit-failure-policy',
    title: 'failurePolicy is omitted, so the API default (Fail in v1) decides what an outage does',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      failDefault:
        'webhook "{{webhook}}" does not set failurePolicy; the API default is Fail: while the webhook is down, slow or presents a bad certificate, every request it matches is rejected',
      ignoreDefault:
        'webhook "{{webhook}}" does not set failurePolicy; the v1beta1 default is Ignore: while the webhook is unreachable, requests it matches are admitted unchecked (and v1 would default to Fail)',
    },
    help: 'Write failurePolicy: Fail or failurePolicy: Ignore, having decided which outage you prefer: blocked writes or unchecked ones.',
  },
  check(object) {
    return webhooksOf(object)
      .filter((entry) => isDefaulted(object, [...entry.path, 'failurePolicy']))
      .map((entry) => ({
        messageId: isV1beta1(object) ? ('ignoreDefault' as const) : ('failDefault' as const),
        data: { webhook: entry.label },
        path: [...entry.path, 'failurePolicy'],
      }));
  },
});
