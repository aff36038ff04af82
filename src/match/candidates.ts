/**
 * The requests that several webhooks of a run can all be called for, and which of those
 * webhooks one object can meet at once. Shared by the rules that reason about webhooks
 * together (timeout-budget, mutator-ordering); the matching itself is matchWebhook's (facts §5).
 *
 * Requests are built from discovery (every resource and subresource the target version serves,
 * plus the run's CRDs) and from the resources the rules name that discovery does not know.
 * Namespaced requests are tried in a namespace without labels and in each Namespace of the run;
 * object labels are unknown, so an objectSelector may match, except that webhooks whose
 * objectSelectors no single set of labels satisfies together are never called together.
 */
import type { Discovery } from '../kube/discovery/discovery.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import { webhooksOf, type WebhookEntry } from '../model/webhooks.js';
import type { RunScope } from '../run-scope.js';
import { namespaceLabels } from './namespaces.js';
import { compiledRuleMatches, compiledRules, isExemptRequest, objectLabelsFor, selectorsOutcome, type AdmissionRequest, type CompiledRule, type MatchOutcome, type Operation } from './request.js';
import { selectorMatches } from './selector.js';
import type { RuleWithOperations, Webhook } from '../model/types.js';

/** A namespace without labels (but its name label), for requests in namespaces the run does not describe. */
export const UNLABELLED_NAMESPACE = 'unlabelled-namespace';
/** At most this many of the run's Namespaces are tried (plus the unlabelled one). */
export const MAX_NAMESPACES = 100;
/** At most this many label combinations are tried for the objectSelectors of one request. */
export const MAX_LABEL_COMBINATIONS = 4096;

/** Subresources written with CREATE; other subresources (but the CONNECT and read-only ones) are updated. */
export const CREATE_SUBRESOURCES: ReadonlySet<string> = new Set(['binding', 'eviction', 'token']);
/** Subresources that are only read (GET), which never reach admission. */
const READ_ONLY_SUBRESOURCES = new Set(['log']);

/** One webhook of the run, with its place in the API server's calling order. */
export interface CandidateHook {
  readonly object: WebhookConfigurationObject;
  readonly entry: WebhookEntry;
  /** Position in the API server's calling order: mutating before validating, by configuration name, then list order. */
  order: number;
  /**
   * Set by inCallingOrder: whether another configuration object of the hooks has this one's kind
   * and name (an alternative, see withoutAlternatives). Undefined when not known.
   */
  alternative?: boolean;
}

export interface BaseRequest {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** 'namespaced' requests are tried in every namespace; 'namespace' is the Namespace object itself. */
  readonly scope: 'cluster' | 'namespaced' | 'namespace';
}

/** Go string order (byte-wise for ASCII names), as sort.Strings compares them. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The webhooks of the decodable configurations that have at least one rule (a webhook without rules is never called). */
export function webhooksWithRules(objects: readonly WebhookConfigurationObject[]): { object: WebhookConfigurationObject; entry: WebhookEntry }[] {
  return objects.filter((object) => object.decodable).flatMap((object) => webhooksOf(object).filter((entry) => (entry.webhook.rules ?? []).length > 0).map((entry) => ({ object, entry })));
}

/**
 * Sorts the hooks in the API server's calling order and numbers them: mutating before
 * validating; configurations by name (Go string order, stable: run order for equal names);
 * webhooks in list order inside each configuration.
 */
export function inCallingOrder<H extends CandidateHook>(hooks: readonly H[]): H[] {
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
  // Configurations of one kind (mutating or not) and name are next to each other in this order:
  // in each such run, the hooks are alternatives when they come from two objects or more.
  for (let start = 0; start < sorted.length; ) {
    const first = sorted[start]!.hook;
    let end = start + 1;
    let objects = 1;
    while (end < sorted.length) {
      const hook = sorted[end]!.hook;
      if (hook.object.kind !== first.object.kind || (hook.object.name ?? '') !== (first.object.name ?? '')) break;
      if (hook.object !== sorted[end - 1]!.hook.object) objects++;
      end++;
    }
    for (let k = start; k < end; k++) sorted[k]!.hook.alternative = objects > 1;
    start = end;
  }
  return sorted.map(({ hook }) => hook);
}

