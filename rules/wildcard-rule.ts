import { patchedNote, withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { everythingRule, wildcardResource } from '../src/match/intercepts-everything.js';
import { isEmptySelector } from '../src/match/selector.js';
import type { LabelSelector } from '../src/model/types.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { webhookReachability } from '../src/match/reachability.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { describeGroup, splitEntry } from '../src/match/targets.js';
import { joinWords } from '../src/text/list.js';

type MessageId = 'wildcard';

/**
 * An objectSelector that requires a label (any matchLabels pair, an In or Exists requirement)
 * is opt-in: only objects carrying that label are sent, so the webhook does not stand in front
 * of every write even though its rules name every resource.
 */
function isOptIn(selector: LabelSelector | undefined): boolean {
  if (selector === undefined) return false;
  return Object.keys(selector.matchLabels ?? {}).length > 0 || (selector.matchExpressions ?? []).some((r) => r?.operator === 'In' || r?.operator === 'Exists');
}

function describeGroups(groups: readonly string[]): string {
  const names = groups.map(describeGroup);
  return joinWords(names);
}

function describeEntry(entry: string, scope: string): string {
  const { subresource } = splitEntry(entry);
  const resource = scope === 'Namespaced' ? 'every namespaced resource' : scope === 'Cluster' ? 'every cluster-scoped resource' : 'every resource';
  if (subresource === '') return resource;
  if (subresource === '*') return `${resource} and subresource`;
  return `the ${subresource} subresource of ${resource}`;
}

const EVERYTHING_HELP =
  "While the webhook is down every write is rejected: the control plane's (the leases in kube-node-lease that carry node heartbeats, leader election, kube-system's pods and workloads) and, for a webhook served from the cluster, its own pods', so it cannot be restarted. List the resources (and API groups) the webhook needs by name; exclude kube-system, kube-node-lease and the webhook's own namespace with namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, kube-node-lease, <its namespace>]}]}; or set failurePolicy: Ignore with a short timeout.";

/** A rule in place of a dead one (its index kept): it names nothing. */
const NOTHING = { operations: [], apiGroups: [], apiVersions: [], resources: [] };

export const rule = defineObjectRule({
  meta: {
    id: 'wildcard-rule',
    title: 'A Fail webhook matches every resource or API group',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      wildcard:
        'webhook "{{webhook}}" intercepts {{what}} {{where}} with failurePolicy Fail{{defaulted}}{{patched}}',
    },
    help: 'While the webhook is unreachable, all those requests are rejected, including requests for resources added to the cluster later. List the resources (and API groups) the webhook needs by name, or set failurePolicy: Ignore and enforce the result another way.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        // The selectors its kustomization's patches give it, when the build is certain (src/match/kustomize-selectors.ts).
        const judged = withKustomizeSelectors(object, run);
        for (const entry of webhooksOf(judged.object)) {
          // A rule unreachable-rule reports as reaching no request (CREATE on */scale, say) intercepts nothing.
          const { deadRules } = webhookReachability(entry.webhook, entry.path, entry.label, run);
          const webhook = deadRules.size === 0 ? entry.webhook : { ...entry.webhook, rules: (entry.webhook.rules ?? []).map((rule, j) => (deadRules.has(j) ? NOTHING : rule)) };
          if (webhook.failurePolicy !== 'Fail') continue;
          if (isOptIn(webhook.objectSelector)) continue;
          // Nothing narrows it: every write in the cluster waits on it. The one cause of what
          // matches-kube-system, critical-resources and self-deadlock would each report (they defer).
          const everything = everythingRule(webhook);
          // One finding per webhook: the first rule entry with a wildcard resource in a wildcard or built-in group (that one, for everything).
          // (A wildcard over the webhook's own API groups, cert-manager.io: */*, is how projects validate all of their kinds: not one.)
          const found = wildcardResource(webhook, (group) => run.discovery.isKnownBuiltinGroup(group));
          if (found === undefined) continue;
          violations.push({
            messageId: 'wildcard',
            // Every resource of one named group is a scope its author chose (the group's kinds, a
            // few more as it grows): info. Every group is everything the cluster will ever serve.
            ...(everything !== undefined ? { severity: 'error' as const, help: EVERYTHING_HELP } : found.anyGroup ? {} : { severity: 'info' as const }),
            path: [...entry.path, 'rules', found.j, 'resources', found.k],
            data: {
              webhook: entry.label,
              what: describeEntry(found.resourceEntry, found.scope),
              where: `${found.anyGroup ? 'of every API group' : `of ${describeGroups(found.groups)}`}${
                everything !== undefined ? ' in every namespace' : found.scope === 'Namespaced' && !isEmptySelector(webhook.namespaceSelector) ? ' in the namespaces it selects' : ''
              }`,
              defaulted: isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '',
              patched: patchedNote(judged),
            },
          });
        }
        return violations;
      },
    };
  },
});
