// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'policy-without-binding',
    title: "An admission policy that no binding in the run refers to does nothing",
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
