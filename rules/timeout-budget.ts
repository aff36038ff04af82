import type { Discovery } from '../src/kube/discovery/discovery.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { matchingRule, matchWebhook, type AdmissionRequest, type Operation } from '../src/match/request.js';
import type { Labels } from '../src/match/selector.js';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext, type RuleMeta } from '../src/rule.js';

/** A namespace without labels (but its name label), for requests in namespaces the run does not describe. */
export const UNLABELLED_NAMESPACE = 'unlabelled-namespace';
/** At most this many of the run's Namespaces are tried (plus the unlabelled one). */
export const MAX_NAMESPACES = 100;

/** Subresources that only CONNECT reaches, and those written with CREATE; other subresources are updated. */
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
    if (!object.decodable) continue;
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
        for (const version of rule.apiVersions ?? []) {
          if (group === '*' || version === '*') continue;
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

interface Analysis {
  readonly byObject: Map<WebhookConfigurationObject, OverBudget[]>;
}

function analyse(context: RuleContext, budget: number): Analysis {
  const hooks = collectHooks(context.webhookConfigurations);
  const byObject = new Map<WebhookConfigurationObject, OverBudget[]>();
  if (hooks.length < 2) return { byObject };
  const namespaces = [...new Set([...context.namespaces.map((ns) => ns.name)].slice(0, MAX_NAMESPACES)), UNLABELLED_NAMESPACE];
  const labelsOf = new Map(namespaces.map((name) => [name, namespaceLabels(context, name)]));
  const seen = new Set<string>();
  for (const base of candidateRequests(hooks, context.discovery)) {
    // Rules first (they do not depend on the namespace, only on whether there is one).
    const probe = { ...base, namespace: base.scope === 'cluster' ? null : UNLABELLED_NAMESPACE };
    const candidates = hooks.filter((hook) => {
      const groups = (hook.entry.webhook.rules ?? []).flatMap((rule) => rule?.apiGroups ?? []);
      if (!groups.includes('*') && !groups.includes(base.group)) return false;
      return matchingRule(hook.entry.webhook, probe, context.discovery) !== undefined;
    });
    if (candidates.length < 2) continue;
    for (const namespace of base.scope === 'cluster' ? [null] : namespaces) {
      const nsLabels = namespace === null ? undefined : labelsOf.get(namespace);
      const request: AdmissionRequest = {
        ...base,
        namespace,
        ...(nsLabels === undefined ? {} : { namespaceLabels: nsLabels }),
        // Object labels are unknown (the worst case counts every objectSelector), except a Namespace's own.
        ...objectLabelsFor(base.operation, base.scope === 'namespace' ? nsLabels : undefined),
      };
      const called = withoutAlternatives(candidates.filter((hook) => matchWebhook(hook.entry.webhook, request, context.discovery).called !== false));
      if (called.length < 2) continue;
      const key = called.map((hook) => hook.order).join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const mutatingSum = called.filter((hook) => hook.entry.mutating).reduce((sum, hook) => sum + hook.cost, 0);
      const validatingMax = Math.max(0, ...called.filter((hook) => !hook.entry.mutating).map((hook) => hook.cost));
      const total = mutatingSum + validatingMax;
      if (!(total > budget)) continue;
      const first = called[0]!;
      const found = byObject.get(first.object) ?? [];
      found.push({ hooks: called, total, mutatingSum, validatingMax, request: base, namespace });
      byObject.set(first.object, found);
    }
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
  const names = hooks.map((hook) => hook.entry.label);
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
