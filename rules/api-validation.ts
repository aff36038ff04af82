import { formatFieldPath } from '../src/field-path.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { isFragment, webhooksOf } from '../src/model/webhooks.js';
import { isPlaceholder, morePlaceholders } from '../src/text/placeholder.js';
import { errorPlaceholder, filePlaceholders, placeholdersOf, type AdmissionObject, type FilePlaceholders } from '../src/validate/placeholder-findings.js';
import { valueAtPath } from '../src/field-path.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { formatFieldError, type FieldError } from '../src/validate/field-error.js';
import { apiErrorsOf, namespaceErrorsOf } from '../src/match/api-errors.js';
import type { NamespaceObject } from '../src/model/objects.js';
import { joinCapped } from '../src/text/list.js';

const PLACEHOLDER_HELP = 'A template placeholder is not a value the API server accepts: render the file as its install does (helm template, envsubst, a sed or make step) and lint the output (… | admission-lint -).';

function toViolation(error: FieldError, object?: AdmissionObject): Violation<'rejected' | 'placeholder' | 'fragment'> {
  // A value that is a template placeholder is named as one: the fix is to render, not to edit.
  // (The error's value may be a part of the field's, as a URL's empty host is of `WEBHOOK_URL`.)
  const placeholder = object === undefined ? typeof error.value === 'string' && isPlaceholder(error.value) : errorPlaceholder(object, error);
  const value = typeof error.value === 'string' && isPlaceholder(error.value) ? error.value : object === undefined ? error.value : valueAtPath(object.written, error.path);
  return {
    messageId: placeholder ? ('placeholder' as const) : ('rejected' as const),
    data: placeholder ? { path: formatFieldPath(error.path), value: JSON.stringify(value), more: '' } : { message: formatFieldError(error) },
    path: error.path,
    ...(placeholder ? { help: PLACEHOLDER_HELP } : {}),
    ...(error.locateAt ? { locateAt: error.locateAt } : {}),
  };
}

type MessageId = 'rejected' | 'placeholder' | 'fragment';

const COMPILATION_FAILED = 'compilation failed: ';

/** A CEL compile error's cause: its issues' texts, without their positions and the source lines under them. */
function compileCause(error: FieldError): string | undefined {
  if (typeof error.detail !== 'string' || !error.detail.startsWith(COMPILATION_FAILED)) return undefined;
  return error.detail
    .slice(COMPILATION_FAILED.length)
    .split('\n')
    .filter((line) => !line.startsWith(' | '))
    .map((line) => line.replace(/^ERROR: <input>:-?\d+:-?\d+: /, ''))
    .join('\n');
}

/**
 * One cause, one finding: expressions of one object that fail to compile with the same issues (one
 * function CEL does not have, `has()` of a variable, written in several validations) are one
 * mistake repeated; the API server rejects the object once, listing each. Reported at the first,
 * its message naming the others and the finding standing at each of them (`alsoAt`: a suppression
 * or a baseline entry of one place does not hide the others; hold-out 31, attack s46b).
 */
function oneFindingPerCompileCause(errors: readonly FieldError[], toViolation: (error: FieldError) => Violation<MessageId>): Violation<MessageId>[] {
  const causes = errors.map(compileCause);
  const groups = new Map<string, FieldError[]>();
  errors.forEach((error, index) => {
    const cause = causes[index];
    if (cause !== undefined) groups.set(cause, [...(groups.get(cause) ?? []), error]);
  });
  return errors.flatMap((error, index) => {
    const cause = causes[index];
    const group = cause === undefined ? undefined : groups.get(cause)!;
    if (group === undefined || group.length === 1) return [toViolation(error)];
    if (group[0] !== error) return [];
    // After the error's first line, before the source line and caret cel-go prints under it.
    const others = group.slice(1);
    const text = formatFieldError(error);
    const lineEnd = text.indexOf('\n') < 0 ? text.length : text.indexOf('\n');
    const issues = cause!.split('\n').length;
    const also = ` (the same${issues > 1 ? ` ${issues} issues` : ''} in ${joinCapped(others.map((other) => formatFieldPath(other.path)), 3)})`;
    return [{ ...toViolation({ ...error, message: `${text.slice(0, lineEnd)}${also}${text.slice(lineEnd)}` }), alsoAt: others.map((other) => other.locateAt ?? other.path) }];
  });
}


