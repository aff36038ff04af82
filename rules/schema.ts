import { formatFieldPath, valueAtPath } from '../src/field-path.js';
import { formatKubeVersion, isAtLeast } from '../src/kube/version.js';
import { countPlaceholders, isPlaceholder, morePlaceholders } from '../src/text/placeholder.js';
import type { SchemaProblem } from '../src/validate/schema.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'schema' | 'placeholder' | 'matchConditionsTooNew';

/** A problem with a value that is a template placeholder is named as one: the fix is to render, not to edit. */
function toViolation(problem: SchemaProblem, written: unknown): Violation<MessageId> {
  const value = valueAtPath(written, problem.path);
  if (problem.part === 'pair' && isPlaceholder(value)) {
    return {
      messageId: 'placeholder',
      data: { path: formatFieldPath(problem.path), value: JSON.stringify(value), more: '' },
      path: problem.path,
      part: problem.part,
      help: 'A template placeholder is not a value the API server accepts: render the template and lint its output (helm template … | admission-lint -).',
    };
  }
  return { messageId: 'schema', data: { message: problem.message }, path: problem.path, part: problem.part };
}

/** One cause, one finding: an unrendered template's placeholders are named once per document, at the first. */
function oncePerDocument(violations: readonly Violation<MessageId>[], written: unknown): Violation<MessageId>[] {
  const first = violations.find((violation) => violation.messageId === 'placeholder');
  if (first === undefined) return [...violations];
  const more = morePlaceholders(countPlaceholders(written));
  return violations.filter((violation) => violation.messageId !== 'placeholder' || violation === first).map((violation) => (violation === first ? { ...first, data: { ...first.data, more } } : violation));
}

export const rule = defineObjectRule({
  meta: {
    id: 'schema',
    title: 'A field has the wrong type or is not a field of the v1 API types',
    severity: 'error',
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS],
    messages: {
      schema: '{{message}}',
      placeholder: '{{path}} is the unrendered placeholder {{value}}{{more}}',
      matchConditionsTooNew: 'matchConditions needs Kubernetes 1.28 or newer (target: {{target}})',
    },
    help: 'Match the admissionregistration.k8s.io/v1 types: check the field name and its indentation, and quote values that YAML would read as numbers or booleans.',
    // Runs on every object: it is what tells the user why the other rules did not.
    needsDecodableObject: false,
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = oncePerDocument(object.schemaProblems.map((problem) => toViolation(problem, object.written)), object.written);
        if (object.decodable && !isAtLeast(run.kubeVersion, 1, 28)) {
          for (const entry of webhooksOf(object)) {
            if (entry.webhook.matchConditions != null) {
              violations.push({
                messageId: 'matchConditionsTooNew',
                data: { target: formatKubeVersion(run.kubeVersion) },
                path: [...entry.path, 'matchConditions'],
                part: 'key',
                help: 'Older API servers drop or reject the field, and the webhook is then called for every request its rules match. Remove matchConditions, or lint for the version you deploy to (--kube-version).',
              });
            }
          }
        }
        return violations;
      },
      policy(object) {
        return oncePerDocument(object.schemaProblems.map((problem) => toViolation(problem, object.written)), object.written);
      },
    };
  },
});
