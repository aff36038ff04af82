/**
 * A NetworkPolicy of the run selects a webhook's pods (by its Service's selector) for ingress
 * and lets in only other pods: the API server, which is not a pod of the cluster's network,
 * cannot reach the webhook, and every call times out (src/match/network-policies.ts). Under Fail
 * every matching request is rejected (error); under Ignore each waits out the timeout and the
 * webhook never runs (warning).
 */
import { droppedCalls, type DroppedCalls } from '../src/match/network-policies.js';
import { webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { elideMiddle } from '../src/text/list.js';

type MessageId = 'dropped';

export const rule = defineObjectRule({
  meta: {
    id: 'webhook-network-policy',
    title: "A NetworkPolicy keeps the API server from its webhook's pods: its calls time out",
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      dropped: '{{which}}: NetworkPolicy {{policy}} admits {{admits}} to port {{port}} of {{its}} Service\'s pods; the API server is no pod: its calls from other nodes time out ({{failurePolicy}})',
    },
    help: "The API server calls a webhook from the control plane's hosts (or from outside the cluster on a managed one), not from a pod: a NetworkPolicy peer that selects pods or namespaces never matches it. Add an ingress rule for the webhook's port with no `from` (the webhook authenticates the API server with TLS), or with an `ipBlock` for the control plane's addresses.",
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        // One cause, one finding: the webhooks of a configuration that one policy cuts off from one Service, together.
        const groups = new Map<string, { readonly first: WebhookEntry; readonly dropped: DroppedCalls; readonly labels: string[]; fail: boolean }>();
        for (const entry of webhooksOf(object)) {
          const dropped = droppedCalls(run, entry.webhook);
          if (dropped === undefined) continue;
          const key = `${dropped.policy.namespace}/${dropped.policy.name}\u0000${dropped.service.namespace}/${dropped.service.name}\u0000${dropped.targetPort}`;
          const group = groups.get(key) ?? { first: entry, dropped, labels: [], fail: false };
          group.labels.push(entry.label);
          if (entry.webhook.failurePolicy !== 'Ignore') group.fail = true;
          groups.set(key, group);
        }
        return [...groups.values()].map(({ first, dropped, labels, fail }): Violation<MessageId> => ({
          messageId: 'dropped',
          data: {
            which: labels.length === 1 ? `webhook "${elideMiddle(first.label, 60)}"` : `webhooks "${elideMiddle(first.label, 50)}" and ${labels.length - 1} more`,
            its: labels.length === 1 ? 'its' : 'their',
            policy: `${dropped.policy.namespace}/${elideMiddle(dropped.policy.name, 50)}`,
            admits: dropped.deniesAll ? 'nothing' : 'only pods',
            port: String(dropped.targetPort),
            // Under Ignore nothing is rejected, but every request waits out the timeout and passes without the webhook.
            failurePolicy: fail ? 'Fail: matching requests are rejected' : 'Ignore: each request waits out the timeout, unchecked',
          },
          path: [...first.path, 'clientConfig', 'service'],
        }));
      },
    };
  },
});
