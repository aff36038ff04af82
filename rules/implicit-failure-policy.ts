import type { Discovery } from '../src/kube/discovery/discovery.js';
import { settingsApply } from '../src/match/reachability.js';
import type { PolicyObject } from '../src/model/objects.js';
import { isBinding, isPolicyDefaulted, policySpec } from '../src/model/policies.js';
import type { Webhook } from '../src/model/types.js';
import { isDefaulted, isV1beta1, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { joinCapped } from '../src/text/list.js';

type MessageId = 'failDefault' | 'failDefaultNoRules' | 'failDefaultCustom' | 'failDefaultEvictions' | 'ignoreDefault' | 'validatingPolicyDefault' | 'mutatingPolicyDefault';

/**
 * What an omitted (so Fail) policy puts at stake: `custom` when every rule names only groups that
 * no built-in API serves (in any version discovery knows), so an outage blocks writes of those
 * custom resources and nothing else; `noRules` when the rules are filled in at run time;
 * `builtin` otherwise (a built-in group, or `*`).
 */
type Stake = 'builtin' | 'custom' | 'noRules' | 'evictions';

/**
 * Evictions: drains (kubectl drain, node upgrades, cluster-autoscaler, descheduler) make them,
 * never the control plane's own writes, and a drain retries a rejected eviction. (Not exec,
 * attach or port-forward: with Fail and no selector, an outage also locks people out of
 * debugging kube-system and the webhook's own pods.)
 */
const DRAIN_SUBRESOURCES: ReadonlySet<string> = new Set(['pods/eviction']);

function stakeOf(webhook: Readonly<Webhook>, discovery: Discovery): Stake {
  const rules = webhook.rules;
  if (!Array.isArray(rules) || rules.length === 0) return 'noRules';
  const groups = rules.flatMap((rule) => (rule !== null && typeof rule === 'object' ? (rule.apiGroups ?? []) : []));
  if (groups.length === 0) return 'builtin';
  if (groups.every((group) => typeof group === 'string' && group !== '*' && !discovery.isKnownBuiltinGroup(group))) return 'custom';
  const onlyEvictions = rules.every(
    (rule) => rule !== null && typeof rule === 'object' && (rule.apiGroups ?? []).every((group) => group === '') && (rule.resources ?? []).length > 0 && (rule.resources ?? []).every((resource) => DRAIN_SUBRESOURCES.has(resource)),
  );
  return onlyEvictions ? 'evictions' : 'builtin';
}

/** `webhook "a"`, or `webhooks "a", "b" and 3 more`, with the verb that agrees. */
function which(entries: readonly WebhookEntry[]): { which: string; does: string } {
  if (entries.length === 1) return { which: `webhook "${entries[0]!.label}"`, does: 'does' };
  return { which: `webhooks ${joinCapped(entries.map((entry) => `"${entry.label}"`), 2, { width: 50 })}`, does: 'do' };
}

const CUSTOM_HELP =
  'Every rule names only groups no built-in API serves: while the webhook is down, writes of those custom resources are rejected and nothing else, which is what a validator or defaulter of them usually wants. Write failurePolicy: Fail to record the choice, or Ignore if unchecked objects are acceptable.';
const EVICTIONS_HELP =
  'Every rule names only pod evictions, which drains make (kubectl drain, node upgrades, cluster-autoscaler, descheduler), never the control plane\'s own writes. While the webhook is down, evictions are rejected and drains stall and retry until it is back, which is often what an eviction gate wants; a gate that runs on the nodes it drains needs a second replica elsewhere (and a PodDisruptionBudget) to get through its own eviction. Write failurePolicy: Fail to record the choice, or Ignore if unchecked evictions are acceptable.';
const NO_RULES_HELP =
  'The rules are not in the file (a controller fills them in at run time), so what an outage blocks cannot be judged here. With Fail, every request the webhook matches is rejected while it is down, slow or presents a bad certificate; with Ignore, admitted unchecked. Write the policy you chose.';

/** What Fail does with a policy's errors, for its help. */
const POLICY_CONSEQUENCE = {
  validating: 'With Fail, an expression that errors at run time (on an object that lacks a field, say) counts as a failed validation, which bindings with Deny reject',
  mutating: 'With Fail, a mutation or matchCondition that errors at run time (on an object that lacks a field, say) rejects the request',
} as const;

const PARAMS = {
  validating: "; and a param that a binding with parameterNotFoundAction Deny cannot find rejects the request whatever the binding's validationActions",
  mutating: ', and so does a param that a binding with parameterNotFoundAction Deny cannot find',
} as const;

/** Policies (not bindings: they have no failurePolicy) that leave spec.failurePolicy to the API default, Fail in every version. */
function checkPolicyObject(object: PolicyObject): Violation<MessageId>[] {
  if (isBinding(object) || policySpec(object) === undefined) return [];
  if (!isPolicyDefaulted(object, ['spec', 'failurePolicy'])) return [];
  const params = policySpec(object)?.paramKind != null;
  return [
    {
      messageId: object.kind === 'MutatingAdmissionPolicy' ? 'mutatingPolicyDefault' : 'validatingPolicyDefault',
      data: {
        policy: object.name ?? '(unnamed)',
        params: params ? PARAMS[object.kind === 'MutatingAdmissionPolicy' ? 'mutating' : 'validating'] : '',
      },
      path: ['spec', 'failurePolicy'],
      // In-process: no endpoint to be down. Fail only decides what an expression error or a
      // missing param does, and failing closed on those is the safe reading of a policy.
      severity: 'info',
      help: `${object.kind === 'MutatingAdmissionPolicy' ? POLICY_CONSEQUENCE.mutating : POLICY_CONSEQUENCE.validating}${params ? PARAMS[object.kind === 'MutatingAdmissionPolicy' ? 'mutating' : 'validating'] : ''}. Write failurePolicy: Fail or failurePolicy: Ignore, having decided what an expression that errors should do: reject the request, or let it through unchecked.`,
    },
  ];
}

const STAKE_MESSAGE: Readonly<Record<Stake, MessageId>> = { builtin: 'failDefault', custom: 'failDefaultCustom', noRules: 'failDefaultNoRules', evictions: 'failDefaultEvictions' };

export const rule = defineObjectRule({
  meta: {
    id: 'implicit-failure-policy',
    title: 'failurePolicy is omitted, so the API default (Fail in v1) decides what an outage or an error does',
    aboutCalls: true,
    aboutSettings: true,
    severity: 'warning',
    appliesTo: [...ALL_WEBHOOK_KINDS, 'ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'],
    messages: {
      failDefault:
        '{{which}} {{does}} not set failurePolicy: the API default is Fail, on built-in resources',
      failDefaultNoRules:
        '{{which}} {{does}} not set failurePolicy: the API default is Fail, for rules filled in at run time',
      failDefaultCustom:
        '{{which}} {{does}} not set failurePolicy: the API default is Fail, on custom resources only',
      failDefaultEvictions:
        '{{which}} {{does}} not set failurePolicy: the API default is Fail, on pod evictions only',
      ignoreDefault:
        '{{which}} {{does}} not set failurePolicy: the v1beta1 default is Ignore (v1 defaults to Fail)',
      validatingPolicyDefault:
        'ValidatingAdmissionPolicy "{{policy}}" does not set failurePolicy: the API default is Fail',
      mutatingPolicyDefault:
        'MutatingAdmissionPolicy "{{policy}}" does not set failurePolicy: the API default is Fail',
    },
    help: 'With Fail, every request the webhook matches is rejected while it is down, slow or presents a bad certificate; with Ignore (the v1beta1 default), those requests are admitted unchecked. Write failurePolicy: Fail or failurePolicy: Ignore, having decided which outage you prefer: blocked writes or unchecked ones.',
  },
  create(run) {
    return {
      policy: checkPolicyObject,
      webhookConfiguration(object) {
        // One cause, one finding: the webhooks of a configuration that omit the field for the
        // same stake are reported together, at the first of them.
        const groups = new Map<MessageId, WebhookEntry[]>();
        for (const entry of webhooksOf(object)) {
          if (!isDefaulted(object, [...entry.path, 'failurePolicy'])) continue;
          // Only webhooks that are called (or whose rules a controller fills in): the engine drops the others.
          if (!settingsApply(object, entry, run)) continue;
          const messageId: MessageId = isV1beta1(object) ? 'ignoreDefault' : STAKE_MESSAGE[stakeOf(entry.webhook, run.discovery)];
          groups.set(messageId, [...(groups.get(messageId) ?? []), entry]);
        }
        return [...groups].map(([messageId, entries]) => ({
          messageId,
          data: which(entries),
          path: [...entries[0]!.path, 'failurePolicy'],
          alsoAt: entries.slice(1).map((entry) => [...entry.path, 'failurePolicy']),
          ...(messageId === 'failDefaultCustom' ? { severity: 'info' as const, help: CUSTOM_HELP } : {}),
          ...(messageId === 'failDefaultEvictions' ? { severity: 'info' as const, help: EVICTIONS_HELP } : {}),
          ...(messageId === 'failDefaultNoRules' ? { help: NO_RULES_HELP } : {}),
        }));
      },
    };
  },
});
