// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'client-config-url',
    title: 'clientConfig.url points at an in-cluster Service, loopback or an IP literal',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
  check() {
    return [];
  },
});
