import { isAtLeast } from '../src/kube/version.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';
import { kubeSystemInterceptions } from '../src/match/kube-system-webhooks.js';
import { MAX_TIMEOUT_SECONDS } from '../src/model/types.js';

import { describe, IGNORE_TIMEOUT_SECONDS, intercepts, TARGETS } from '../src/match/critical-targets.js';

/** The rule that reports the kube-system writes of these webhooks, when it runs. */
const MATCHES_KUBE_SYSTEM = 'matches-kube-system';

export const rule = defineObjectRule({
  meta: {
    id: 'critical-resources',
    title: 'The webhook can intercept resources the control plane needs to recover',
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      fail: 'webhook "{{webhook}}" has failurePolicy Fail{{defaulted}} and intercepts writes the control plane needs, which are all rejected while it is down: {{resources}}',
      ignore:
        'webhook "{{webhook}}" has failurePolicy Ignore{{defaulted}} but timeoutSeconds {{timeout}}{{timeoutDefaulted}}, and intercepts writes the control plane needs, each of which waits {{timeout}}s while it is unreachable (heartbeats, lease renewals and token reviews have shorter deadlines): {{resources}}',
    },
    help: 'Narrow the rules to the resources the webhook needs (no wildcards over the control plane\'s resources), exclude kube-system and kube-node-lease by kubernetes.io/metadata.name, or use failurePolicy Ignore with a short timeout.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const virtualExempt = isAtLeast(run.kubeVersion, 1, 37);
        // One cause, one finding: when matches-kube-system runs, it reports these webhooks for the
        // system's writes in kube-system; when it is off, this rule reports them itself.
        const reportedForKubeSystem = new Set(run.isEnabled(MATCHES_KUBE_SYSTEM) ? kubeSystemInterceptions(object, run).map(({ entry }) => entry.index) : []);
        return webhooksOf(object).flatMap((entry) => {
          const { webhook } = entry;
          const ignore = webhook.failurePolicy === 'Ignore';
          const timeout = webhook.timeoutSeconds ?? 10;
          // Above 30s the API server rejects the object; timeout-out-of-range reports that.
          if (ignore && !(timeout > IGNORE_TIMEOUT_SECONDS && timeout <= MAX_TIMEOUT_SECONDS)) return [];
          // "<resources><where> (<why>)", targets with the same place and purpose merged.
          const described = new Map<string, string[]>();
          let firstRule: number | undefined;
          for (const target of TARGETS) {
            if (target.virtual && virtualExempt) continue;
            if (target.kubeSystemWrites && reportedForKubeSystem.has(entry.index)) continue;
            for (const request of target.requests) {
              const hit = intercepts(webhook, target, request, run);
              if (hit === undefined) continue;
              const key = `${target.where} (${target.why})`;
              described.set(key, [...(described.get(key) ?? []), hit.operations.length < request.operations.length ? `${describe(request)} (${hit.operations.join(', ')})` : describe(request)]);
              if (firstRule === undefined || hit.rule < firstRule) firstRule = hit.rule;
            }
          }
          if (firstRule === undefined) return [];
          return [
            {
              messageId: ignore ? ('ignore' as const) : ('fail' as const),
              data: {
                webhook: entry.label,
                resources: [...described].map(([key, names]) => `${names.join(', ')}${key}`).join('; '),
                timeout,
                defaulted: isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '',
                timeoutDefaulted: isDefaulted(object, [...entry.path, 'timeoutSeconds']) ? ' (the API default)' : '',
              },
              path: [...entry.path, 'rules', firstRule],
              severity: ignore ? ('warning' as const) : ('error' as const),
            },
          ];
        });
      },
    };
  },
});