function operationsFor(subresource: string, connect: ReadonlySet<string>): readonly Operation[] {
  if (subresource === '') return ['CREATE', 'UPDATE', 'DELETE'];
  if (connect.has(subresource)) return ['CONNECT'];
  if (READ_ONLY_SUBRESOURCES.has(subresource)) return [];
  return CREATE_SUBRESOURCES.has(subresource) ? ['CREATE'] : ['UPDATE'];
}

/** Every request the run's webhooks can be asked about: discovery's resources, plus resources the rules name that discovery does not know. */
export function candidateRequests(hooks: readonly CandidateHook[], discovery: Discovery): BaseRequest[] {
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
            const slash = entry.indexOf('/');
            const resource = slash < 0 ? entry : entry.slice(0, slash);
            const subresource = slash < 0 ? '' : entry.slice(slash + 1);
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

/** Rules naming more (group, resource, subresource, operation) combinations than this are indexed under the wildcards. */
const MAX_INDEX_KEYS_PER_RULE = 64;

const indexKey = (group: string, resource: string, subresource: string, operation: string): string => `${group}\u0000${resource}\u0000${subresource}\u0000${operation}`;

/** JSON text of plain data as a signature; a value JSON cannot write (a cycle) gets a signature of its own. */
function signatureOf(value: unknown, fallback: string): string {
  try {
    return JSON.stringify(value) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * The run's distinct rules (as JSON) and, per hook, its rules as indexes into them: many
 * webhooks share rules, so each distinct rule is matched once per request, and a hook's
 * matchingRule is read off those answers (first exact match, else, under matchPolicy
 * Equivalent, the first rule that matches an equivalent version). Distinct rules are indexed by
 * the (group, resource, subresource, operation) they name, '*' standing for itself: a rule
 * matches a request (exactly or through an equivalent version, which keeps the group and
 * resource) only if it names the request's group, resource and subresource (split at the first
 * '/') and operation, or '*'.
 */
interface RuleTable {
  readonly rules: readonly (CompiledRule | null)[];
  /** Per distinct rule: the positions of the hooks that have it, ascending. */
  readonly hooksOf: readonly number[][];
  /** Hook p's rules are ruleIds[start[p]] … ruleIds[start[p + 1] - 1] (-1: not a rule object). */
  readonly ruleIds: Int32Array;
  readonly start: Int32Array;
  /** 1 when the hook's matchPolicy is Equivalent (the default). */
  readonly equivalent: Uint8Array;
  /** The distinct rules that may match a request, ascending. */
  lookup(request: Pick<BaseRequest, 'group' | 'resource' | 'subresource' | 'operation'>): readonly number[];
}

function ruleTable(hooks: readonly CandidateHook[]): RuleTable {
  const ids = new Map<string, number>();
  const rules: (CompiledRule | null)[] = [];
  const written: RuleWithOperations[] = [];
  const hooksOf: number[][] = [];
  const ruleIds: number[] = [];
  const start = new Int32Array(hooks.length + 1);
  const equivalent = new Uint8Array(hooks.length);
  hooks.forEach((hook, position) => {
    const { webhook } = hook.entry;
    start[position] = ruleIds.length;
    equivalent[position] = (webhook.matchPolicy ?? 'Equivalent') === 'Equivalent' ? 1 : 0;
    const compiled = compiledRules(webhook.rules ?? []);
    for (let k = 0; k < compiled.length; k++) {
      const rule = compiled[k]!;
      if (rule === null) {
        ruleIds.push(-1);
        continue;
      }
      let id = ids.get(rule.key);
      if (id === undefined) {
        id = rules.length;
        ids.set(rule.key, id);
        rules.push(rule);
        written.push(webhook.rules![k]!);
        hooksOf.push([]);
      }
      const of = hooksOf[id]!;
      if (of[of.length - 1] !== position) of.push(position);
      ruleIds.push(id);
    }
  });
  start[hooks.length] = ruleIds.length;
  const buckets = new Map<string, number[]>();
  written.forEach((rule, id) => {
    const keys = new Set<string>();
    const apiGroups = rule.apiGroups ?? [];
    const operations = rule.operations ?? [];
    const resources = new Map<string, [string, string]>();
    for (const entry of rule.resources ?? []) {
      const slash = entry.indexOf('/');
      resources.set(entry, slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)]);
    }
    if (apiGroups.length * resources.size * operations.length > MAX_INDEX_KEYS_PER_RULE) keys.add(indexKey('*', '*', '*', '*'));
    else for (const group of apiGroups) for (const [resource, subresource] of resources.values()) for (const operation of operations) keys.add(indexKey(group, resource, subresource, operation));
    for (const key of keys) {
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, [id]);
      else bucket.push(id);
    }
  });
  const either = (value: string): readonly string[] => (value === '*' ? ['*'] : [value, '*']);
  return {
    rules,
    hooksOf,
    ruleIds: Int32Array.from(ruleIds),
    start,
    equivalent,
    lookup({ group, resource, subresource, operation }) {
      const lists: number[][] = [];
      for (const g of either(group))
        for (const r of either(resource))
          for (const sub of either(subresource))
            for (const o of either(operation)) {
              const bucket = buckets.get(indexKey(g, r, sub, o));
              if (bucket !== undefined) lists.push(bucket);
            }
      if (lists.length <= 1) return lists[0] ?? [];
      return [...new Set(lists.flat())].sort((a, b) => a - b);
    },
  };
}

