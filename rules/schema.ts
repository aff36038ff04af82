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
 * Which of a webhook's schema problems are one cause with others: the same problem at the same
 * field, with the same written value (a caBundle that is not base64, copied into each webhook).
 * Undefined for a problem that is not at a webhook's field.
 */
function webhookProblemKey(path: readonly (string | number)[], message: string): string | undefined {
  if (path[0] !== 'webhooks' || typeof path[1] !== 'number') return undefined;
  return `${path.slice(2).join('.')}\u0000${message.replace(/^webhooks\[\d+\]/, '')}`;
}

/** Across the configurations of a file, a group also needs the same written value (its first webhook's). */
function fileKey(key: string, path: readonly (string | number)[], object: AdmissionObject): string {
  return `${key}\u0000${JSON.stringify(valueAtPath(object.written, path)) ?? ''}`;
}

/** Per key (webhookProblemKey), the file's first configuration with that problem and in how many webhooks of the file it is. */
type FileProblems = Map<string, { readonly first: AdmissionObject; count: number }>;

/** The webhook configurations of a file, in document order, and their problems by key. */
function fileProblems(run: RunScope, object: AdmissionObject): FileProblems {
  const problems: FileProblems = new Map();
  const objects = run.webhookConfigurations.filter((each) => each.manifest.file === object.manifest.file).sort((a, b) => a.manifest.documentIndex - b.manifest.documentIndex);
  for (const each of objects) {
    // Grouped within the configuration first, as acrossWebhooks groups them.
    const own = new Map<string, { path: readonly (string | number)[]; count: number }>();
    for (const problem of each.schemaProblems) {
      if (schemaPlaceholder(each, problem)) continue;
      const key = webhookProblemKey(problem.path, problem.message);
      if (key === undefined) continue;
      const known = own.get(key);
      if (known === undefined) own.set(key, { path: problem.path, count: 1 });
      else known.count++;
    }
    for (const [key, { path, count }] of own) {
      const inFile = fileKey(key, path, each);
      const known = problems.get(inFile);
      if (known === undefined) problems.set(inFile, { first: each, count });
      else known.count += count;
    }
  }
  return problems;
}

/**
 * One cause, one finding: the same problem at the same field of several webhooks, with the same
 * value, is reported at the first, counting the others: in one configuration, and across the
 * configurations of one file (one template's redacted caBundles, hold-out 36), where the later
 * ones leave it to the first.
 */
function acrossWebhooks(violations: readonly Violation<MessageId>[], object: AdmissionObject, inFile: () => FileProblems): Violation<MessageId>[] {
  const groups = new Map<string, Violation<MessageId>[]>();
  const out: (Violation<MessageId> | string)[] = [];
  for (const violation of violations) {
    const message = violation.data?.message;
    const key = violation.messageId === 'schema' && typeof message === 'string' ? webhookProblemKey(violation.path, message) : undefined;
    if (key === undefined) {
      out.push(violation);
      continue;
    }
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, [violation]);
      out.push(key);
    } else group.push(violation);
  }
  return out.flatMap((item) => {
    if (typeof item !== 'string') return [item];
    const [first, ...rest] = groups.get(item)!;
    const file = inFile().get(fileKey(item, first!.path, object));
    // Named at an earlier configuration of the file.
    if (file !== undefined && file.first !== object) return [];
    const more = Math.max(rest.length, (file?.count ?? 1) - 1);
    if (more === 0) return [first!];
    const alsoAt = rest.map((violation) => violation.path);
    // The fix quotes the value in every webhook the finding counts.
    const fixHint = first!.fixHint?.kind === 'boolean-for-string' ? { fixHint: { ...first!.fixHint, alsoAt } } : {};
    const where = more > rest.length ? ' of this file' : '';
    return [{ ...first!, data: { ...first!.data, message: `${String(first!.data!.message)} (and in ${more} more webhook${more === 1 ? '' : 's'}${where})` }, ...(alsoAt.length > 0 ? { alsoAt } : {}), ...fixHint }];
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
    // The file's problems by key, found once per file of the run (the rule's own, per run).
    const byFile = new Map<unknown, FileProblems>();
    return {
      webhookConfiguration(object) {
        const inFile = (): FileProblems => byFile.get(object.manifest.file) ?? (byFile.set(object.manifest.file, fileProblems(run, object)), byFile.get(object.manifest.file)!);
        const violations: Violation<MessageId>[] = acrossWebhooks(oncePerFile(object.schemaProblems.map((problem) => toViolation(problem, object)), object, run), object, inFile);
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
