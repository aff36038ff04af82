import { EVERYTHING_RULE, reportedAsEverything, wildcardResource } from '../src/match/intercepts-everything.js';
import { patchedNote, withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';
import { kubeSystemInterceptions } from '../src/match/kube-system-webhooks.js';
import { joinCapped } from '../src/text/list.js';

import { criticalWrites, ignoresWithLongTimeout } from '../src/match/critical-targets.js';

/** The rule that reports the kube-system writes of these webhooks, when it runs. */
const MATCHES_KUBE_SYSTEM = 'matches-kube-system';

/**
 * "<resource><where>" per intercepted request; the requests of one named object ("of the
 * default/kubernetes Service") are one item, so that the object is named once.
 */
function itemsOf(described: ReadonlyMap<string, readonly string[]>): string[] {
  return [...new Set([...described].flatMap(([where, names]) => (where.startsWith(' of ') ? [`${[...new Set(names)].join(' and ')}${where}`] : names.map((name) => `${name}${where}`))))];
}

export const rule = defineObjectRule({
  meta: {
    id: 'critical-resources',
    title: 'The webhook can intercept resources the control plane needs to recover',
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      fail: 'webhook "{{webhook}}" intercepts control-plane writes with failurePolicy Fail{{defaulted}}: {{resources}}{{scope}}{{patched}}',
      ignore:
        'webhook "{{webhook}}" intercepts control-plane writes with failurePolicy Ignore{{defaulted}} but timeoutSeconds {{timeout}}{{timeoutDefaulted}}: {{resources}}{{scope}}{{patched}}',
    },
    help: 'The control plane needs these writes to recover (node heartbeats and status, leader election, the system add-ons\' pods, authentication and authorization, kubelet certificates, API aggregation, CRDs, priority classes, the endpoints of the default/kubernetes Service): while the webhook is down they are all rejected (Fail), or each waits the timeout (Ignore), longer than heartbeats, lease renewals and token reviews can wait. Narrow the rules to the resources the webhook needs (no wildcards over the control plane\'s resources), exclude kube-system and kube-node-lease by kubernetes.io/metadata.name, or use failurePolicy Ignore with a short timeout.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        // One cause, one finding: when matches-kube-system runs, it reports these webhooks for the
        // system's writes in kube-system; when it is off, this rule reports them itself. For an
        // Ignore webhook the cause is its timeout, wherever the writes are: this rule reports
        // them all, and matches-kube-system and long-timeout leave that webhook to it.
        // The selectors its kustomization's patches give it, when the build is certain (src/match/kustomize-selectors.ts).
        const judged = withKustomizeSelectors(object, run);
        const reportedForKubeSystem = new Set(run.isEnabled(MATCHES_KUBE_SYSTEM) ? kubeSystemInterceptions(judged.object, run).map(({ entry }) => entry.index) : []);
        return webhooksOf(judged.object).flatMap((entry) => {
          const { webhook } = entry;
          // One cause, one finding: a webhook that intercepts everything is reported by wildcard-rule when it runs.
          if (reportedAsEverything(webhook, run)) return [];
          const ignore = webhook.failurePolicy === 'Ignore';
          const timeout = webhook.timeoutSeconds ?? 10;
          // Above 30s the API server rejects the object; timeout-out-of-range reports that.
          if (ignore && !ignoresWithLongTimeout(webhook)) return [];
          // "<resource><where>" per intercepted request, capped in the message (the why of each is in the doc).
          const { described, firstRule, clusterScoped } = criticalWrites(webhook, run, { kubeSystemWrites: ignore || !reportedForKubeSystem.has(entry.index) });
          if (firstRule === undefined) return [];
          const defaulted = isDefaulted(object, [...entry.path, 'failurePolicy']);
          // One cause, one finding: with Fail, this error is what the omitted failurePolicy and a
          // wildcard over every API group (which names these resources too) put at stake; those
          // rules' findings of the webhook defer to it (src/engine/covers.ts).
          const wildcard = ignore ? undefined : wildcardResource(webhook, (group) => run.discovery.isKnownBuiltinGroup(group));
          const covers = ignore
            ? []
            : [
                ...(defaulted ? [{ ruleId: 'implicit-failure-policy', path: [...entry.path, 'failurePolicy'] }] : []),
                // The wildcard entry must be the rule entry this finding is about (s47b 20: not another one narrowed away from these writes).
                ...(wildcard?.anyGroup === true && wildcard.j === firstRule ? [{ ruleId: EVERYTHING_RULE, path: [...entry.path, 'rules', wildcard.j, 'resources', wildcard.k] }] : []),
              ];
          const selected = (webhook.namespaceSelector?.matchLabels != null && Object.keys(webhook.namespaceSelector.matchLabels).length > 0) || (webhook.namespaceSelector?.matchExpressions ?? []).length > 0;
          return [
            {
              messageId: ignore ? ('ignore' as const) : ('fail' as const),
              data: {
                webhook: entry.label,
                resources: joinCapped(itemsOf(described), 3, { width: 50 }),
                timeout,
                defaulted: defaulted ? ' (the API default)' : '',
                timeoutDefaulted: isDefaulted(object, [...entry.path, 'timeoutSeconds']) ? ' (the API default)' : '',
                scope: clusterScoped && selected ? ' (its namespaceSelector does not narrow cluster-scoped resources)' : '',
                // The scope note already says the selector does not matter: no need to say where it comes from.
                patched: clusterScoped && selected ? '' : patchedNote(judged),
              },
              path: [...entry.path, 'rules', firstRule],
              severity: ignore ? ('warning' as const) : ('error' as const),
              ...(covers.length > 0 ? { covers } : {}),
            },
          ];
        });
      },
    };
  },
});