/** What selectorsOutcome is given for a rule; it decides by the selectors alone (the rule only numbers a "called" outcome). */
const ANY_RULE = { rule: 0, equivalent: null } as const;

/** Two or more webhooks that the API server calls, or may call, for one request in one namespace. */
export interface CandidateMatch<H extends CandidateHook> {
  readonly request: BaseRequest;
  /** null for cluster-scoped requests; UNLABELLED_NAMESPACE for a namespace the run does not describe. */
  readonly namespace: string | null;
  /** In calling order: called whatever the object's labels (matchConditions are not evaluated). */
  readonly sure: readonly H[];
  /** In calling order: called or not depending on the object's labels (their objectSelector). */
  readonly open: readonly H[];
}

export interface CandidateOptions {
  /** Only requests this accepts are tried. */
  readonly requests?: (request: BaseRequest) => boolean;
}

/**
 * Every request, in every namespace tried, for which two or more of `hooks` (in calling order)
 * are called (matchWebhook says true or 'unknown'). A request whose matching webhooks, by
 * their rules, are the same as an earlier request's with the same operation and scope is
 * skipped: past the rules, the outcome depends only on the operation, scope and namespace.
 *
 * The work per request is per group of hooks with equal rules and per group with equal
 * selectors, not per hook (a run of thousands of webhooks has few distinct rules).
 */
