import type { SyntaxProblem } from '../src/parse/yaml.js';
import { defineFileRule, type FileViolation } from '../src/rule.js';

type MessageId = 'syntax' | 'explained' | 'template';

const EXPLANATIONS: Record<string, string> = {
  DUPLICATE_KEY: 'kubectl rejects the manifest (strict field validation) or keeps only one of the values',
  NOT_UTF8: 'the file is not valid UTF-8; the API server only reads UTF-8 manifests',
  TOO_DEEP: 'lists or mappings nest thousands of levels deep, past what the parser can follow; no real manifest does',
  ALIAS_LIMIT: 'aliases expand to too much data (a "billion laughs" document); it is not read',
  FILE_TOO_LARGE: 'manifests are kilobytes; split the file, or lint what you apply from it',
  TOO_MANY_DOCUMENTS: 'split the file, or lint what you apply from it',
  OBJECT_TOO_LARGE: 'kubectl apply fails with 413 Request Entity Too Large',
};

/** " (and 3 more problems in this document)", or nothing. */
function more(count: number): string {
  if (count === 0) return '';
  return ` (and ${count} more ${count === 1 ? 'problem' : 'problems'} in this document)`;
}

/** The key under which a file's unrendered template problems are one finding. */
const ANY_TEMPLATE = '\0template';

/**
 * One finding per document: its first error (or first warning when it has no error), with the
 * count of the rest. After the first error the parser is guessing, so the later ones are mostly
 * echoes of it; a template that was not rendered gave hundreds of them.
 */
export const rule = defineFileRule({
  meta: {
    id: 'yaml-syntax',
    title: 'The file is not valid YAML or JSON (syntax, duplicate keys, alias bombs, encoding)',
    severity: 'error',
    appliesTo: [],
    messages: {
      syntax: '{{message}}{{more}}',
      explained: '{{message}}: {{explanation}}{{more}}',
      template: 'unrendered template ({{template}}): this document is not YAML until it is rendered{{more}}',
    },
    help: 'Fix the YAML so that it parses; the rest of this document is not linted until it does. For a template, lint its rendered output (helm template ... | admission-lint -).',
  },
  checkFile(file) {
    const byDocument = new Map<number, SyntaxProblem[]>();
    for (const problem of file.problems) {
      const list = byDocument.get(problem.documentIndex);
      if (list === undefined) byDocument.set(problem.documentIndex, [problem]);
      else list.push(problem);
    }
    const violations: FileViolation<MessageId>[] = [];
    // One cause, one finding: an unrendered template in several documents of the file (whatever
    // directive each breaks on: an `if` here, an `else` there) is reported at the first,
    // counting the documents (render the file, then lint it; hold-out 27).
    const templated = new Map<string, { violation: FileViolation<MessageId>; others: number }>();
    for (const [documentIndex, problems] of byDocument) {
      const first = problems.find((problem) => problem.severity === 'error') ?? problems[0]!;
      const rest = more(problems.length - 1);
      const base = { documentIndex, span: first.span, severity: first.severity };
      const template = first.template !== undefined ? ANY_TEMPLATE : first.code === 'COLLECTION_KEY' ? first.message : undefined;
      const seen = template === undefined ? undefined : templated.get(template);
      if (seen !== undefined) {
        seen.others++;
        continue;
      }
      if (first.template !== undefined) {
        const violation: FileViolation<MessageId> = { ...base, messageId: 'template', data: { template: first.template, more: rest } };
        templated.set(ANY_TEMPLATE, { violation, others: 0 });
        violations.push(violation);
        continue;
      }
      if (template !== undefined) {
        const violation: FileViolation<MessageId> = { ...base, messageId: 'syntax', data: { message: first.message, more: rest } };
        templated.set(template, { violation, others: 0 });
        violations.push(violation);
        continue;
      }
      const explanation = EXPLANATIONS[first.code];
      violations.push(
        explanation
          ? { ...base, messageId: 'explained', data: { message: first.message, explanation, more: rest } }
          : { ...base, messageId: 'syntax', data: { message: first.message, more: rest } },
      );
    }
    return violations.map((violation) => {
      const group = [...templated.values()].find((entry) => entry.violation === violation);
      if (group === undefined || group.others === 0) return violation;
      const also = ` (and in ${group.others} more ${group.others === 1 ? 'document' : 'documents'})`;
      return { ...violation, data: { ...violation.data, more: `${String(violation.data?.more ?? '')}${also}` } };
    });
  },
});
