import type { Discovery } from '../src/kube/discovery/discovery.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { matchingRule, matchWebhook, type AdmissionRequest, type Operation } from '../src/match/request.js';
import { selectorMatches, type Labels } from '../src/match/selector.js';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext, type RuleMeta } from '../src/rule.js';
import { MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from './timeout-out-of-range.js';

/** A namespace without labels (but its name label), for requests in namespaces the run does not describe. */
export const UNLABELLED_NAMESPACE = 'unlabelled-namespace';
/** At most this many of the run's Namespaces are tried (plus the unlabelled one). */
export const MAX_NAMESPACES = 100;

/** Subresources written with CREATE; other subresources (but the CONNECT and read-only ones) are updated. */
const CREATE_SUBRESOURCES = new Set(['binding', 'eviction', 'token']);
/** Subresources that are only read (GET), which never reach admission. */
const READ_ONLY_SUBRESOURCES = new Set(['log']);

interface Hook {
  readonly object: WebhookConfigurationObject;
  readonly entry: WebhookEntry;
  /** Position in the API server's calling order: mutating before validating, by configuration name, then list order. */
  order: number;
  /** Seconds this webhook can add to one request. */
  readonly cost: number;
  readonly timeout: number;
  readonly reinvoked: boolean;
}

interface BaseRequest {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** 'namespaced' requests are tried in every namespace; 'namespace' is the Namespace object itself. */
  readonly scope: 'cluster' | 'namespaced' | 'namespace';
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

const meta = {
  id: 'timeout-budget',
  title: 'Webhooks that match the same request add up to more than the latency budget',
  severity: 'warning',
  appliesTo: ALL_WEBHOOK_KINDS,
  messages: {
    overBudget:
      '{{count}} webhooks can all be called for {{request}}: {{webhooks}}; while they are slow or unreachable that request can wait {{total}}s (mutating webhooks one after another: {{mutating}}s, then validating webhooks in parallel: {{validating}}s), above the budget of {{budget}}s',
  },
  help: 'Lower the timeoutSeconds of these webhooks (a few seconds each), or narrow their rules and selectors so that fewer of them match the same request.',
  options: {
    budgetSeconds: {
      type: 'number',
      default: 30,
      minimum: 1,
      description: 'Report requests whose worst-case admission latency is above this many seconds.',
    },
  },
} satisfies RuleMeta;

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function collectHooks(objects: readonly WebhookConfigurationObject[]): Hook[] {
  const hooks: Hook[] = [];
  for (const object of objects) {
    // An object the API server rejects for its timeouts (timeout-out-of-range) never runs.
    if (!object.decodable || webhooksOf(object).some(({ webhook }) => typeof webhook.timeoutSeconds === 'number' && (webhook.timeoutSeconds < MIN_TIMEOUT_SECONDS || webhook.timeoutSeconds > MAX_TIMEOUT_SECONDS))) continue;
    for (const entry of webhooksOf(object)) {
      if ((entry.webhook.rules ?? []).length === 0) continue;
      const timeout = typeof entry.webhook.timeoutSeconds === 'number' ? entry.webhook.timeoutSeconds : 10;
      const reinvoked = entry.mutating && entry.webhook.reinvocationPolicy === 'IfNeeded';
      hooks.push({ object, entry, order: 0, timeout, reinvoked, cost: reinvoked ? 2 * timeout : timeout });
    }
  }
  // The API server sorts configurations by name (Go string order, stable) and keeps list order inside each.
  const sorted = hooks
    .map((hook, i) => ({ hook, i }))
    .sort(
      (a, b) =>
        Number(!a.hook.entry.mutating) - Number(!b.hook.entry.mutating) ||
        compareNames(a.hook.object.name ?? '', b.hook.object.name ?? '') ||
        a.i - b.i,
    );
  sorted.forEach(({ hook }, order) => {
    hook.order = order;
  });
  return sorted.map(({ hook }) => hook);
}

function operationsFor(subresource: string, connect: ReadonlySet<string>): readonly Operation[] {
  if (subresource === '') return ['CREATE', 'UPDATE', 'DELETE'];
  if (connect.has(subresource)) return ['CONNECT'];
  if (READ_ONLY_SUBRESOURCES.has(subresource)) return [];
  return CREATE_SUBRESOURCES.has(subresource) ? ['CREATE'] : ['UPDATE'];
}

/** Every request the run's webhooks can be asked about: discovery's resources, plus resources the rules name that discovery does not know. */
function candidateRequests(hooks: readonly Hook[], discovery: Discovery): BaseRequest[] {
  const requests: BaseRequest[] = [];
  const seen = new Set<string>();
  const add = (request: BaseRequest): void => {
    const key = [request.operation, request.group, request.version, request.resource, request.subresource, request.scope].join('\u0000');
    if (seen.has(key)) return;
    seen.add(key);
    requests.push(request);
  };
  const scopeOf = (group: string, resource: string, namespaced: boolean): BaseRequest['scope'] =>
    group === '' && resource === 'namespaces' ? 'namespace' : namespaced ? 'namespaced' : 'cluster';
  for (const info of discovery.allResources()) {
    for (const subresource of ['', ...info.subresources]) {
      for (const operation of operationsFor(subresource, info.connect)) {
        add({ operation, group: info.group, version: info.version, resource: info.resource, subresource, scope: scopeOf(info.group, info.resource, info.namespaced) });
      }
    }
  }
  // Named resources that discovery does not know (custom resources without their CRD in the run): both scopes.
  for (const hook of hooks) {
    for (const rule of hook.entry.webhook.rules ?? []) {
      if (rule === null) continue;
      for (const group of rule.apiGroups ?? []) {
        // Any version stands for all of them: the other rules' named versions are tried on their own.
        for (const version of (rule.apiVersions ?? []).map((v) => (v === '*' ? 'v1' : v))) {
          if (group === '*') continue;
          for (const entry of rule.resources ?? []) {
            const [resource = '', subresource = ''] = entry.split(/\/(.*)/s);
            if (resource === '*' || subresource === '*' || discovery.resource(group, version, resource) !== undefined) continue;
            for (const operation of rule.operations ?? []) {
              const operations: readonly Operation[] = operation === '*' ? (subresource === '' ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE', 'UPDATE', 'CONNECT']) : [operation as Operation];
              for (const op of operations) {
                for (const scope of ['namespaced', 'cluster'] as const) add({ operation: op, group, version, resource, subresource, scope });
              }
            }
          }
        }
      }
    }
  }
  return requests;
}

function objectLabelsFor(operation: Operation, labels: Labels | undefined): Pick<AdmissionRequest, 'objectLabels' | 'oldObjectLabels'> {
  switch (operation) {
    case 'CREATE':
      return { objectLabels: labels, oldObjectLabels: null };
    case 'DELETE':
      return { objectLabels: null, oldObjectLabels: labels };
    case 'CONNECT':
      return { objectLabels: null, oldObjectLabels: null };
    default:
      return { objectLabels: labels, oldObjectLabels: labels };
  }
}

/**
 * Of several configurations with the same kind and name (alternatives: only one of them can
 * exist in a cluster), keep the webhooks of the one that costs most for this request.
 */
function withoutAlternatives(called: readonly Hook[]): Hook[] {
  const byConfiguration = new Map<string, Map<WebhookConfigurationObject, Hook[]>>();
  for (const hook of called) {
    const key = `${hook.object.kind}\u0000${hook.object.name ?? ''}`;
    const objects = byConfiguration.get(key) ?? new Map<WebhookConfigurationObject, Hook[]>();
    objects.set(hook.object, [...(objects.get(hook.object) ?? []), hook]);
    byConfiguration.set(key, objects);
  }
  const kept: Hook[] = [];
  for (const objects of byConfiguration.values()) {
    let best: Hook[] = [];
    let bestCost = -1;
    for (const hooks of objects.values()) {
      const cost = hooks[0]!.entry.mutating ? hooks.reduce((sum, h) => sum + h.cost, 0) : Math.max(...hooks.map((h) => h.cost));
      if (cost > bestCost) {
        best = hooks;
        bestCost = cost;
      }
    }
    kept.push(...best);
  }
  return kept.sort((a, b) => a.order - b.order);
}

function latency(hooks: readonly Hook[]): { mutatingSum: number; validatingMax: number; total: number } {
  const mutatingSum = hooks.filter((hook) => hook.entry.mutating).reduce((sum, hook) => sum + hook.cost, 0);
  const validatingMax = Math.max(0, ...hooks.filter((hook) => !hook.entry.mutating).map((hook) => hook.cost));
  return { mutatingSum, validatingMax, total: mutatingSum + validatingMax };
}

/** At most this many label combinations are tried for the objectSelectors of one request. */
export const MAX_LABEL_COMBINATIONS = 4096;

/**
 * The costliest set of webhooks that one object can meet at once. `sure` are called whatever
 * the object's labels; `open` have an objectSelector. They all see the same object, so two
 * webhooks whose objectSelectors no set of labels satisfies together (istio's
 * `istio.io/rev In [default]` and `istio.io/rev DoesNotExist`) are never both called. Only the
 * label keys that two or more of the open webhooks read are varied (absent, each value a
 * selector names, some other value): a key that one webhook alone reads can always be set its
 * way. When there are too many combinations, every open webhook counts.
 */
function worstCase(sure: readonly Hook[], open: readonly Hook[]): Hook[] {
  const all = withoutAlternatives([...sure, ...open]);
  if (open.length < 2) return all;
  const readers = new Map<string, Set<Hook>>();
  const values = new Map<string, Set<string>>();
  for (const hook of open) {
    const selector = hook.entry.webhook.objectSelector ?? {};
    for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
      readers.set(key, (readers.get(key) ?? new Set()).add(hook));
      values.set(key, (values.get(key) ?? new Set()).add(value ?? ''));
    }
    for (const requirement of selector.matchExpressions ?? []) {
      if (requirement === null || typeof requirement.key !== 'string') continue;
      readers.set(requirement.key, (readers.get(requirement.key) ?? new Set()).add(hook));
      const known = values.get(requirement.key) ?? new Set<string>();
      for (const value of requirement.values ?? []) known.add(value);
      values.set(requirement.key, known);
    }
  }
  const contested = [...readers.entries()].filter(([, hooks]) => hooks.size >= 2).map(([key]) => key);
  if (contested.length === 0) return all;
  // For each contested key: absent (undefined), each named value, and a value none names.
  const choices = contested.map((key) => {
    const named = [...(values.get(key) ?? [])];
    let other = 'other';
    while (named.includes(other)) other += '-';
    return [undefined, ...named, other];
  });
  if (choices.reduce((product, options) => product * options.length, 1) > MAX_LABEL_COMBINATIONS) return all;
  const contestedSet = new Set(contested);
  // Each open webhook's requirements on the contested keys only.
  const restricted = open.map((hook) => {
    const selector = hook.entry.webhook.objectSelector ?? {};
    return {
      hook,
      selector: {
        matchLabels: Object.fromEntries(Object.entries(selector.matchLabels ?? {}).filter(([key]) => contestedSet.has(key))),
        matchExpressions: (selector.matchExpressions ?? []).filter((requirement) => requirement !== null && contestedSet.has(requirement.key)),
      },
    };
  });
  let best: Hook[] = [];
  let bestTotal = -1;
  const labels: Record<string, string> = {};
  const visit = (i: number): void => {
    if (i === contested.length) {
      const hooks = withoutAlternatives([...sure, ...restricted.filter(({ selector }) => selectorMatches(selector, labels) !== false).map(({ hook }) => hook)]);
      const { total } = latency(hooks);
      if (total > bestTotal || (total === bestTotal && hooks.length > best.length)) {
        best = hooks;
        bestTotal = total;
      }
      return;
    }
    for (const value of choices[i]!) {
      if (value === undefined) delete labels[contested[i]!];
      else labels[contested[i]!] = value;
      visit(i + 1);
    }
    delete labels[contested[i]!];
  };
  visit(0);
  return best;
}

interface Analysis {
  readonly byObject: Map<WebhookConfigurationObject, OverBudget[]>;
}

function analyse(context: RuleContext, budget: number): Analysis {
  const hooks = collectHooks(context.webhookConfigurations);
  const byObject = new Map<WebhookConfigurationObject, OverBudget[]>();
  if (hooks.length < 2) return { byObject };
  const over: OverBudget[] = [];
  // The unlabelled namespace first: a set it shows is named with it rather than with some project's namespace.
  const namespaces = [...new Set([UNLABELLED_NAMESPACE, ...context.namespaces.map((ns) => ns.name).slice(0, MAX_NAMESPACES)])];
  const labelsOf = new Map(namespaces.map((name) => [name, namespaceLabels(context, name)]));
  // Rules never change the group (matchPolicy Equivalent converts versions only): index the webhooks by the groups they name.
  const byGroup = new Map<string, Hook[]>();
  const anyGroup: Hook[] = [];
  for (const hook of hooks) {
    const groups = new Set((hook.entry.webhook.rules ?? []).flatMap((rule) => rule?.apiGroups ?? []));
    if (groups.has('*')) anyGroup.push(hook);
    else for (const group of groups) byGroup.set(group, [...(byGroup.get(group) ?? []), hook]);
  }
  const seen = new Set<string>();
  const shapes = new Set<string>();
  for (const base of candidateRequests(hooks, context.discovery)) {
    const named = byGroup.get(base.group) ?? [];
    if (named.length + anyGroup.length < 2) continue;
    // Rules first (they do not depend on the namespace, only on whether there is one).
    const probe = { ...base, namespace: base.scope === 'cluster' ? null : UNLABELLED_NAMESPACE };
    const candidates = [...named, ...anyGroup]
      .filter((hook) => matchingRule(hook.entry.webhook, probe, context.discovery) !== undefined)
      .sort((a, b) => a.order - b.order);
    if (candidates.length < 2) continue;
    // Past the rules, the outcome depends only on the operation, the scope and the namespace.
    const shape = `${candidates.map((hook) => hook.order).join(',')} ${base.operation} ${base.scope}`;
    if (shapes.has(shape)) continue;
    shapes.add(shape);
    for (const namespace of base.scope === 'cluster' ? [null] : namespaces) {
      const nsLabels = namespace === null ? undefined : labelsOf.get(namespace);
      const request: AdmissionRequest = {
        ...base,
        namespace,
        ...(nsLabels === undefined ? {} : { namespaceLabels: nsLabels }),
        // Object labels are unknown (the worst case counts every objectSelector), except a Namespace's own.
        ...objectLabelsFor(base.operation, base.scope === 'namespace' ? nsLabels : undefined),
      };
      const outcomes = candidates.map((hook) => ({ hook, outcome: matchWebhook(hook.entry.webhook, request, context.discovery) }));
      const matched = outcomes.filter(({ outcome }) => outcome.called !== false);
      if (matched.length < 2) continue;
      const called = worstCase(
        matched.filter(({ outcome }) => !(outcome.called === 'unknown' && outcome.unknown === 'object-labels')).map(({ hook }) => hook),
        matched.filter(({ outcome }) => outcome.called === 'unknown' && outcome.unknown === 'object-labels').map(({ hook }) => hook),
      );
      if (called.length < 2) continue;
      const key = called.map((hook) => hook.order).join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const { mutatingSum, validatingMax, total } = latency(called);
      if (!(total > budget)) continue;
      over.push({ hooks: called, total, mutatingSum, validatingMax, request: base, namespace });
    }
  }
  // A set inside a larger set that is over budget too is not reported on its own: the latency
  // only grows with the set, so whatever brings the larger one under budget brings it under too.
  const maximal = over.filter((set) => !over.some((other) => other !== set && other.hooks.length > set.hooks.length && set.hooks.every((hook) => other.hooks.includes(hook))));
  for (const set of maximal) {
    const first = set.hooks[0]!;
    byObject.set(first.object, [...(byObject.get(first.object) ?? []), set]);
  }
  return { byObject };
}

/** One analysis per run (the objects array), discovery and budget: every object's check reads it. */
const cache = new WeakMap<readonly WebhookConfigurationObject[], WeakMap<Discovery, Map<number, Analysis>>>();

function analysisFor(context: RuleContext, budget: number): Analysis {
  let byDiscovery = cache.get(context.webhookConfigurations);
  if (byDiscovery === undefined) {
    byDiscovery = new WeakMap();
    cache.set(context.webhookConfigurations, byDiscovery);
  }
  let byBudget = byDiscovery.get(context.discovery);
  if (byBudget === undefined) {
    byBudget = new Map();
    byDiscovery.set(context.discovery, byBudget);
  }
  let analysis = byBudget.get(budget);
  if (analysis === undefined) {
    analysis = analyse(context, budget);
    byBudget.set(budget, analysis);
  }
  return analysis;
}

function describeRequest(request: BaseRequest, namespace: string | null): string {
  const resource = `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
  const group = request.group === '' ? request.version : `${request.group}/${request.version}`;
  const where = namespace === null ? '' : namespace === UNLABELLED_NAMESPACE ? ' in a namespace without labels' : ` in namespace ${namespace}`;
  return `${request.operation} ${resource} (${group})${where}`;
}

function describeHooks(hooks: readonly Hook[]): string {
  const names = hooks.map((hook) => `${hook.object.kind}/${hook.entry.label}`);
  return hooks
    .map((hook, i) => {
      const duplicate = names.indexOf(names[i]!) !== names.lastIndexOf(names[i]!);
      const name = duplicate ? `${hook.object.name ?? ''}/${hook.entry.label}` : hook.entry.label;
      const kind = hook.entry.mutating ? 'mutating' : 'validating';
      const cost = hook.reinvoked ? `2 × ${hook.timeout}s, reinvocationPolicy IfNeeded` : `${hook.timeout}s`;
      return `"${name}" (${kind}, ${cost})`;
    })
    .join(', ');
}

export const rule = defineObjectRule({
  meta,
  check(object, context) {
    const budget = Number(context.option(meta, 'budgetSeconds'));
    const found = analysisFor(context, budget).byObject.get(object) ?? [];
    return found.map((overBudget) => ({
      messageId: 'overBudget' as const,
      data: {
        count: overBudget.hooks.length,
        request: describeRequest(overBudget.request, overBudget.namespace),
        webhooks: describeHooks(overBudget.hooks),
        total: overBudget.total,
        mutating: overBudget.mutatingSum,
        validating: overBudget.validatingMax,
        budget,
      },
      path: overBudget.hooks[0]!.entry.path,
    }));
  },
});
