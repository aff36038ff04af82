import {
  candidateMatches,
  coCalledSets,
  describeRequest,
  inCallingOrder,
  maximalSets,
  webhooksWithRules,
  withoutAlternatives,
  type BaseRequest,
  type CandidateHook,
} from '../src/match/candidates.js';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { isDefaulted } from '../src/model/webhooks.js';
import { defineObjectRule, type RuleRun, type RuleMeta, type Violation } from '../src/rule.js';
import { joinCapped } from '../src/text/list.js';

type MessageId = 'blindOne' | 'blindMany';

/** Two or more mutating webhooks one object can meet, in calling order. */
interface OrderedSet {
  readonly hooks: readonly CandidateHook[];
  readonly request: BaseRequest;
  readonly namespace: string | null;
  /** Other sets that start with the same webhook, folded into this finding. */
  readonly others: number;
}

const FIX =
  "Do not rely on this order: give a webhook that must see the others' changes reinvocationPolicy IfNeeded (with an idempotent patch), and check the final object with a validating webhook or a ValidatingAdmissionPolicy, which run after all mutations.";

const meta = {
  id: 'mutator-ordering',
  title: 'Several mutating webhooks can match one request: their order decides what each one sees',
  aboutCalls: true,
  severity: 'info',
  appliesTo: ['MutatingWebhookConfiguration'],
  messages: {
    blindOne: '{{blind}} is not reinvoked after later mutations of {{request}}',
    blindMany: '{{blind}} are not reinvoked after later mutations of {{request}}',
  },
  help: `The API server calls the mutating webhooks that match a request one after another (by configuration name, then list order), and one with reinvocationPolicy Never only once: it never sees what the webhooks after it change (admission-lint simulate shows the order for a request). ${FIX}`,
} satisfies RuleMeta<MessageId>;

/** Only writes that carry an object to patch: DELETE has none, CONNECT carries the connection's options. */
const OBJECT_OPERATIONS = new Set(['CREATE', 'UPDATE']);

/** JSON with sorted keys, to compare parts of two webhooks. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What decides which requests a webhook gets, with its name: equal for two copies of one webhook. */
function identity(hook: CandidateHook, identities: Map<CandidateHook, string>): string {
  let key = identities.get(hook);
  if (key === undefined) {
    const { name, rules, namespaceSelector, objectSelector, matchPolicy, matchConditions } = hook.entry.webhook;
    key = canonical({ name, rules, namespaceSelector, objectSelector, matchPolicy, matchConditions });
    identities.set(hook, key);
  }
  return key;
}

/**
 * Drops the later copies of a webhook: a webhook of another configuration with the same name
 * that matches exactly the same requests (a revision alias installed next to the revision it
 * points at, which the installer deactivates; a configuration renamed by an upgrade and left
 * behind). That is one webhook installed twice, not an order.
 */
function withoutCopies(hooks: readonly CandidateHook[], identities: Map<CandidateHook, string>): CandidateHook[] {
  const kept: CandidateHook[] = [];
  const seen = new Map<string, WebhookConfigurationObject>();
  // The identity includes the name: a hook whose name no other hook of the set has is no copy (and has no copy).
  const names = new Map<string | null, number>();
  for (const hook of hooks) names.set(hook.entry.webhook.name ?? null, (names.get(hook.entry.webhook.name ?? null) ?? 0) + 1);
  for (const hook of hooks) {
    if (names.get(hook.entry.webhook.name ?? null) === 1) {
      kept.push(hook);
      continue;
    }
    const key = identity(hook, identities);
    const first = seen.get(key);
    if (first !== undefined && first !== hook.object) continue;
    seen.set(key, hook.object);
    kept.push(hook);
  }
  return kept;
}

const reinvoked = (hook: CandidateHook): boolean => hook.entry.webhook.reinvocationPolicy === 'IfNeeded';

/** The webhooks of the set that run before another one of it and are not reinvoked. */
function blindHooks(hooks: readonly CandidateHook[]): CandidateHook[] {
  return hooks.slice(0, -1).filter((hook) => !reinvoked(hook));
}

