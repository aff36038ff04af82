/**
 * Which parts of a webhook's rules can never match a request, and whether the webhook as a
 * whole is never called. `unreachable-rule` reports the parts; the engine uses `neverCalled` to
 * drop findings about what happens when a webhook is called (its timeout, failure policy,
 * reinvocation, ...) for a webhook that no request reaches.
 *
 * Only what discovery knows is judged: a rule whose groups are unknown may match resources we
 * cannot see, so it is live, except for subresource names whose meaning is unambiguous across
 * every group (CONNECT-only and read-only subresources).
 */
import type { FieldPath } from '../field-path.js';
import type { Discovery } from '../kube/discovery/discovery.js';
import { formatKubeVersion, isAtLeast, type KubeVersion } from '../kube/version.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { RuleWithOperations, Webhook } from '../model/types.js';
import { isFragment, type WebhookEntry } from '../model/webhooks.js';
import { CREATE_SUBRESOURCES } from './candidates.js';
import { isExemptRequest, ruleMatches } from './request.js';
import { isEmptySelector } from './selector.js';
import { allGroupsKnown, entryTargets, splitEntry, type EntryTarget } from './targets.js';
import { joinCapped } from '../text/list.js';
import { memoKey, type RunScope } from '../run-scope.js';

export type UnreachableReason =
  | 'emptyRules'
  | 'exempt'
  | 'virtual'
  | 'scope'
  | 'scopeEntry'
  | 'connect'
  | 'connectEntry'
  | 'operations'
  | 'operationsEntry'
  | 'objectSelector'
  | 'objectSelectorSome';

export interface Unreachable {
  readonly reason: UnreachableReason;
  readonly path: FieldPath;
  readonly data: Readonly<Record<string, string>>;
}

export interface WebhookReachability {
  readonly unreachable: readonly Unreachable[];
  /** No request can reach the webhook: no rules, or every rule is unreachable. */
  readonly neverCalled: boolean;
  /** The indexes of the rules no request reaches that unreachable-rule reports (every entry unreachable, or the rule as a whole). */
  readonly deadRules: ReadonlySet<number>;
  /**
   * The webhook has no `rules` at all (absent or null): how controllers ship webhooks whose rules
   * they fill in at run time. Unlike a written `rules: []` or rules that cannot match, nothing in
   * the file says the webhook is dead, so findings about its own settings still apply.
   */
  readonly rulesAbsent: boolean;
}

/**
 * facts §7, §9.13: from 1.37 (feature gate ExcludeAdmissionWebhookVirtualResources, on by
 * default) webhooks are no longer called for these virtual authn/authz resources.
 */
const VIRTUAL_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  'authentication.k8s.io': ['tokenreviews', 'selfsubjectreviews'],
  'authorization.k8s.io': ['subjectaccessreviews', 'selfsubjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'],
};

function isVirtual(target: EntryTarget): boolean {
  return VIRTUAL_RESOURCES[target.info.group]?.includes(target.info.resource) ?? false;
}

/** The request the API server would see for this target (facts §5: a Namespace carries its own name as namespace). */
function requestFor(target: EntryTarget, operation: 'CREATE' | 'CONNECT') {
  const { info } = target;
  const isNamespace = info.group === '' && info.resource === 'namespaces';
  return {
    operation,
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: target.subresource,
    namespace: info.namespaced ? 'default' : isNamespace ? 'default' : null,
  };
}

function isConnectOnly(rule: Readonly<RuleWithOperations>): boolean {
  const operations = rule.operations ?? [];
  return operations.length > 0 && operations.every((operation) => operation === 'CONNECT');
}

/**
 * What a target receives: CONNECT only (exec, attach, portforward, proxy), nothing (read-only:
 * pods/log), CREATE only (a subresource that is created: binding, eviction, token), UPDATE only
 * (the other subresources: status, scale, ephemeralcontainers, resize, approval, finalize), or
 * every write (the resource itself). A subresource's requests are never DELETE.
 */
type Accepts = 'connect' | 'nothing' | 'created' | 'updated' | 'writes';

function accepts(target: EntryTarget): Accepts {
  if (target.info.connect.has(target.subresource)) return 'connect';
  if (target.info.readOnly.has(target.subresource)) return 'nothing';
  if (target.subresource === '') return 'writes';
  return CREATE_SUBRESOURCES.has(target.subresource) ? 'created' : 'updated';
}

