import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';
import { formatFieldError } from '../src/validate/field-error.js';
import { validateWebhookConfiguration } from '../src/validate/webhook-api.js';

export const rule = defineObjectRule({
  meta: {
    id: 'api-validation',
    title: 'The API server would reject the object (names, rules, clientConfig, selectors, matchConditions, …)',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { rejected: '{{message}}' },
    help: 'Change the field so that the API server accepts it; the message is the one kubectl apply would print.',
  },
  check(object) {
    return validateWebhookConfiguration(object.effective).map((error) => ({
      messageId: 'rejected' as const,
      data: { message: formatFieldError(error) },
      path: error.path,
      ...(error.locateAt ? { locateAt: error.locateAt } : {}),
    }));
  },
});
