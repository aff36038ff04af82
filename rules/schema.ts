import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'schema',
    title: 'A field has the wrong type or is not a field of the v1 API types',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { schema: '{{message}}' },
    help: 'Match the admissionregistration.k8s.io/v1 types: check the field name and its indentation, and quote values that YAML would read as numbers or booleans.',
    // Runs on every object: it is what tells the user why the other rules did not.
    needsDecodableObject: false,
  },
  check(object) {
    return object.schemaProblems.map((problem) => ({
      messageId: 'schema' as const,
      data: { message: problem.message },
      path: problem.path,
      part: problem.part,
    }));
  },
});
