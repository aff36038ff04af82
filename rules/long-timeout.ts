import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleMeta } from '../src/rule.js';
import { MAX_TIMEOUT_SECONDS } from './timeout-out-of-range.js';

/** A client-side request timeout that many clients use (kubernetes/kubernetes#71508). */
const CLIENT_TIMEOUT_SECONDS = 30;

const meta = {
    id: 'long-timeout',
    title: 'The effective timeoutSeconds is above the threshold',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      long: 'timeoutSeconds of webhook "{{webhook}}" is {{value}}{{defaulted}}, above {{threshold}}s: every request it intercepts can hang that long while the webhook is slow or unreachable',
      clientTimeout:
        'timeoutSeconds of webhook "{{webhook}}" is {{value}}{{defaulted}}, above {{threshold}}s and as long as the 30s request timeout many clients use: while the webhook is unreachable those clients give up first, so the request fails even with failurePolicy Ignore',
    },
    help: 'Set timeoutSeconds to a few seconds: a webhook should answer in milliseconds.',
    options: {
      thresholdSeconds: {
        type: 'number',
        default: 15,
        minimum: 1,
        description: 'Report effective timeouts above this many seconds.',
      },
    },
} satisfies RuleMeta;

export const rule = defineObjectRule({
  meta,
  check(object, context) {
    const threshold = Number(context.option(meta, 'thresholdSeconds'));
    return webhooksOf(object).flatMap((entry) => {
      const path = [...entry.path, 'timeoutSeconds'];
      const value = entry.webhook.timeoutSeconds;
      // Values outside 1–30 are timeout-out-of-range's: the API server rejects them.
      if (typeof value !== 'number' || value > MAX_TIMEOUT_SECONDS || !(value > threshold)) return [];
      const defaulted = isDefaulted(object, path);
      return [
        {
          messageId: value >= CLIENT_TIMEOUT_SECONDS ? ('clientTimeout' as const) : ('long' as const),
          data: { webhook: entry.label, value, threshold, defaulted: defaulted ? ' (the API default)' : '' },
          path,
        },
      ];
    });
  },
});
