import { POLICY_KINDS } from '../src/model/types.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';
import { formatFieldError, type FieldError } from '../src/validate/field-error.js';
import { validateAdmissionPolicyObject } from '../src/validate/policy-api.js';
import { validateWebhookConfiguration } from '../src/validate/webhook-api.js';

function toViolation(error: FieldError) {
  return {
    messageId: 'rejected' as const,
    data: { message: formatFieldError(error) },
    path: error.path,
    ...(error.locateAt ? { locateAt: error.locateAt } : {}),
  };
}

export const rule = defineObjectRule({
  meta: {
    id: 'api-validation',
    title: 'The API server would reject the object (names, rules, clientConfig, selectors, matchConditions, …)',
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS],
    messages: { rejected: '{{message}}' },
    help: 'Change the field so that the API server accepts it; the message is the one kubectl apply would print.',
  },
  check(object) {
    return validateWebhookConfiguration(object.effective).map(toViolation);
  },
  checkPolicy(object) {
    return validateAdmissionPolicyObject(object.kind, object.effective).map(toViolation);
  },
});