/**
 * One cause, one finding: an unrendered template's placeholders are named once per file, at the
 * first (src/validate/placeholder-findings.ts: not here when schema names one), and the same field
 * is not reported twice (a URL placeholder fails both the scheme and the host test). Errors that
 * are not about a placeholder are reported as usual: a render does not fill in a missing field.
 */
function oncePerFile(errors: readonly FieldError[], object: AdmissionObject | NamespaceObject, run: RuleRun, named: () => FilePlaceholders | undefined): Violation<MessageId>[] {
  const violations = oneFindingPerCompileCause(errors, (error) => toViolation(error, object.category === 'namespace' ? undefined : object));
  if (placeholdersOf(run, object) === 0) return violations;
  const first = violations.find((violation) => violation.messageId === 'placeholder');
  const file = named();
  const keep = file?.rule === 'api-validation' && file.at === object ? first : undefined;
  const more = morePlaceholders(file?.count ?? 0);
  return violations
    .filter((violation) => violation.messageId !== 'placeholder' || violation === keep)
    .map((violation) => (violation === keep ? { ...keep, data: { ...keep.data, more } } : violation));
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
      fragment: 'no webhook has {{missing}}: a kustomize patch fragment, not an object; lint `kubectl kustomize` output ({{count}} errors)',
    },
    help: 'Change the field so that the API server accepts it; the message is the one kubectl apply would print.',
  },
  create(run) {
    // Each object's errors, computed once per run (other objects of a file, and other rules, ask about their placeholders).
    const errorsOf = (object: AdmissionObject): readonly FieldError[] => apiErrorsOf(run, object);
    const namespaceErrors = (namespace: NamespaceObject): readonly FieldError[] => namespaceErrorsOf(run, namespace);
    const named = (object: AdmissionObject | NamespaceObject) => (): FilePlaceholders | undefined => filePlaceholders(run, object.manifest.file, run.isEnabled('schema'), errorsOf, namespaceErrors);
    return {
      webhookConfiguration(object) {
        const errors = errorsOf(object);
        // A patch fragment misses clientConfig, rules and more in every webhook: one cause, one finding.
        // It is never applied alone, so it is not an error: an info that says what to lint instead.
        if (errors.length > 0 && isFragment(object)) {
          const entries = webhooksOf(object);
          const complete = entries.some(({ webhook }) => webhook.clientConfig != null || webhook.rules != null);
          const missing = complete ? 'sideEffects or admissionReviewVersions' : 'clientConfig or rules';
          // The API server's count: side-effects, not this rule, checks sideEffects (required in v1).
          const sideEffects = object.apiVersion === 'admissionregistration.k8s.io/v1' ? entries.filter(({ webhook }) => webhook.sideEffects == null).length : 0;
          return [{ messageId: 'fragment', data: { count: errors.length + sideEffects, missing }, path: ['webhooks'], part: 'key', severity: 'info', help: 'A patch is merged into a base by kustomize and never applied alone. Lint the rendered build (kubectl kustomize DIR | admission-lint -), not the patch.' }];
        }
        return oncePerFile(errors, object, run, named(object));
      },
      policy(object) {
        return oncePerFile(errorsOf(object), object, run, named(object));
      },
      // A Namespace whose name or labels the API server rejects never exists (nor do its labels).
      // A kustomization that lists its file and sets a namespace renames it to that namespace
      // (kustomize's namespace field specs); when every one that lists it does, its written name
      // is not what the API server gets (hold-out 28: a placeholder `_` built as rook-ceph).
      namespace(namespace) {
        return oncePerFile(namespaceErrors(namespace), namespace, run, named(namespace));
      },
    };
  },
});
