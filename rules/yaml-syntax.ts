import { defineFileRule, type FileViolation } from '../src/rule.js';

const EXPLANATIONS: Record<string, string> = {
  DUPLICATE_KEY: 'the key appears twice in one mapping; kubectl rejects the manifest (strict field validation) or keeps only one of the values',
  NOT_UTF8: 'the file is not valid UTF-8; the API server only reads UTF-8 manifests',
  TOO_DEEP: 'lists or mappings nest thousands of levels deep, past what the parser can follow; no real manifest does',
  ALIAS_LIMIT: 'aliases expand to too much data (a "billion laughs" document); it is not read',
};

export const rule = defineFileRule({
  meta: {
    id: 'yaml-syntax',
    title: 'The file is not valid YAML or JSON (syntax, duplicate keys, alias bombs, encoding)',
    severity: 'error',
    appliesTo: [],
    messages: {
      syntax: '{{message}}',
      explained: '{{message}}: {{explanation}}',
    },
    help: 'Fix the YAML so that it parses; the rest of this document is not linted until it does.',
  },
  checkFile(file) {
    return file.problems.map((problem): FileViolation<'syntax' | 'explained'> => {
      const explanation = EXPLANATIONS[problem.code];
      return {
        messageId: explanation ? 'explained' : 'syntax',
        data: explanation ? { message: problem.message, explanation } : { message: problem.message },
        documentIndex: problem.documentIndex,
        span: problem.span,
        severity: problem.severity,
      };
    });
  },
});
