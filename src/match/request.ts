/**
 * Does the API server call this webhook for this request? The one implementation of facts §5
 * (k8s.io/apiserver plugin/webhook/generic/webhook.go ShouldCallHook and the predicates), used
 * by every rule that reasons about what a webhook intercepts.
 */
import type { Discovery, GroupVersionResource } from '../kube/discovery/discovery.js';
import type { LabelSelector, RuleWithOperations, Webhook } from '../model/types.js';
import { isEmptySelector, selectorHasPlaceholder, selectorMatches, type Labels } from './selector.js';
import { ObjectMemo } from '../cache.js';

export const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface AdmissionRequest {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** "" for the main resource. */
  readonly subresource: string;
  /**
   * The request's namespace: null for cluster-scoped objects; for a Namespace object, its own
   * name (as the API server sets it).
   */
  readonly namespace: string | null;
  /**
   * Labels of the request's Namespace as stored (or, for a Namespace CREATE/UPDATE, the
   * incoming object's labels). Undefined when unknown.
   */
  readonly namespaceLabels?: Labels;
  /** The new object's labels; null when there is no new object (DELETE, CONNECT); undefined when unknown. */
  readonly objectLabels?: Labels | null;
  /** The old object's labels; null when there is none (CREATE, CONNECT); undefined when unknown. */
  readonly oldObjectLabels?: Labels | null;
}

export type NotCalledReason = 'exempt-kind' | 'no-rule' | 'namespace-selector' | 'object-selector';

export type MatchOutcome =
  | {
      readonly called: true;
      /** Index of the first matching rule. */
      readonly rule: number;
      /** Set when the rule matched an equivalent resource (matchPolicy: Equivalent), not the request's own. */
      readonly equivalent: GroupVersionResource | null;
      /** Conditions the API server evaluates before calling (cannot be decided from the request alone). */
      readonly dependsOnMatchConditions: boolean;
    }
  | { readonly called: false; readonly reason: NotCalledReason }
  | {
      /** A selector needs labels the request does not give. */
      readonly called: 'unknown';
      readonly rule: number;
      readonly unknown: 'namespace-labels' | 'object-labels';
    };

/** facts §7: requests for these kinds never reach any webhook. */
export const EXEMPT_ADMISSION_RESOURCES: ReadonlySet<string> = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/**
 * The labels of the object and the old object that a request carries: CREATE has no old
 * object, DELETE no new one, CONNECT neither (the objectSelector then never matches), UPDATE
 * both (taken as the same here).
 */
