// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'self-deadlock',
    title: 'A Fail webhook intercepts the creation of its own pods',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
  check() {
    return [];
  },
});
