// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'unreachable-rule',
    title: 'A rule can never match a request',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
  check() {
    return [];
  },
});