/** The one operation a target of each kind receives (undefined: several, or none). */
const ONLY: Readonly<Record<Accepts, string | undefined>> = { connect: 'CONNECT', created: 'CREATE', updated: 'UPDATE', writes: undefined, nothing: undefined };

function reaches(target: EntryTarget, operations: readonly string[]): boolean {
  const kind = accepts(target);
  if (kind === 'nothing') return false;
  const only = ONLY[kind];
  return operations.some((operation) => operation === '*' || (only !== undefined ? operation === only : operation !== 'CONNECT'));
}

function list(items: readonly string[]): string {
  const quoted = [...new Set(items)].map((item) => `"${item}"`);
  return joinCapped(quoted, 3, { width: 40 });
}

const verb = (items: readonly string[]): string => (new Set(items).size === 1 ? 'is' : 'are');

/** Why an entry's targets never receive the rule's operations, from what they accept. */
function whyNot(targets: readonly EntryTarget[]): string {
  const kinds = new Set(targets.map(accepts));
  if (kinds.size === 1 && kinds.has('nothing')) return 'is only read, and reads never reach admission';
  if (kinds.size === 1 && kinds.has('connect')) return 'receives only CONNECT';
  if (kinds.size === 1 && kinds.has('created')) return 'receives only CREATE';
  if (kinds.size === 1 && kinds.has('updated')) return 'receives only UPDATE';
  return [...kinds].every((kind) => kind === 'connect' || kind === 'nothing') ? 'receives only CONNECT or reads' : 'receives other operations';
}

interface RuleResult {
  readonly unreachable: Unreachable[];
  /** Every entry of the rule is unreachable (or the rule as a whole is). */
  readonly dead: boolean;
}

/**
 * For a rule whose groups include `*` (or a group discovery does not know): the resources each
 * `resource/subresource` entry names, where the subresource is CONNECT-only or read-only on every
 * resource of that name discovery knows. A CustomResourceDefinition can only declare the status
 * and scale subresources, so such a name means the same in any group. Entries with `*` parts
 * are left alone (undefined): they may name resources we cannot see.
 */
function unambiguousTargets(discovery: Discovery, entry: string | null): EntryTarget[] | undefined {
  // A null item decodes as "" (Go's []string): it names nothing.
  if (typeof entry !== 'string') return undefined;
  const { resource, subresource } = splitEntry(entry);
  if (resource === '*' || subresource === '' || subresource === '*') return undefined;
  const targets = discovery
    .allResources()
    .filter((info) => info.resource === resource && info.subresources.has(subresource))
    .map((info) => ({ info, subresource }));
  if (targets.length === 0) return undefined;
  // (An aggregated API server may serve a subresource of the same name with other writes: only
  // CONNECT-only and read-only names are judged here.)
  if (targets.some((target) => accepts(target) !== 'connect' && accepts(target) !== 'nothing')) return undefined;
  return targets;
}

/**
 * Entries whose targets never receive the rule's operations. `others` are further entries of the
 * rule that are not judged (they may match): then the rule is never reported as a whole.
 */
function checkOperations(rule: Readonly<RuleWithOperations>, path: FieldPath, webhook: string, live: readonly { entry: string; k: number; targets: EntryTarget[] }[], others = 0): RuleResult {
  const unreachable: Unreachable[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) return { unreachable, dead: false };
  const without = live.filter(({ targets }) => !targets.some((target) => reaches(target, operations)));
  if (without.length === 0) return { unreachable, dead: false };
  const whole = without.length === live.length && others === 0;
  if (isConnectOnly(rule)) {
    if (whole) {
      const names = without.map((e) => e.entry);
      const index = operations.indexOf('CONNECT');
      unreachable.push({ reason: 'connect', path: [...path, 'operations', index], data: { webhook, resources: list(names), does: new Set(names).size === 1 ? 'does' : 'do' } });
      return { unreachable, dead: true };
    }
    for (const { entry, k } of without) unreachable.push({ reason: 'connectEntry', path: [...path, 'resources', k], data: { webhook, entry } });
    return { unreachable, dead: false };
  }
  const written = [...new Set(operations)].join(', ');
  if (whole) {
    const names = without.map((e) => e.entry);
    const reason = whyNot(without.flatMap(({ targets }) => targets));
    unreachable.push({
      reason: 'operations',
      path: [...path, 'operations'],
      data: { webhook, operations: written, resources: list(names), why: names.length === 1 ? reason : reason.replace(/^is /, 'are ').replace(/^receives /, 'receive ') },
    });
    return { unreachable, dead: true };
  }
  // One finding per rule, at its first such entry, naming them all: they share one cause.
  const names = without.map((e) => e.entry);
  const reason = whyNot(without.flatMap(({ targets }) => targets));
  unreachable.push({
    reason: 'operationsEntry',
    path: [...path, 'resources', without[0]!.k],
    data: { webhook, entries: list(names), operations: written, why: names.length === 1 ? reason : reason.replace(/^is /, 'are ').replace(/^receives /, 'receive ') },
  });
  return { unreachable, dead: false };
}

