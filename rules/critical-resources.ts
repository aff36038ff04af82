// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'critical-resources',
    title: 'The webhook can intercept resources the control plane needs to recover',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
  check() {
    return [];
  },
});