export function objectLabelsFor(operation: Operation, labels: Labels | undefined): Pick<AdmissionRequest, 'objectLabels' | 'oldObjectLabels'> {
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

export function isExemptRequest(group: string, resource: string): boolean {
  return group === 'admissionregistration.k8s.io' && EXEMPT_ADMISSION_RESOURCES.has(resource);
}

const isNamespaceResource = (group: string, resource: string): boolean => group === '' && resource === 'namespaces';

function nameMatches(pattern: string, value: string): boolean {
  return pattern === '*' || pattern === value;
}

/** One rule entry against a resource/subresource pair (rules.go: split at the first '/'). */
function resourceEntryMatches(entry: string, resource: string, subresource: string): boolean {
  const slash = entry.indexOf('/');
  const resourcePart = slash < 0 ? entry : entry.slice(0, slash);
  const subresourcePart = slash < 0 ? '' : entry.slice(slash + 1);
  return nameMatches(resourcePart, resource) && nameMatches(subresourcePart, subresource);
}

function scopeMatches(scope: string | undefined, request: Pick<AdmissionRequest, 'group' | 'version' | 'resource' | 'namespace'>): boolean {
  switch (scope ?? '*') {
    case 'Namespaced':
      return request.namespace !== null && !isNamespaceResource(request.group, request.resource);
    case 'Cluster':
      return request.namespace === null || (isNamespaceResource(request.group, request.resource) && request.version === 'v1');
    default:
      return true;
  }
}

export function ruleMatches(rule: RuleWithOperations, request: Pick<AdmissionRequest, 'operation' | 'group' | 'version' | 'resource' | 'subresource' | 'namespace'>): boolean {
  return (
    scopeMatches(rule.scope, request) &&
    (rule.operations ?? []).some((operation) => operation === '*' || operation === request.operation) &&
    (rule.apiGroups ?? []).some((group) => nameMatches(group, request.group)) &&
    (rule.apiVersions ?? []).some((version) => nameMatches(version, request.version)) &&
    // (A null entry decodes as "" in Go, which matches nothing; the API server rejects it.)
    (rule.resources ?? []).some((entry) => typeof entry === 'string' && resourceEntryMatches(entry, request.resource, request.subresource))
  );
}

/**
 * A rule in the shape the matcher reads fastest: its lists as Sets, its resource entries split at
 * the first '/'. Built once per rules array (the model is read-only) and kept as long as the array.
 */
export interface CompiledRule {
  readonly scope: string;
  readonly operations: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
  readonly versions: ReadonlySet<string>;
  /** [resource, subresource] pairs. */
  readonly resources: readonly (readonly [string, string])[];
  /** Equal for two rules that match the same requests (their fields as JSON). */
  readonly key: string;
}

const compiled = new ObjectMemo<readonly (RuleWithOperations | null)[], readonly (CompiledRule | null)[]>();

const listOf = (value: unknown): readonly string[] => (Array.isArray(value) ? (value as string[]) : []);

export function compileRule(rule: RuleWithOperations | null): CompiledRule | null {
  if (rule === null || typeof rule !== 'object') return null;
  const scope = rule.scope ?? '*';
  const operations = listOf(rule.operations);
  const groups = listOf(rule.apiGroups);
  const versions = listOf(rule.apiVersions);
  const resources = listOf(rule.resources);
  return {
    scope,
    operations: new Set(operations),
    groups: new Set(groups),
    versions: new Set(versions),
    resources: resources.map((entry): readonly [string, string] => {
      const slash = entry.indexOf('/');
      return slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
    }),
    key: JSON.stringify([scope, operations, groups, versions, resources]),
  };
}

/** The rules compiled, once per rules array (the model is read-only). */
export function compiledRules(rules: readonly (RuleWithOperations | null)[]): readonly (CompiledRule | null)[] {
  return compiled.get(rules, () => rules.map(compileRule));
}

const hasOrAny = (set: ReadonlySet<string>, value: string): boolean => set.has(value) || set.has('*');

/** ruleMatches on a compiled rule; the same checks in the same order. */
export function compiledRuleMatches(rule: CompiledRule, request: Pick<AdmissionRequest, 'operation' | 'group' | 'version' | 'resource' | 'subresource' | 'namespace'>): boolean {
  if (rule.scope === 'Namespaced') {
    if (!(request.namespace !== null && !isNamespaceResource(request.group, request.resource))) return false;
  } else if (rule.scope === 'Cluster') {
    if (!(request.namespace === null || (isNamespaceResource(request.group, request.resource) && request.version === 'v1'))) return false;
  }
  if (!hasOrAny(rule.operations, request.operation) || !hasOrAny(rule.groups, request.group) || !hasOrAny(rule.versions, request.version)) return false;
  for (const [resource, subresource] of rule.resources) {
    if ((resource === '*' || resource === request.resource) && (subresource === '*' || subresource === request.subresource)) return true;
  }
  return false;
}

/**
 * Whether any of the rules names this group and resource/subresource (or '*'), whatever the
 * operation, version and scope: a cheap prefilter, since matchingRule (exactly or through an
 * equivalent version, which keeps the group and resource) can only match such a rule.
 */
export function rulesMayMatch(rules: readonly (RuleWithOperations | null)[] | undefined, group: string, resource: string, subresource: string): boolean {
  for (const rule of compiledRules(rules ?? [])) {
    if (rule === null || !hasOrAny(rule.groups, group)) continue;
    for (const [r, sub] of rule.resources) if ((r === '*' || r === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

/** The first rule that matches, exactly or (matchPolicy Equivalent) through another version of the resource. */
export function matchingRule(webhook: Readonly<Webhook>, request: AdmissionRequest, discovery: Discovery | undefined): { rule: number; equivalent: GroupVersionResource | null } | undefined {
  const rules = compiledRules(webhook.rules ?? []);
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    if (rule !== null && compiledRuleMatches(rule, request)) return { rule: index, equivalent: null };
  }
  if ((webhook.matchPolicy ?? 'Equivalent') !== 'Equivalent' || discovery === undefined) return undefined;
  // An equivalent has the request's group and resource: without a rule naming both (or '*') there is nothing to convert.
  if (!rules.some((rule) => rule !== null && hasOrAny(rule.groups, request.group) && hasOrAny(rule.operations, request.operation) && rule.resources.some(([resource]) => resource === '*' || resource === request.resource))) return undefined;
  const equivalents = discovery.equivalents(request);
  if (equivalents.length === 0) return undefined;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    if (rule === null) continue;
    for (const equivalent of equivalents) {
      const candidate = { ...request, group: equivalent.group, version: equivalent.version, resource: equivalent.resource };
      if (compiledRuleMatches(rule, candidate)) return { rule: index, equivalent: { group: equivalent.group, version: equivalent.version, resource: equivalent.resource } };
    }
  }
  return undefined;
}

function namespaceSelectorOutcome(selector: LabelSelector | undefined, request: AdmissionRequest): boolean | 'unknown' {
  // Cluster-scoped objects other than Namespaces are never filtered by namespace.
  if (request.namespace === null && !isNamespaceResource(request.group, request.resource)) return true;
  if (isEmptySelector(selector)) return true;
  if (selectorHasPlaceholder(selector)) return 'unknown';
  const ownLabels = isNamespaceResource(request.group, request.resource) && request.subresource === '' && (request.operation === 'CREATE' || request.operation === 'UPDATE');
  const labels = ownLabels ? (request.objectLabels ?? request.namespaceLabels) : request.namespaceLabels;
  if (labels === undefined || labels === null) return 'unknown';
  return selectorMatches(selector, labels) === true;
}

function objectSelectorOutcome(selector: LabelSelector | undefined, request: AdmissionRequest): boolean | 'unknown' {
  if (isEmptySelector(selector)) return true;
  // CONNECT carries options, not an object with labels: a non-empty selector never matches.
  if (request.operation === 'CONNECT') return false;
  if (selectorHasPlaceholder(selector)) return 'unknown';
  const candidates = [request.objectLabels, request.oldObjectLabels];
  if (candidates.some((labels) => labels !== undefined && labels !== null && selectorMatches(selector, labels) === true)) return true;
  if (candidates.some((labels) => labels === undefined)) return 'unknown';
  return false;
}

export function matchWebhook(webhook: Readonly<Webhook>, request: AdmissionRequest, discovery?: Discovery): MatchOutcome {
  if (isExemptRequest(request.group, request.resource)) return { called: false, reason: 'exempt-kind' };
  const rule = matchingRule(webhook, request, discovery);
  // The API server evaluates the selectors first, but without a matching rule nothing else matters.
  if (rule === undefined) return { called: false, reason: 'no-rule' };
  return selectorsOutcome(webhook, request, rule);
}

/**
 * matchWebhook past the rules, for a caller that already knows the matching rule of a
 * request that is not exempt (matchingRule's answer for the same operation, resource and
 * namespace scope: the selectors decide the rest).
 */
export function selectorsOutcome(webhook: Readonly<Webhook>, request: AdmissionRequest, rule: { rule: number; equivalent: GroupVersionResource | null }): MatchOutcome {
  const namespaceOk = namespaceSelectorOutcome(webhook.namespaceSelector, request);
  if (namespaceOk === false) return { called: false, reason: 'namespace-selector' };
  const objectOk = objectSelectorOutcome(webhook.objectSelector, request);
  if (objectOk === false) return { called: false, reason: 'object-selector' };
  if (namespaceOk === 'unknown') return { called: 'unknown', rule: rule.rule, unknown: 'namespace-labels' };
  if (objectOk === 'unknown') return { called: 'unknown', rule: rule.rule, unknown: 'object-labels' };
  return { called: true, rule: rule.rule, equivalent: rule.equivalent, dependsOnMatchConditions: (webhook.matchConditions ?? []).length > 0 };
}
