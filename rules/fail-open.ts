// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'fail-open',
    title: "A validating webhook fails open: while it is unreachable, objects are stored unchecked",
    severity: 'info',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
