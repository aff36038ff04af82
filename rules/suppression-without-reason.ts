/**
 * Reported by the engine (src/engine/suppressions.ts), which sees the suppression directives and
 * annotations of every file; this module holds the rule's metadata and message templates only.
 */
import { defineFileRule } from '../src/rule.js';

export const rule = defineFileRule({
  meta: {
    id: 'suppression-without-reason',
    title: 'A suppression (directive comment or ignore annotation) that does not say why',
    severity: 'warning',
    appliesTo: [],
    messages: {
      comment: '{{directive}} for {{rules}} gives no reason',
      annotation: 'the admission-lint.dev/ignore annotation for {{rules}} has no admission-lint.dev/ignore-reason annotation beside it',
    },
    help: 'Say why the finding does not apply: "# admission-lint-disable-next-line <rule-id> -- <reason>", or an admission-lint.dev/ignore-reason annotation.',
  },
  checkFile: () => [],
});
