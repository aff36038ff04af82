/**
 * A validating webhook's objectSelector reads labels that the requester writes. An opt-out
 * (`NotIn`, `DoesNotExist`) is a switch whoever writes the object can flip to skip the check.
 * Who that is decides the severity: for built-in namespaced resources (pods, secrets, …) it is
 * any namespace user with write access (the default `edit` role): a warning that says so. For
 * cluster-scoped objects only cluster-level users write them, and for custom resources only, the
 * check is the project's own correctness check, not a security control over built-ins: info.
 * An opt-in (matchLabels, `In`, `Exists`) scopes the check to labelled objects, which is how a
 * controller validates its own objects; the manifest cannot show whether unlabelled ones
 * matter, so it is an info that says what the scope is.
 *
 * A `NotIn` whose values are the label value by which the webhook's own Service (in the run,
 * src/match/services.ts) selects its pods is the self-exemption that keeps the webhook from
 * blocking its own pods: written on purpose, and the message says so. Under Ignore (a best-effort
 * webhook) that is an info; under Fail it stays a warning: the same label on any pod skips a
 * fail-closed control, and excluding the webhook's namespace does the same job without a bypass.
 */
import type { Discovery } from '../src/kube/discovery/discovery.js';
import { selectorKeys } from '../src/match/selector.js';
import { webhookServices, type ServiceScope } from '../src/match/services.js';
import { entryTargets } from '../src/match/targets.js';
import type { Webhook } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { defineObjectRule, type Violation } from '../src/rule.js';
import { elideMiddle } from '../src/text/list.js';

type MessageId = 'optOut' | 'optOutClusterScoped' | 'optOutCustom' | 'optIn' | 'selfExemption';

/**
 * The webhook's own Service (`namespace/name`) when a `NotIn` requirement on `key` skips exactly
 * the pods it selects: every copy of the Service in the run selects by `key`, and the values are
 * the ones they select by (none besides). Undefined otherwise (no such Service in the run, or a
 * value that skips other objects too).
 */
function selfExempted(scope: ServiceScope, webhook: Readonly<Webhook>, key: string, values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const found = webhookServices(scope, webhook);
  if (found === undefined) return undefined;
  const own = found.services.map((service) => service.selector?.[key]);
  if (own.some((value) => value === undefined)) return undefined;
  if (!values.every((value) => typeof value === 'string' && own.includes(value))) return undefined;
  return `${found.reference.namespace}/${found.reference.name}`;
}

/**
 * Who writes the objects the webhook checks: `namespaced` when a rule can match a built-in
 * namespaced resource (or `*`), `cluster` when every target is cluster-scoped, `custom` when the
 * rest are custom resources (groups no built-in API serves).
 */
type Writers = 'namespaced' | 'cluster' | 'custom';

function writersOf(webhook: Readonly<Webhook>, discovery: Discovery): Writers {
  let custom = false;
  for (const rule of webhook.rules ?? []) {
    if (rule === null || typeof rule !== 'object') continue;
    for (const group of rule.apiGroups ?? []) {
      if (group === '*') return 'namespaced';
      const builtin = discovery.isKnownBuiltinGroup(group);
      for (const entry of rule.resources ?? []) {
        if (typeof entry !== 'string') continue;
        if (builtin && entry.startsWith('*')) return 'namespaced';
        const targets = entryTargets(discovery, { ...rule, apiGroups: [group] }, entry);
        // A built-in group's resources are all known: an entry that names none of them matches
        // nothing there. A custom resource whose CRD is not in the run may be namespaced.
        const namespaced = targets.length === 0 ? !builtin : targets.some((target) => target.info.namespaced);
        if (!namespaced) continue;
        if (builtin) return 'namespaced';
        custom = true;
      }
    }
  }
  return custom ? 'custom' : 'cluster';
}

const SELF_EXEMPTION_HELP =
  'The label keeps the webhook from blocking its own pods, but any pod labelled so skips the check too. Exempt the webhook\'s namespace instead, by a label no namespace user can set: namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [<its namespace>]}]}.';

const OPT_OUT: Readonly<Record<Writers, MessageId>> = { namespaced: 'optOut', cluster: 'optOutClusterScoped', custom: 'optOutCustom' };

export const rule = defineObjectRule({
  meta: {
    id: 'editable-object-selector',
    title: 'A validating webhook has an objectSelector: the requester writes the labels and can opt out',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ['ValidatingWebhookConfiguration'],
    messages: {
      optOut: 'objectSelector of webhook "{{webhook}}" skips objects by label "{{key}}" ({{operator}}): namespace users writing them can set it',
      optOutClusterScoped: 'objectSelector of webhook "{{webhook}}" skips objects by label "{{key}}" ({{operator}}), on cluster-scoped objects only',
      optOutCustom: 'objectSelector of webhook "{{webhook}}" skips custom resources by "{{key}}" ({{operator}})',
      optIn: 'objectSelector of webhook "{{webhook}}" checks only objects labelled "{{key}}" ({{operator}})',
      selfExemption: 'webhook "{{webhook}}" skips "{{key}}" (NotIn) to exempt the pods of its own Service {{service}}; any pod can carry it',
    },
    help: 'The requester writes the object\'s labels: with an opt-out selector (NotIn, DoesNotExist) whoever writes an object can set its label to skip the check (for built-in namespaced resources, any namespace user with the edit role; for cluster-scoped objects, only cluster-level users); with an opt-in one (In, Exists, matchLabels) objects without the label are not checked. Drop the objectSelector and decide inside the webhook (or with matchConditions on fields the requester cannot choose, such as request.userInfo).',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        return webhooksOf(object).flatMap((entry) => {
          const at = [...entry.path, 'objectSelector'];
          const selector = entry.webhook.objectSelector;
          let writers: Writers | undefined;
          return selectorKeys(selector).map(({ key, where }): Violation<MessageId> => {
            const operator = where[0] === 'matchLabels' ? 'matchLabels' : String(selector?.matchExpressions?.[where[1]]?.operator ?? '');
            const optOut = operator === 'NotIn' || operator === 'DoesNotExist';
            if (optOut) writers ??= writersOf(entry.webhook, run.discovery);
            const optOutId = optOut ? OPT_OUT[writers!] : 'optIn';
            // A self-exemption: said so; an info for a best-effort (Ignore) webhook, a warning under Fail.
            const own = optOutId === 'optOut' && operator === 'NotIn' ? selfExempted(run, entry.webhook, key, selector?.matchExpressions?.[where[1] as number]?.values) : undefined;
            const messageId: MessageId = own === undefined ? optOutId : 'selfExemption';
            const warns = messageId === 'optOut' || (messageId === 'selfExemption' && entry.webhook.failurePolicy !== 'Ignore');
            return {
              messageId,
              data: { webhook: entry.label, key, operator, ...(own === undefined ? {} : { service: elideMiddle(own, 36) }) },
              path: where[0] === 'matchLabels' ? [...at, 'matchLabels'] : [...at, ...where],
              locateAt: [...at, ...where],
              ...(warns ? {} : { severity: 'info' as const }),
              ...(own === undefined ? {} : { help: SELF_EXEMPTION_HELP }),
            };
          });
        });
      },
    };
  },
});
