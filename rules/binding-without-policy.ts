// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'binding-without-policy',
    title: "A binding refers to a policy that is not in the run",
    severity: 'error',
    appliesTo: ['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
