import { firstResourceMatch, KUBE_SYSTEM_WRITTEN } from '../src/kube/kube-system-resources.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { systemObjectLabels } from '../src/match/kube-system.js';
import { selectorMatches } from '../src/match/selector.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/recognize.js';
import { systemRequestOutcome } from '../src/match/system-requests.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

const KUBE_SYSTEM = 'kube-system';

/** Operations the system's components perform; CONNECT (exec, attach, port-forward) is people's. */
const SYSTEM_OPERATIONS = new Set(['*', 'CREATE', 'UPDATE', 'DELETE']);
/** Subresources reached only by CONNECT. */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

function describeResource(match: { group: string; resource: string; subresource: string }): string {
  const group = match.group === '' ? 'core' : match.group;
  const resource = match.resource === '*' ? `all ${group} resources` : `${match.resource}${match.subresource ? `/${match.subresource}` : ''} (${group})`;
  return resource;
}

export const rule = defineObjectRule({
  meta: {
    id: 'matches-kube-system',
    title: 'The webhook intercepts the resources that system components write in kube-system',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      fail:
        'webhook "{{webhook}}" intercepts {{resource}} in kube-system with failurePolicy Fail{{defaulted}}: while it is down, the control plane\'s own writes there are rejected, including those that would bring the webhook back',
      ignore:
        'webhook "{{webhook}}" intercepts {{resource}} in kube-system (failurePolicy Ignore): each of the system\'s writes there waits up to {{timeout}}s for it while it is unreachable, and it can deny them',
    },
    help: `Exclude kube-system with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (operator NotIn, values [kube-system]), or narrow the rules to the resources the webhook needs.`,
  },
  check(object, context) {
    const labels = namespaceLabels(context, KUBE_SYSTEM);
    return webhooksOf(object).flatMap((entry) => {
      const { webhook } = entry;
      if (selectorMatches(webhook.namespaceSelector, labels) !== true) return [];
      // An opt-in objectSelector (a label of the webhook's own) exempts the system's objects.
      if (selectorMatches(webhook.objectSelector, systemObjectLabels(webhook.objectSelector)) !== true) return [];
      for (const [j, rule] of (webhook.rules ?? []).entries()) {
        if (rule === null || rule.scope === 'Cluster') continue;
        if (!(rule.operations ?? []).some((operation) => SYSTEM_OPERATIONS.has(operation))) continue;
        const writable = (rule.resources ?? []).filter((entry) => !CONNECT_SUBRESOURCES.has(entry.split('/')[1] ?? ''));
        const match = firstResourceMatch(KUBE_SYSTEM_WRITTEN, rule.apiGroups ?? [], rule.apiVersions ?? [], writable);
        if (match === undefined) continue;
        // matchConditions that exclude system users or kube-system let those writes through.
        if (systemRequestOutcome(webhook.matchConditions ?? [], match, rule.operations ?? []) !== 'called') return [];
        const ignore = webhook.failurePolicy === 'Ignore';
        return [
          {
            messageId: ignore ? ('ignore' as const) : ('fail' as const),
            data: {
              webhook: entry.label,
              resource: describeResource(match),
              timeout: webhook.timeoutSeconds ?? 10,
              defaulted: isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '',
            },
            path: [...entry.path, 'rules', j],
            severity: ignore ? ('warning' as const) : ('error' as const),
          },
        ];
      }
      return [];
    });
  },
});
