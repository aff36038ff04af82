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
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type RuleMeta } from '../src/rule.js';
import { CLIENT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from '../src/model/types.js';
import { joinCapped } from '../src/text/list.js';

interface Hook extends CandidateHook {
  /** Seconds this webhook can add to one request. */
  readonly cost: number;
  readonly timeout: number;
  readonly reinvoked: boolean;
}

interface OverBudget {
  /** In calling order. */
  readonly hooks: readonly Hook[];
  readonly total: number;
  readonly mutatingSum: number;
  readonly validatingMax: number;
  readonly request: BaseRequest;
  readonly namespace: string | null;
}

const FIX = 'Lower the timeoutSeconds of these webhooks (a few seconds each), or narrow their rules and selectors so that fewer of them match the same request.';

const meta = {
  id: 'timeout-budget',
  title: 'Webhooks that match the same request add up to more than the latency budget',
  aboutCalls: true,
  severity: 'warning',
  appliesTo: ALL_WEBHOOK_KINDS,
  messages: {
    overBudget: '{{webhooks}} can make {{request}} wait {{total}}s (budget {{budget}}s)',
  },
  help: `While the webhooks are slow or unreachable, the mutating ones add up (one after another, twice with reinvocationPolicy IfNeeded) and the validating ones run in parallel (admission-lint simulate lists them for a request). ${FIX}`,
  options: {
    budgetSeconds: {
      type: 'number',
      default: 30,
      minimum: 1,
      loosensAbove: {},
      description: 'Report requests whose worst-case admission latency is above this many seconds.',
    },
  },
} satisfies RuleMeta;

function collectHooks(objects: readonly WebhookConfigurationObject[]): Hook[] {
  // An object the API server rejects for its timeouts (timeout-out-of-range) never runs.
  const accepted = objects.filter(
    (object) => object.decodable && !webhooksOf(object).some(({ webhook }) => typeof webhook.timeoutSeconds === 'number' && (webhook.timeoutSeconds < MIN_TIMEOUT_SECONDS || webhook.timeoutSeconds > MAX_TIMEOUT_SECONDS)),
  );
  return inCallingOrder(
    webhooksWithRules(accepted).map(({ object, entry }): Hook => {
      const timeout = typeof entry.webhook.timeoutSeconds === 'number' ? entry.webhook.timeoutSeconds : 10;
      const reinvoked = entry.mutating && entry.webhook.reinvocationPolicy === 'IfNeeded';
      return { object, entry, order: 0, timeout, reinvoked, cost: reinvoked ? 2 * timeout : timeout };
    }),
  );
}

/** What one configuration's webhooks cost a request: mutating ones add up, validating ones run in parallel. */
function configurationCost(hooks: readonly Hook[]): number {
  return hooks[0]!.entry.mutating ? hooks.reduce((sum, h) => sum + h.cost, 0) : hooks.reduce((max, h) => Math.max(max, h.cost), 0);
}

function latency(hooks: readonly Hook[]): { mutatingSum: number; validatingMax: number; total: number } {
  const mutatingSum = hooks.filter((hook) => hook.entry.mutating).reduce((sum, hook) => sum + hook.cost, 0);
  const validatingMax = Math.max(0, ...hooks.filter((hook) => !hook.entry.mutating).map((hook) => hook.cost));
  return { mutatingSum, validatingMax, total: mutatingSum + validatingMax };
}

/**
 * The costliest set of webhooks that one object can meet at once (coCalledSets), of each
 * group of alternative configurations the costlier one; on a tie, the larger set.
 */
function worstCase(sure: readonly Hook[], open: readonly Hook[]): Hook[] {
  let best: Hook[] = [];
  let bestTotal = -1;
  for (const set of coCalledSets(sure, open)) {
    const hooks = withoutAlternatives(set, configurationCost);
    const { total } = latency(hooks);
    if (total > bestTotal || (total === bestTotal && hooks.length > best.length)) {
      best = hooks;
      bestTotal = total;
    }
  }
  return best;
}

interface Analysis {
  readonly byObject: Map<WebhookConfigurationObject, OverBudget[]>;
}

function analyse(run: RuleRun, budget: number): Analysis {
  const hooks = collectHooks(run.webhookConfigurations);
  const byObject = new Map<WebhookConfigurationObject, OverBudget[]>();
  // Latency only grows with the set of webhooks called: when all of them together stay within
  // the budget, no request can exceed it, and the request-by-request analysis is not needed
  // (a small run, a pre-commit hook on a few files).
  if (!(latency(hooks).total > budget)) return { byObject };
  const over: OverBudget[] = [];
  const seen = new Set<string>();
  for (const { request, namespace, sure, open } of candidateMatches(hooks, run)) {
    const called = worstCase(sure, open);
    if (called.length < 2) continue;
    const key = called.map((hook) => hook.order).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const { mutatingSum, validatingMax, total } = latency(called);
    if (!(total > budget)) continue;
    over.push({ hooks: called, total, mutatingSum, validatingMax, request, namespace });
  }
  // A set inside a larger set that is over budget too is not reported on its own: the latency
  // only grows with the set, so whatever brings the larger one under budget brings it under too.
  for (const set of maximalSets(over)) {
    const first = set.hooks[0]!;
    byObject.set(first.object, [...(byObject.get(first.object) ?? []), set]);
  }
  return { byObject };
}

/** The webhooks' names in calling order (with the configuration's name where two share one). */
function hookNames(hooks: readonly Hook[]): string[] {
  const names = hooks.map((hook) => `${hook.object.kind}/${hook.entry.label}`);
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return hooks.map((hook, i) => {
    const duplicate = counts.get(names[i]!)! > 1;
    return `"${duplicate ? `${hook.object.name ?? ''}/${hook.entry.label}` : hook.entry.label}"`;
  });
}

/** The webhooks shown with their costs in the help; `admission-lint simulate` shows them all. */
const COSTS_SHOWN = 8;

/** The webhooks in calling order with what each can cost, for the help. */
function describeCosts(hooks: readonly Hook[]): string {
  const names = hookNames(hooks);
  const shown = hooks.slice(0, COSTS_SHOWN).map((hook, i) => {
    const kind = hook.entry.mutating ? 'mutating' : 'validating';
    const cost = hook.reinvoked ? `2 × ${hook.timeout}s, reinvocationPolicy IfNeeded` : `${hook.timeout}s`;
    return `${names[i]!} (${kind}, ${cost})`;
  });
  const rest = hooks.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/**
 * A warning only where the webhooks that fail open (Ignore) add up past the budget on their own:
 * their authors meant a slow webhook to be skipped, yet the request times out anyway. Under Fail,
 * the first webhook that times out rejects the request, so the sum is reached only when each
 * answers just before its timeout: info. Where one Ignore webhook is already as long as the client
 * timeout, long-timeout reports that cause (when it runs) and this stays info.
 */
function severityOf(overBudget: OverBudget, budget: number, run: RuleRun): 'warning' | 'info' {
  const failOpen = overBudget.hooks.filter((hook) => hook.entry.webhook.failurePolicy === 'Ignore');
  if (!(latency(failOpen).total > budget)) return 'info';
  const reportedAlone = run.isEnabled('long-timeout') && failOpen.some((hook) => hook.timeout >= CLIENT_TIMEOUT_SECONDS);
  return reportedAlone ? 'info' : 'warning';
}

export const rule = defineObjectRule({
  meta,
  create(run) {
    const budget = run.options.budgetSeconds;
    /** One analysis per run: every object's check reads it. */
    let analysis: Analysis | undefined;
    return {
      webhookConfiguration(object) {
        analysis ??= analyse(run, budget);
        const found = analysis.byObject.get(object) ?? [];
        return found.map((overBudget) => ({
          messageId: 'overBudget' as const,
          severity: severityOf(overBudget, budget, run),
          data: {
            count: overBudget.hooks.length,
            request: describeRequest(overBudget.request, overBudget.namespace),
            webhooks: joinCapped(hookNames(overBudget.hooks), 2, { width: 40 }),
            total: overBudget.total,
            mutating: overBudget.mutatingSum,
            validating: overBudget.validatingMax,
            budget,
          },
          path: overBudget.hooks[0]!.entry.path,
          // The webhooks and their costs: what the message leaves out to stay one line.
          help: `Worst case ${overBudget.total}s: ${overBudget.mutatingSum}s for the mutating webhooks one after another, then ${overBudget.validatingMax}s for the validating ones in parallel; the ${overBudget.hooks.length} webhooks in calling order: ${describeCosts(overBudget.hooks)}. ${FIX}`,
        }));
      },
    };
  },
});
