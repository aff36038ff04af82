/**
 * Reported by the engine (src/engine/suppressions.ts) after every other rule has run, since a
 * suppression is unused only when nothing it covers was found; this module holds the rule's
 * metadata and message templates only.
 */
import { defineFileRule } from '../src/rule.js';

export const rule = defineFileRule({
  meta: {
    id: 'unused-suppression',
    title: 'A suppression that suppresses nothing: no such finding, an unknown rule id, or no field after it',
    severity: 'info',
    appliesTo: [],
    messages: {
      unused: '{{directive}} for {{rule}} suppresses nothing: {{rule}} reports no finding {{where}}',
      unusedPartly: '{{directive}} for {{rule}} suppresses nothing alone: its finding also stands on {{lines}}; suppress it there too',
      unusedMove: '{{directive}} for {{rule}} suppresses nothing here: its finding is on line {{line}}; move the directive to the line above that one',
      lineAlone: 'admission-lint-disable-line covers the line it ends, and this line has no field: put it at the end of the line, or use admission-lint-disable-next-line',
      unknownRule: '{{directive}} names an unknown rule "{{rule}}"',
      unknownRuleSuggestion: '{{directive}} names an unknown rule "{{rule}}"; did you mean "{{suggestion}}"?',
      wildcard: '{{directive}} names "{{rule}}"; there is no wildcard, each suppression names its rules',
      noRules: '{{directive}} names no rule',
      noTarget: 'admission-lint-disable-next-line is not followed by a field or list item on the next line',
      fileOnly: '{{directive}} cannot suppress yaml-syntax: a document that does not parse has no fields; use admission-lint-disable-file',
      notSuppressible: '{{directive}} cannot suppress {{rule}}; turn it off with --rule {{rule}}=off',
      unknownDirective: '"admission-lint-{{name}}" is not a directive (admission-lint-disable-next-line, admission-lint-disable-line, admission-lint-disable-file)',
    },
    help: 'Remove the suppression, or correct its rule id or its place (the line directly before the field or list item, or the end of the line the finding is on).',
  },
  checkFile: () => [],
});
