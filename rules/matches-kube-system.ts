import { firstResourceMatch, KUBE_SYSTEM_WRITTEN } from '../src/kube/builtin-resources.js';
import { isEmptySelector, selectorMatches } from '../src/match/selector.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/recognize.js';
import type { LabelSelector, Webhook } from '../src/model/types.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext } from '../src/rule.js';

const KUBE_SYSTEM = 'kube-system';

/** kube-system's labels: the API server's name label plus whatever a manifest in the run adds. */
export function kubeSystemLabels(context: RuleContext): Record<string, string> {
  const manifest = context.namespaces.find((namespace) => namespace.name === KUBE_SYSTEM);
  return { ...(manifest?.labels ?? {}), [NAMESPACE_NAME_LABEL]: KUBE_SYSTEM };
}

/**
 * An objectSelector that requires a label to be present (matchLabels, In, Exists) is opt-in:
 * the system's own objects do not carry the webhook's opt-in label.
 */
function isOptIn(selector: LabelSelector | undefined): boolean {
  if (isEmptySelector(selector)) return false;
  if (Object.keys(selector?.matchLabels ?? {}).length > 0) return true;
  return (selector?.matchExpressions ?? []).some((requirement) => requirement.operator === 'In' || requirement.operator === 'Exists');
}

/** matchConditions that name kube-system or system identities may already exclude that traffic. */
function conditionsMayExcludeSystem(webhook: Readonly<Webhook>): boolean {
  return (webhook.matchConditions ?? []).some((condition) => /kube-system|system:/.test(condition?.expression ?? ''));
}

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
    const labels = kubeSystemLabels(context);
    return webhooksOf(object).flatMap((entry) => {
      const { webhook } = entry;
      if (selectorMatches(webhook.namespaceSelector, labels) !== true) return [];
      if (isOptIn(webhook.objectSelector) || conditionsMayExcludeSystem(webhook)) return [];
      for (const [j, rule] of (webhook.rules ?? []).entries()) {
        if (rule === null || rule.scope === 'Cluster') continue;
        const match = firstResourceMatch(KUBE_SYSTEM_WRITTEN, rule.apiGroups ?? [], rule.apiVersions ?? [], rule.resources ?? []);
        if (match === undefined || (rule.operations ?? []).length === 0) continue;
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
