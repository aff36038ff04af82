import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleMeta } from '../src/rule.js';
import { MAX_TIMEOUT_SECONDS } from '../src/model/types.js';

/** The client-side request timeout many clients use (kubernetes/kubernetes#71508). */
export const CLIENT_TIMEOUT_SECONDS = 30;

const meta = {
  id: 'long-timeout',
  title: 'The effective timeoutSeconds is above the threshold',
  aboutCalls: true,
  severity: 'warning',
  appliesTo: ALL_WEBHOOK_KINDS,
  messages: {
    fail: 'webhook "{{webhook}}" has timeoutSeconds {{value}}{{defaulted}}, above {{threshold}}s, and failurePolicy Fail',
    ignore:
      'webhook "{{webhook}}" has timeoutSeconds {{value}}{{defaulted}}, above {{threshold}}s',
    clientTimeout:
      'webhook "{{webhook}}" has timeoutSeconds {{value}}{{defaulted}}, as long as the 30s request timeout many clients use',
  },
  help: 'While the webhook is slow or unreachable, every request it intercepts hangs that long, then is rejected (failurePolicy Fail) or let through (Ignore); a client that gives up after 30s has failed by then, despite Ignore. Set timeoutSeconds to a few seconds: a webhook should answer in milliseconds.',
  options: {
    thresholdSeconds: {
      type: 'number',
      default: 15,
      minimum: 1,
      description: 'Report webhooks whose effective timeoutSeconds is above this many seconds.',
    },
  },
} satisfies RuleMeta;

export const rule = defineObjectRule({
  meta,
  create(run) {
    return {
      webhookConfiguration(object) {
        const threshold = run.options.thresholdSeconds;
        return webhooksOf(object).flatMap((entry) => {
          const path = [...entry.path, 'timeoutSeconds'];
          const value = entry.webhook.timeoutSeconds;
          // Values outside 1–30 are timeout-out-of-range's: the API server rejects them.
          if (typeof value !== 'number' || value > MAX_TIMEOUT_SECONDS || !(value > threshold)) return [];
          const ignore = entry.webhook.failurePolicy === 'Ignore';
          const messageId = !ignore ? 'fail' : value >= CLIENT_TIMEOUT_SECONDS ? 'clientTimeout' : 'ignore';
          return [
            {
              messageId,
              data: { webhook: entry.label, value, threshold, defaulted: isDefaulted(object, path) ? ' (the API default)' : '' },
              path,
            },
          ];
        });
      },
    };
  },
});