function checkRule(discovery: Discovery, rule: Readonly<RuleWithOperations>, path: FieldPath, webhook: string, kube: string, virtualExcluded: boolean): RuleResult {
  const unreachable: Unreachable[] = [];
  const groups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  if (!allGroupsKnown(discovery, groups)) {
    // Resource names are lowercase in every group: entries with capitals (the kind written for
    // the resource) match nothing, whatever the group serves (unknown-resource says so).
    if (resources.length > 0 && resources.every((entry) => typeof entry === 'string' && /[A-Z]/.test(entry))) return { unreachable, dead: true };
    // `*` (or an unknown group) may match resources we cannot see; only subresource names that
    // mean the same everywhere are judged, and only when every named group is `*` or known.
    const judged = groups.length > 0 && groups.every((group) => group === '*' || discovery.isKnownBuiltinGroup(group) || discovery.knowsGroup(group));
    if (!judged || resources.length === 0) return { unreachable, dead: false };
    const entries = resources.map((entry, k) => ({ entry, k, targets: unambiguousTargets(discovery, entry) }));
    const known = entries.filter((e): e is { entry: string; k: number; targets: EntryTarget[] } => e.targets !== undefined);
    // Other entries may still match: then the judged entries are reported one by one.
    return checkOperations(rule, path, webhook, known, entries.length - known.length);
  }
  const entries = resources.map((entry, k) => ({ entry, k, targets: typeof entry !== 'string' || entry === '' ? [] : entryTargets(discovery, rule, entry) }));
  // Unknown entries are unknown-resource's; they are left out here.
  const known = entries.filter((e) => e.targets.length > 0);
  // No entry names a resource the target serves. In built-in groups nothing else can serve one
  // (a CRD cannot define a resource in a built-in group): the rule is dead, unknown-resource says why.
  if (known.length === 0) return { unreachable, dead: resources.length > 0 && groups.every((group) => discovery.isKnownBuiltinGroup(group)) };
  const allKnown = known.length === entries.length;

  let live = known.filter(({ entry, k, targets }) => {
    if (targets.every((t) => isExemptRequest(t.info.group, t.info.resource))) {
      unreachable.push({ reason: 'exempt', path: [...path, 'resources', k], data: { webhook, entry } });
      return false;
    }
    if (virtualExcluded && targets.every((t) => isVirtual(t) || isExemptRequest(t.info.group, t.info.resource))) {
      unreachable.push({ reason: 'virtual', path: [...path, 'resources', k], data: { webhook, entry, kube } });
      return false;
    }
    return true;
  });
  if (live.length === 0) return { unreachable, dead: allKnown };

  // scope: a rule entry whose every target the rule's scope excludes.
  const anyOperation = { ...rule, operations: ['*'] };
  const scopeOk = (t: EntryTarget): boolean => ruleMatches(anyOperation, requestFor(t, 'CREATE'));
  const scope = rule.scope ?? '*';
  if (scope !== '*' && allKnown) {
    const outOfScope = live.filter(({ targets }) => !targets.some(scopeOk));
    const names = outOfScope.map((e) => e.entry);
    // facts §4: a Namespace is cluster-scoped for `scope`, though requests for it carry its name as namespace.
    const kind = scope === 'Cluster' ? 'namespaced' : 'cluster-scoped';
    const note = (names: readonly string[]): string => (scope === 'Namespaced' && names.some((n) => n.split('/')[0] === 'namespaces') ? ' (Namespaces count as cluster-scoped)' : '');
    if (outOfScope.length === live.length) {
      // "*" stands for many resources: "the resources "*" matches are namespaced".
      const wildcard = names.some((n) => n.split('/')[0] === '*');
      const resources = wildcard ? `the resources ${list(names)} ${names.length === 1 ? 'matches' : 'match'}` : list(names);
      unreachable.push({ reason: 'scope', path: [...path, 'scope'], data: { webhook, scope, resources, is: wildcard ? 'are' : verb(names), kind: `${kind}${note(names)}` } });
      return { unreachable, dead: true };
    }
    for (const { entry, k } of outOfScope) unreachable.push({ reason: 'scopeEntry', path: [...path, 'resources', k], data: { webhook, scope, entry, kind: `${kind}${note([entry])}` } });
    live = live.filter((e) => !outOfScope.includes(e));
  }

  // Targets outside the scope are the scope check's; an entry left with none is not judged here.
  const scoped = live.map((e) => ({ ...e, targets: e.targets.filter(scopeOk) })).filter((e) => e.targets.length > 0);
  const result = checkOperations(rule, path, webhook, scoped);
  unreachable.push(...result.unreachable);
  return { unreachable, dead: result.dead && allKnown && scoped.length === live.length };
}

