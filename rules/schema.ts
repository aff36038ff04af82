import { formatFieldPath, valueAtPath } from '../src/field-path.js';
import { formatKubeVersion, isAtLeast } from '../src/kube/version.js';
import { countPlaceholders, morePlaceholders } from '../src/text/placeholder.js';
import { filePlaceholders, schemaPlaceholder, type AdmissionObject } from '../src/validate/placeholder-findings.js';
import type { RunScope } from '../src/run-scope.js';
import type { SchemaProblem } from '../src/validate/schema.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'schema' | 'placeholder' | 'matchConditionsTooNew';

/** A problem with a value that is a template placeholder is named as one: the fix is to render, not to edit. */
function toViolation(problem: SchemaProblem, object: AdmissionObject): Violation<MessageId> {
  const value = valueAtPath(object.written, problem.path);
  if (schemaPlaceholder(object, problem)) {
    return {
      messageId: 'placeholder',
      data: { path: formatFieldPath(problem.path), value: JSON.stringify(value), more: '' },
      path: problem.path,
      part: problem.part,
      help: 'A template placeholder is not a value the API server accepts: render the file as its install does (helm template, envsubst, a sed or make step) and lint the output (… | admission-lint -).',
    };
  }
  return { messageId: 'schema', data: { message: problem.message }, path: problem.path, part: problem.part, ...(problem.booleanForString ? { fixHint: { kind: 'boolean-for-string' as const } } : {}) };
}

/**
 * One cause, one finding: an unrendered template's placeholders are named once per file, at the
 * first (src/validate/placeholder-findings.ts), counting the others.
 */
function oncePerFile(violations: readonly Violation<MessageId>[], object: AdmissionObject, run: RunScope): Violation<MessageId>[] {
  const first = violations.find((violation) => violation.messageId === 'placeholder');
  if (first === undefined) return [...violations];
  // This object has one, so the file's first is found among the schema problems.
  const named = filePlaceholders(run, object.manifest.file, true, () => [], () => []);
  const keep = named?.at === object ? first : undefined;
  const more = morePlaceholders(named?.count ?? countPlaceholders(object.written));
  const others = violations.filter((violation) => violation.messageId === 'placeholder' && violation !== first).map((violation) => violation.path);
  return violations.filter((violation) => violation.messageId !== 'placeholder' || violation === keep).map((violation) => (violation === keep ? { ...keep, data: { ...keep.data, more }, alsoAt: others } : violation));
}

/**
 * One cause, one finding: the same problem at the same field of several webhooks of one
 * configuration (a caBundle that is not base64, copied into each) is reported at the first,
 * counting the others.
 */
function acrossWebhooks(violations: readonly Violation<MessageId>[]): Violation<MessageId>[] {
  const groups = new Map<string, Violation<MessageId>[]>();
  const out: (Violation<MessageId> | string)[] = [];
  for (const violation of violations) {
    const message = violation.data?.message;
    if (violation.messageId !== 'schema' || violation.path[0] !== 'webhooks' || typeof violation.path[1] !== 'number' || typeof message !== 'string') {
      out.push(violation);
      continue;
    }
    const key = `${violation.path.slice(2).join('.')}\u0000${message.replace(/^webhooks\[\d+\]/, '')}`;
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, [violation]);
      out.push(key);
    } else group.push(violation);
  }
  return out.map((item) => {
    if (typeof item !== 'string') return item;
    const [first, ...rest] = groups.get(item)!;
    if (rest.length === 0) return first!;
    const alsoAt = rest.map((violation) => violation.path);
    // The fix quotes the value in every webhook the finding counts.
    const fixHint = first!.fixHint?.kind === 'boolean-for-string' ? { fixHint: { ...first!.fixHint, alsoAt } } : {};
    return { ...first!, data: { ...first!.data, message: `${String(first!.data!.message)} (and in ${rest.length} more webhook${rest.length === 1 ? '' : 's'})` }, alsoAt, ...fixHint };
  });
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
        const violations: Violation<MessageId>[] = acrossWebhooks(oncePerFile(object.schemaProblems.map((problem) => toViolation(problem, object)), object, run));
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
        return oncePerFile(object.schemaProblems.map((problem) => toViolation(problem, object)), object, run);
      },
    };
  },
});
