// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'timeout-budget',
    title: 'Webhooks that match the same request add up to more than the latency budget',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
  check() {
    return [];
  },
});
