// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'pod-security-labels',
    title: "Pod Security Admission labels on a Namespace are invalid, incomplete or privileged",
    severity: 'error',
    appliesTo: ['Namespace'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
