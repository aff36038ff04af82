// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'namespace-opts-out',
    title: "A Namespace's labels take it out of a validating webhook that would otherwise select it",
    severity: 'warning',
    appliesTo: ['Namespace'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