function analyse(run: RuleRun): Map<WebhookConfigurationObject, OrderedSet[]> {
  const mutating = run.webhookConfigurations.filter((object) => object.kind === 'MutatingWebhookConfiguration');
  const hooks = inCallingOrder(webhooksWithRules(mutating).map(({ object, entry }): CandidateHook => ({ object, entry, order: 0 })));
  const sets: OrderedSet[] = [];
  const seen = new Set<string>();
  /** Each hook's identity, computed once for the analysis. */
  const identities = new Map<CandidateHook, string>();
  for (const { request, namespace, sure, open } of candidateMatches(hooks, run, { requests: (request) => OBJECT_OPERATIONS.has(request.operation) })) {
    for (const set of coCalledSets(sure, open)) {
      // Of alternative configurations (same name), the one with more webhooks here; no copies.
      const called = withoutCopies(withoutAlternatives(set, (ofOne) => ofOne.length), identities);
      if (called.length < 2) continue;
      const key = called.map((hook) => hook.order).join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      sets.push({ hooks: called, request, namespace, others: 0 });
    }
  }
  // A set inside a larger one is not reported on its own; a set in which every webhook but the
  // last is reinvoked (IfNeeded) is not reported: each of them sees the others' changes. Sets
  // that start with the same webhook become one finding there (a catch-all mutator meets every
  // other mutator, one set each): the largest set is shown, the others counted.
  const byFirst = new Map<CandidateHook, OrderedSet[]>();
  for (const set of maximalSets(sets)) {
    if (blindHooks(set.hooks).length === 0) continue;
    const first = set.hooks[0]!;
    byFirst.set(first, [...(byFirst.get(first) ?? []), set]);
  }
  const byObject = new Map<WebhookConfigurationObject, OrderedSet[]>();
  for (const [first, group] of byFirst) {
    const largest = group.reduce((best, set) => (set.hooks.length > best.hooks.length ? set : best));
    byObject.set(first.object, [...(byObject.get(first.object) ?? []), { ...largest, others: group.length - 1 }]);
  }
  return byObject;
}

const nameOf = (hook: CandidateHook): string => `"${hook.object.name ?? ''}/${hook.entry.label}"`;

/**
 * The webhook's name, with its configuration's when another webhook of the set has the same name
 * (not for the first, where the finding is: its place says which it is).
 */
function shortName(hook: CandidateHook, hooks: readonly CandidateHook[]): string {
  const clash = hook !== hooks[0] && hooks.some((other) => other !== hook && other.entry.label === hook.entry.label);
  return clash ? nameOf(hook) : `"${hook.entry.label}"`;
}

/** The webhooks of the set shown in the help, in calling order; `admission-lint simulate` shows them all. */
const ORDER_SHOWN = 8;

/** The set in calling order with each webhook's reinvocationPolicy, for the help. */
function describeHooks(hooks: readonly CandidateHook[]): string {
  const shown = hooks.slice(0, ORDER_SHOWN).map((hook, i) => {
    const policy = reinvoked(hook) ? 'IfNeeded' : isDefaulted(hook.object, [...hook.entry.path, 'reinvocationPolicy']) ? 'Never, the API default' : 'Never';
    return `${i + 1}. ${nameOf(hook)} (${policy})`;
  });
  const rest = hooks.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

export const rule = defineObjectRule({
  meta,
  create(run) {
    /** One analysis per run: every object's check reads it. */
    let analysis: Map<WebhookConfigurationObject, OrderedSet[]> | undefined;
    return {
      webhookConfiguration(object) {
        analysis ??= analyse(run);
        return (analysis.get(object) ?? []).map((set): Violation<MessageId> => {
          const blind = blindHooks(set.hooks);
          return {
            messageId: blind.length === 1 ? 'blindOne' : 'blindMany',
            data: {
              count: set.hooks.length,
              request: describeRequest(set.request, set.namespace),
              blind: joinCapped(blind.map((hook) => shortName(hook, set.hooks)), 2, { width: 40 }),
            },
            path: set.hooks[0]!.entry.path,
            // The whole set, in order: what the message leaves out to stay one line.
            help: `The API server calls these ${set.hooks.length} mutating webhooks in this order (by configuration name, then list order): ${describeHooks(set.hooks)}; one with reinvocationPolicy Never is not called again when a webhook after it changes the object${
              set.others === 0 ? '' : ` (and ${set.others} other combination${set.others === 1 ? '' : 's'} of mutating webhooks that start with the same webhook)`
            }. ${FIX}`,
          };
        });
      },
    };
  },
});
