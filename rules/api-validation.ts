import { formatFieldPath } from '../src/field-path.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { isFragment } from '../src/model/webhooks.js';
import { countPlaceholders, isPlaceholder, morePlaceholders } from '../src/text/placeholder.js';
import { valueAtPath } from '../src/field-path.js';
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
    data: placeholder ? { path: formatFieldPath(error.path), value: JSON.stringify(error.value), more: '' } : { message: formatFieldError(error) },
    path: error.path,
    ...(placeholder ? { help: PLACEHOLDER_HELP } : {}),
    ...(error.locateAt ? { locateAt: error.locateAt } : {}),
  };
}

type MessageId = 'rejected' | 'placeholder' | 'fragment';

/**
 * One cause, one finding: an unrendered template's placeholders are named once per document, at
 * the first; not at all when schema runs and names one of the same document already.
 */
function oncePerDocument(violations: readonly Violation<MessageId>[], object: { readonly written: unknown; readonly schemaProblems: readonly { readonly path: readonly (string | number)[]; readonly part?: string }[] }, schemaRuns: boolean): Violation<MessageId>[] {
  const first = violations.find((violation) => violation.messageId === 'placeholder');
  if (first === undefined) return [...violations];
  const schemaNamesOne = schemaRuns && object.schemaProblems.some((problem) => problem.part === 'pair' && isPlaceholder(valueAtPath(object.written, problem.path)));
  const more = morePlaceholders(countPlaceholders(object.written));
  return violations
    .filter((violation) => violation.messageId !== 'placeholder' || (violation === first && !schemaNamesOne))
    .map((violation) => (violation === first ? { ...first, data: { ...first.data, more } } : violation));
}

export const rule = defineObjectRule({
  meta: {
    id: 'api-validation',
    title: 'The API server would reject the object (names, rules, clientConfig, selectors, matchConditions, …)',
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS, 'Namespace'],
    messages: {
      rejected: '{{message}}',
      placeholder: '{{path}} is the unrendered placeholder {{value}}{{more}}',
      fragment: 'no webhook has clientConfig or rules: a kustomize patch fragment, not an object; lint `kubectl kustomize` output ({{count}} errors)',
    },
    help: 'Change the field so that the API server accepts it; the message is the one kubectl apply would print.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const errors = validateWebhookConfiguration(object.effective, run.kubeVersion);
        // A patch fragment misses clientConfig, rules and more in every webhook: one cause, one finding.
        // It is never applied alone, so it is not an error: an info that says what to lint instead.
        if (errors.length > 0 && isFragment(object)) return [{ messageId: 'fragment', data: { count: errors.length }, path: ['webhooks'], part: 'key', severity: 'info', help: 'A patch is merged into a base by kustomize and never applied alone. Lint the rendered build (kubectl kustomize DIR | admission-lint -), not the patch.' }];
        return oncePerDocument(errors.map(toViolation), object, run.isEnabled('schema'));
      },
      policy(object) {
        return oncePerDocument(validateAdmissionPolicyObject(object.kind, object.effective, run.kubeVersion).map(toViolation), object, run.isEnabled('schema'));
      },
      // A Namespace whose labels the API server rejects never exists (nor do its labels).
      namespace(namespace) {
        return namespaceLabelErrors(namespace.written).map(toViolation);
      },
    };
  },
});
