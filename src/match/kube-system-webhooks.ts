/**
 * Which webhooks of a configuration intercept what the system's own components write in
 * kube-system: pods, leases, endpoints, workloads (src/kube/kube-system-resources.ts), through a
 * namespaceSelector that selects kube-system, an objectSelector the system's objects can satisfy
 * (src/match/kube-system.ts) and matchConditions that let the system's requests through.
 *
 * `matches-kube-system` reports these webhooks; `critical-resources` leaves their kube-system
 * writes to it when it runs (one cause, one finding). Both read this analysis, computed once per
 * object and run.
 */
import { firstResourceMatch, KUBE_SYSTEM_DELETED, KUBE_SYSTEM_WRITTEN, type BuiltinMatch } from '../kube/kube-system-resources.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import { webhooksOf, type WebhookEntry } from '../model/webhooks.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { systemObjectLabels } from './kube-system.js';
import { namespaceLabels } from './namespaces.js';
import { selectorHasPlaceholder, selectorMatches } from './selector.js';
import { systemRequestOutcome } from './system-requests.js';

export const KUBE_SYSTEM = 'kube-system';

/** Operations the system's components perform; CONNECT (exec, attach, port-forward) is people's. */
const SYSTEM_OPERATIONS = new Set(['*', 'CREATE', 'UPDATE', 'DELETE']);
/** Subresources reached only by CONNECT. */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

export interface KubeSystemInterception {
  readonly entry: WebhookEntry;
  /** The index of the first rule that intercepts a system write there. */
  readonly rule: number;
  /** The first system-written resource that rule names. */
  readonly match: BuiltinMatch;
}

/** Per object and run: the analysis is read by two rules. */
const INTERCEPTIONS = memoKey<Map<WebhookConfigurationObject, readonly KubeSystemInterception[]>>('kube-system interceptions per configuration');

export function kubeSystemInterceptions(object: WebhookConfigurationObject, context: RunScope): readonly KubeSystemInterception[] {
  return context.memo.perObject(INTERCEPTIONS, object, () => analyse(object, context));
}

function analyse(object: WebhookConfigurationObject, context: RunScope): KubeSystemInterception[] {
  const labels = namespaceLabels(context, KUBE_SYSTEM);
  return webhooksOf(object).flatMap((entry): KubeSystemInterception[] => {
    const { webhook } = entry;
    // A placeholder in a selector (`${NAMESPACE}`) leaves what it selects unknown: say nothing.
    if (selectorHasPlaceholder(webhook.namespaceSelector) || selectorHasPlaceholder(webhook.objectSelector)) return [];
    if (selectorMatches(webhook.namespaceSelector, labels) !== true) return [];
    // An opt-in objectSelector (a label of the webhook's own) exempts the system's objects.
    if (selectorMatches(webhook.objectSelector, systemObjectLabels(webhook.objectSelector)) !== true) return [];
    for (const [j, rule] of (webhook.rules ?? []).entries()) {
      if (rule === null || rule.scope === 'Cluster') continue;
      if (!(rule.operations ?? []).some((operation) => SYSTEM_OPERATIONS.has(operation))) continue;
      const writable = (rule.resources ?? []).filter((resource) => !CONNECT_SUBRESOURCES.has(resource.split('/')[1] ?? ''));
      // A DELETE-only rule meets only what the system itself deletes there.
      const deleteOnly = (rule.operations ?? []).every((operation) => operation === 'DELETE');
      const match = firstResourceMatch(deleteOnly ? KUBE_SYSTEM_DELETED : KUBE_SYSTEM_WRITTEN, rule.apiGroups ?? [], rule.apiVersions ?? [], writable);
      if (match === undefined) continue;
      // matchConditions that exclude system users or kube-system let those writes through; one that
      // cannot be decided from what is known of them (src/match/system-requests.ts) may call it.
      if (systemRequestOutcome(context, webhook.matchConditions ?? [], match, rule.operations ?? []) === 'skipped') return [];
      return [{ entry, rule: j, match }];
    }
    return [];
  });
}
