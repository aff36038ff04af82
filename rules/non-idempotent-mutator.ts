/**
 * A mutating webhook that receives objects it has already mutated: asked for by the configuration
 * (`reinvocationPolicy: IfNeeded`), or on UPDATE, the ordinary case of every defaulting webhook.
 * The manifest never shows the webhook's patch, so nothing in it is evidence that the patch is
 * not idempotent: each is a reminder, one `info` per configuration.
 */
import { webhookReachability } from '../src/match/reachability.js';
import { webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'reinvoked' | 'update';

/** The first UPDATE (or `*`) operation of the webhook's rules, as a path, or undefined. */
function updateOperation(entry: WebhookEntry): (string | number)[] | undefined {
  for (const [j, rule] of (entry.webhook.rules ?? []).entries()) {
    const k = (rule?.operations ?? []).findIndex((operation) => operation === 'UPDATE' || operation === '*');
    if (k >= 0) return [...entry.path, 'rules', j, 'operations', k];
  }
  return undefined;
}

export const rule = defineObjectRule({
  meta: {
    id: 'non-idempotent-mutator',
    title: 'A mutating webhook receives its own output again and must be idempotent',
    aboutCalls: true,
    severity: 'info',
    appliesTo: ['MutatingWebhookConfiguration'],
    messages: {
      reinvoked: '{{which}} reinvocationPolicy IfNeeded: called again with {{its}} own output, the patch must be idempotent',
      update: '{{which}} on UPDATE, where the object is already mutated',
    },
    help: 'A webhook called again, or on UPDATE, gets an object it has already mutated, so its patch must be idempotent. Make the patch a no-op on an already-mutated object (check before you add), and verify the final object with a validating webhook or ValidatingAdmissionPolicy.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        const onUpdate: { entry: WebhookEntry; path: (string | number)[] }[] = [];
        const reinvoked: WebhookEntry[] = [];
        for (const entry of webhooksOf(object)) {
          if (!entry.mutating) continue;
          // The infos count the webhooks that can be called; the engine drops per-webhook findings on the others.
          if (webhookReachability(entry.webhook, entry.path, entry.label, run).neverCalled) continue;
          if (entry.webhook.reinvocationPolicy === 'IfNeeded') {
            reinvoked.push(entry);
            continue;
          }
          const path = updateOperation(entry);
          if (path !== undefined) onUpdate.push({ entry, path });
        }
        if (reinvoked.length > 0) {
          const first = reinvoked[0]!;
          const which = reinvoked.length === 1 ? `webhook "${first.label}" has` : `${reinvoked.length} webhooks (first: "${first.label}") have`;
          violations.push({ messageId: 'reinvoked', data: { which, its: reinvoked.length === 1 ? 'its' : 'their' }, path: [...first.path, 'reinvocationPolicy'], alsoAt: reinvoked.slice(1).map((entry) => [...entry.path, 'reinvocationPolicy']) });
        }
        if (onUpdate.length > 0) {
          const first = onUpdate[0]!;
          const which = onUpdate.length === 1 ? `webhook "${first.entry.label}" mutates` : `${onUpdate.length} webhooks (first: "${first.entry.label}") mutate`;
          violations.push({ messageId: 'update', data: { which }, path: first.path, alsoAt: onUpdate.slice(1).map(({ path }) => path), severity: 'info' });
        }
        return violations;
      },
    };
  },
});