/** The unreachable parts of a webhook's rules, and whether any request reaches it at all. */
/**
 * The analysis per webhook and discovery (one discovery per run): the engine, unreachable-rule,
 * ca-bundle and non-idempotent-mutator all ask for the same webhooks.
 */
const REACHABILITY = memoKey<Map<Readonly<Webhook>, WebhookReachability>>('reachability per webhook');

export function webhookReachability(webhook: Readonly<Webhook>, path: FieldPath, label: string, scope: Pick<RunScope, 'discovery' | 'kubeVersion' | 'memo'>): WebhookReachability {
  return scope.memo.perObject(REACHABILITY, webhook, () => analyseWebhook(webhook, path, label, scope.discovery, scope.kubeVersion));
}

function analyseWebhook(webhook: Readonly<Webhook>, path: FieldPath, label: string, discovery: Discovery, kubeVersion: KubeVersion): WebhookReachability {
  const rules = webhook.rules;
  const unreachable: Unreachable[] = [];
  // A written `rules: []` is reported; an absent list is how some controllers ship webhooks
  // whose rules they fill in at run time. Either way no request reaches the webhook as written.
  if (!Array.isArray(rules) || rules.length === 0) {
    if (Array.isArray(rules)) unreachable.push({ reason: 'emptyRules', path: [...path, 'rules'], data: { webhook: label } });
    return { unreachable, neverCalled: true, deadRules: new Set(), rulesAbsent: !Array.isArray(rules) };
  }
  const virtualExcluded = isAtLeast(kubeVersion, 1, 37);
  const connectOnly: number[] = [];
  const deadRules = new Set<number>();
  let others = 0;
  rules.forEach((rule, j) => {
    if (rule === null || typeof rule !== 'object') {
      others++;
      return;
    }
    const result = checkRule(discovery, rule, [...path, 'rules', j], label, formatKubeVersion(kubeVersion), virtualExcluded);
    unreachable.push(...result.unreachable);
    if (result.dead) {
      // Said dead by unreachable-rule (a rule dead for another reason, an unserved version, is
      // another rule's to report, and stays judged elsewhere).
      if (result.unreachable.length > 0) deadRules.add(j);
      return;
    }
    if (isConnectOnly(rule)) connectOnly.push(j);
    else others++;
  });
  // facts §5 step 2: a non-empty objectSelector never matches CONNECT (no object, no labels).
  if (connectOnly.length > 0 && !isEmptySelector(webhook.objectSelector)) {
    const at = [...path, 'objectSelector'];
    if (others === 0) {
      unreachable.push({ reason: 'objectSelector', path: at, data: { webhook: label } });
      return { unreachable, neverCalled: true, deadRules, rulesAbsent: false };
    }
    const names = connectOnly.map((j) => `rules[${j}]`);
    const data = names.length === 1 ? { rules: `rule ${names[0]}`, call: 'never calls' } : { rules: `rules ${names.join(', ')}`, call: 'never call' };
    unreachable.push({ reason: 'objectSelectorSome', path: at, data: { webhook: label, ...data } });
  }
  return { unreachable, neverCalled: connectOnly.length === 0 && others === 0, deadRules, rulesAbsent: false };
}

/**
 * Whether findings about a webhook's own settings apply: it is called, or it has no `rules` at
 * all (a controller fills them in at run time), in a configuration that is not a patch fragment
 * (whose webhooks lack rules because the base has them). Rules that report several webhooks in
 * one finding filter with it, as the engine does for one webhook (RuleMeta.aboutSettings).
 */
export function settingsApply(object: WebhookConfigurationObject, entry: WebhookEntry, scope: Pick<RunScope, 'discovery' | 'kubeVersion' | 'memo'>): boolean {
  const reach = webhookReachability(entry.webhook, entry.path, entry.label, scope);
  return !reach.neverCalled || (reach.rulesAbsent && !isFragment(object));
}
