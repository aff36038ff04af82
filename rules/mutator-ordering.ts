// SCAFFOLD: replaced by the rule's implementation (metadata fixed by the issue).
import { defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'mutator-ordering',
    title: "Several mutating webhooks can match one request: their order decides what each one sees",
    severity: 'info',
    appliesTo: ['MutatingWebhookConfiguration'],
    messages: { todo: 'not implemented' },
    help: 'not implemented',
  },
});
