import { formatFieldPath } from '../src/field-path.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { isFragment } from '../src/model/webhooks.js';
import { isPlaceholder } from '../src/text/placeholder.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { formatFieldError, type FieldError } from '../src/validate/field-error.js';
import { validateAdmissionPolicyObject } from '../src/validate/policy-api.js';
import { validateWebhookConfiguration } from '../src/validate/webhook-api.js';
import { namespaceLabelErrors } from '../src/validate/namespace-labels.js';

const PLACEHOLDER_HELP = 'A template placeholder is not a value the API server accepts: render the template and lint its output (helm template … | admission-lint -).';

function toViolation(error: FieldError): Violation<'rejected' | 'placeholder' | 'fragment'> {
  // A value that is a template placeholder is named as one: the fix is to render, not to edit.
  const placeholder = typeof error.value === 'string' && isPlaceholder(error.value);
  return {
    messageId: placeholder ? ('placeholder' as const) : ('rejected' as const),
    data: placeholder ? { path: formatFieldPath(error.path), value: JSON.stringify(error.value) } : { message: formatFieldError(error) },
    path: error.path,
    ...(placeholder ? { help: PLACEHOLDER_HELP } : {}),
    ...(error.locateAt ? { locateAt: error.locateAt } : {}),
  };
}

export const rule = defineObjectRule({
  meta: {
    id: 'api-validation',
    title: 'The API server would reject the object (names, rules, clientConfig, selectors, matchConditions, …)',
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS, 'Namespace'],
    messages: {
      rejected: '{{message}}',
      placeholder: '{{path}} is the unrendered placeholder {{value}}',
      fragment: 'no webhook has clientConfig or rules: a patch fragment, not an object the API server accepts ({{count}} errors)',
    },
    help: 'Change the field so that the API server accepts it; the message is the one kubectl apply would print.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const errors = validateWebhookConfiguration(object.effective, run.kubeVersion);
        // A patch fragment misses clientConfig, rules and more in every webhook: one cause, one finding.
        if (errors.length > 0 && isFragment(object)) return [{ messageId: 'fragment', data: { count: errors.length }, path: ['webhooks'], part: 'key', help: 'Lint the rendered build (kustomize build … | admission-lint -), not the patch.' }];
        return errors.map(toViolation);
      },
      policy(object) {
        return validateAdmissionPolicyObject(object.kind, object.effective, run.kubeVersion).map(toViolation);
      },
      // A Namespace whose labels the API server rejects never exists (nor do its labels).
      namespace(namespace) {
        return namespaceLabelErrors(namespace.written).map(toViolation);
      },
    };
  },
});
