// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'validation-actions',
    title: "A binding whose validationActions enforce nothing or cannot be combined",
    severity: 'info',
    appliesTo: ['ValidatingAdmissionPolicyBinding'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
