import { MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from '../src/model/types.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'timeout-out-of-range',
    title: 'timeoutSeconds is outside the 1–30 seconds the API server accepts',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      outOfRange: 'webhooks[{{index}}].timeoutSeconds: Invalid value: {{value}}: the timeout value must be between 1 and 30 seconds',
    },
    help: 'The API server rejects the configuration. Set timeoutSeconds between 1 and 30; keep it small (a few seconds).',
  },
  create() {
    return {
      webhookConfiguration(object) {
        return webhooksOf(object).flatMap((entry) => {
          const path = [...entry.path, 'timeoutSeconds'];
          const value = entry.webhook.timeoutSeconds;
          if (isDefaulted(object, path) || typeof value !== 'number') return [];
          if (value >= MIN_TIMEOUT_SECONDS && value <= MAX_TIMEOUT_SECONDS) return [];
          return [{ messageId: 'outOfRange' as const, data: { value, index: entry.index }, path }];
        });
      },
    };
  },
});