export function* candidateMatches<H extends CandidateHook>(hooks: readonly H[], context: Pick<RunScope, 'namespaces' | 'kubeVersion' | 'discovery' | 'memo'>, options: CandidateOptions = {}): Generator<CandidateMatch<H>> {
  if (hooks.length < 2) return;
  // The unlabelled namespace first: a set it shows is named with it rather than with some project's namespace.
  const namespaces = [...new Set([UNLABELLED_NAMESPACE, ...context.namespaces.map((ns) => ns.name).slice(0, MAX_NAMESPACES)])];
  const labelsOf = new Map(namespaces.map((name) => [name, namespaceLabels(context, name)]));
  const table = ruleTable(hooks);
  const orderOf = Int32Array.from(hooks, (hook) => hook.order);
  // The selectors decide the rest (selectorsOutcome reads the namespace and object selectors only): group hooks by them too.
  const selectorIds = new Map<string, number>();
  const selectorWebhooks: Readonly<Webhook>[] = [];
  const selectorOf = Int32Array.from(hooks, (hook, position) => {
    const { webhook } = hook.entry;
    const signature = signatureOf([webhook.namespaceSelector ?? null, webhook.objectSelector ?? null], `\u0000${position}`);
    let id = selectorIds.get(signature);
    if (id === undefined) {
      id = selectorWebhooks.length;
      selectorIds.set(signature, id);
      selectorWebhooks.push(webhook);
    }
    return id;
  });
  // Per distinct rule, for the request being tried: 0 not tried or no match, 1 exact match, 2 only through an equivalent version.
  const status = new Uint8Array(table.rules.length);
  const seen = new Uint8Array(hooks.length);
  const shapes = new Set<string>();
  for (const base of candidateRequests(hooks, context.discovery)) {
    if (options.requests !== undefined && !options.requests(base)) continue;
    // No webhook is called for these (matchWebhook: exempt-kind). Skipped before their shape is
    // recorded: a shape seen only on an exempt request must not hide a real request of that shape.
    if (isExemptRequest(base.group, base.resource)) continue;
    const tried = table.lookup(base);
    if (tried.length === 0) continue;
    // Rules first (they do not depend on the namespace, only on whether there is one).
    const probe = { ...base, namespace: base.scope === 'cluster' ? null : UNLABELLED_NAMESPACE };
    let equivalents: AdmissionRequest[] | undefined;
    for (const id of tried) {
      const rule = table.rules[id]!;
      if (compiledRuleMatches(rule, probe)) status[id] = 1;
      else {
        equivalents ??= context.discovery.equivalents(probe).map((gvr) => ({ ...probe, group: gvr.group, version: gvr.version, resource: gvr.resource }));
        status[id] = equivalents.some((candidate) => compiledRuleMatches(rule, candidate)) ? 2 : 0;
      }
    }
    // matchingRule per hook: its first rule that matches exactly, else (Equivalent) its first that matches another version.
    const candidates: number[] = [];
    for (const id of tried) {
      if (status[id] === 0) continue;
      for (const position of table.hooksOf[id]!) {
        if (seen[position] === 1) continue;
        seen[position] = 1;
        let exact = false;
        let viaEquivalent = false;
        for (let k = table.start[position]!; k < table.start[position + 1]!; k++) {
          const ruleId = table.ruleIds[k]!;
          if (ruleId < 0) continue;
          if (status[ruleId] === 1) exact = true;
          else if (status[ruleId] === 2) viaEquivalent = true;
        }
        if (exact || (viaEquivalent && table.equivalent[position] === 1)) candidates.push(position);
      }
    }
    for (const id of tried) {
      status[id] = 0;
      for (const position of table.hooksOf[id]!) seen[position] = 0;
    }
    if (candidates.length < 2) continue;
    candidates.sort((a, b) => orderOf[a]! - orderOf[b]! || a - b);
    const shape = `${candidates.map((position) => orderOf[position]).join(',')} ${base.operation} ${base.scope}`;
    if (shapes.has(shape)) continue;
    shapes.add(shape);
    for (const namespace of base.scope === 'cluster' ? [null] : namespaces) {
      const nsLabels = namespace === null ? undefined : labelsOf.get(namespace);
      const request: AdmissionRequest = {
        ...base,
        namespace,
        ...(nsLabels === undefined ? {} : { namespaceLabels: nsLabels }),
        // Object labels are unknown (any objectSelector may match), except a Namespace's own.
        ...objectLabelsFor(base.operation, base.scope === 'namespace' ? nsLabels : undefined),
      };
      // The rules do not depend on the namespace, only on whether there is one: the probe's rule holds.
      const outcomes = new Map<number, MatchOutcome>();
      const sure: H[] = [];
      const open: H[] = [];
      for (const position of candidates) {
        const id = selectorOf[position]!;
        let outcome = outcomes.get(id);
        if (outcome === undefined) {
          outcome = selectorsOutcome(selectorWebhooks[id]!, request, ANY_RULE);
          outcomes.set(id, outcome);
        }
        if (outcome.called === false) continue;
        if (outcome.called === 'unknown' && outcome.unknown === 'object-labels') open.push(hooks[position]!);
        else sure.push(hooks[position]!);
      }
      if (sure.length + open.length < 2) continue;
      yield { request: base, namespace, sure, open };
    }
  }
}

/**
 * The sets of webhooks that one object can meet at once. `sure` are called whatever the
 * object's labels; `open` have an objectSelector. They all see the same object, so two
 * webhooks whose objectSelectors no set of labels satisfies together (`example.io/rev In
 * [default]` and `example.io/rev DoesNotExist`) are never in one set. Only the
 * label keys that two or more of the open webhooks read are varied (absent, each value a
 * selector names, some other value): a key that one webhook alone reads can always be set its
 * way. Returns one set (sure and open together) when there is nothing to vary or when there
 * are more than MAX_LABEL_COMBINATIONS combinations; otherwise one set per combination, in a
 * fixed order, possibly with repeats. Each set keeps the calling order of `sure` then `open`.
 */
export function coCalledSets<H extends CandidateHook>(sure: readonly H[], open: readonly H[]): H[][] {
  const all = [[...sure, ...open]];
  if (open.length < 2) return all;
  const readers = new Map<string, Set<H>>();
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
  const sets: H[][] = [];
  const labels: Record<string, string> = {};
  const visit = (i: number): void => {
    if (i === contested.length) {
      sets.push([...sure, ...restricted.filter(({ selector }) => selectorMatches(selector, labels) !== false).map(({ hook }) => hook)]);
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
  return sets;
}

/**
 * Of several configurations with the same kind and name (alternatives: only one of them can
 * exist in a cluster), keeps the webhooks of the one whose webhooks here weigh most (the first
 * of them on a tie). The result is in calling order.
 */
export function withoutAlternatives<H extends CandidateHook>(called: readonly H[], weight: (hooks: readonly H[]) => number): H[] {
  // Known to have no alternatives among them (inCallingOrder says so): nothing to choose.
  if (called.every((hook) => hook.alternative === false)) return [...called].sort((a, b) => a.order - b.order);
  // The hooks of each configuration object, objects in order of first appearance.
  const byObject = new Map<WebhookConfigurationObject, H[]>();
  for (const hook of called) {
    const hooks = byObject.get(hook.object);
    if (hooks === undefined) byObject.set(hook.object, [hook]);
    else hooks.push(hook);
  }
  // Objects with the same kind and name are alternatives: keep the one whose hooks weigh most (the first on a tie).
  const byConfiguration = new Map<string, WebhookConfigurationObject[]>();
  for (const object of byObject.keys()) {
    const key = `${object.kind}\u0000${object.name ?? ''}`;
    const objects = byConfiguration.get(key);
    if (objects === undefined) byConfiguration.set(key, [object]);
    else objects.push(object);
  }
  const dropped = new Set<WebhookConfigurationObject>();
  for (const objects of byConfiguration.values()) {
    if (objects.length < 2) continue;
    let best: WebhookConfigurationObject | undefined;
    let bestWeight = -Infinity;
    for (const object of objects) {
      const w = weight(byObject.get(object)!);
      if (w > bestWeight) {
        best = object;
        bestWeight = w;
      }
    }
    for (const object of objects) if (object !== best) dropped.add(object);
  }
  const kept = dropped.size === 0 ? [...called] : called.filter((hook) => !dropped.has(hook.object));
  return kept.sort((a, b) => a.order - b.order);
}

/** Drops the sets contained in a larger set of the list (sets compared by their members). */
export function maximalSets<T extends { readonly hooks: readonly CandidateHook[] }>(sets: readonly T[]): T[] {
  // Membership through a Set per set (built once): a containment test is linear in the smaller set.
  const members = new Map<T, ReadonlySet<CandidateHook>>();
  const membersOf = (set: T): ReadonlySet<CandidateHook> => {
    let found = members.get(set);
    if (found === undefined) {
      found = new Set(set.hooks);
      members.set(set, found);
    }
    return found;
  };
  return sets.filter(
    (set) =>
      !sets.some((other) => {
        if (other === set || other.hooks.length <= set.hooks.length) return false;
        const larger = membersOf(other);
        return set.hooks.every((hook) => larger.has(hook));
      }),
  );
}

/** "CREATE pods (v1) in an unlabelled namespace", for messages. */
export function describeRequest(request: BaseRequest, namespace: string | null): string {
  const resource = `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
  const group = request.group === '' ? request.version : `${request.group}/${request.version}`;
  const where = namespace === null ? '' : namespace === UNLABELLED_NAMESPACE ? ' in an unlabelled namespace' : ` in namespace ${namespace}`;
  return `${request.operation} ${resource} (${group})${where}`;
}
