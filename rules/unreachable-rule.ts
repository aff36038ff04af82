import type { Discovery } from '../src/kube/discovery/discovery.js';
import { formatKubeVersion, isAtLeast } from '../src/kube/version.js';
import { isExemptRequest, ruleMatches } from '../src/match/request.js';
import { isEmptySelector } from '../src/match/selector.js';
import type { RuleWithOperations } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { allGroupsKnown, entryTargets, type EntryTarget } from './unknown-resource.js';

type MessageId = 'emptyRules' | 'exempt' | 'virtual' | 'scope' | 'scopeEntry' | 'connect' | 'connectEntry' | 'objectSelector' | 'objectSelectorSome';

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

function list(items: readonly string[]): string {
  const quoted = [...new Set(items)].map((item) => `"${item}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

const verb = (items: readonly string[]): string => (new Set(items).size === 1 ? 'is' : 'are');

interface RuleResult {
  readonly violations: Violation<MessageId>[];
  /** Every entry of the rule is reported (or the rule as a whole is). */
  readonly dead: boolean;
}

function checkRule(discovery: Discovery, rule: Readonly<RuleWithOperations>, path: readonly (string | number)[], webhook: string, kube: string, virtualExcluded: boolean): RuleResult {
  const violations: Violation<MessageId>[] = [];
  const groups = rule.apiGroups ?? [];
  // Only rules whose every group discovery knows: a `*` or unknown group may match resources we cannot see.
  if (!allGroupsKnown(discovery, groups)) return { violations, dead: false };
  const entries = (rule.resources ?? []).map((entry, k) => ({ entry, k, targets: entry === '' ? [] : entryTargets(discovery, rule, entry) }));
  // Unknown entries are unknown-resource's; they are left out here.
  const known = entries.filter((e) => e.targets.length > 0);
  if (known.length === 0) return { violations, dead: false };
  const allKnown = known.length === entries.length;

  let live = known.filter(({ entry, k, targets }) => {
    if (targets.every((t) => isExemptRequest(t.info.group, t.info.resource))) {
      violations.push({ messageId: 'exempt', path: [...path, 'resources', k], data: { webhook, entry } });
      return false;
    }
    if (virtualExcluded && targets.every((t) => isVirtual(t) || isExemptRequest(t.info.group, t.info.resource))) {
      violations.push({ messageId: 'virtual', path: [...path, 'resources', k], data: { webhook, entry, kube } });
      return false;
    }
    return true;
  });
  if (live.length === 0) return { violations, dead: true };

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
      violations.push({ messageId: 'scope', path: [...path, 'scope'], data: { webhook, scope, resources, is: wildcard ? 'are' : verb(names), kind: `${kind}${note(names)}` } });
      return { violations, dead: true };
    }
    for (const { entry, k } of outOfScope) violations.push({ messageId: 'scopeEntry', path: [...path, 'resources', k], data: { webhook, scope, entry, kind: `${kind}${note([entry])}` } });
    live = live.filter((e) => !outOfScope.includes(e));
  }

  // CONNECT-only rules: only the connect subresources (exec, attach, portforward, proxy) receive CONNECT.
  if (isConnectOnly(rule)) {
    const connectable = (t: EntryTarget): boolean => t.info.connect.has(t.subresource) && scopeOk(t);
    const without = live.filter(({ targets }) => !targets.some(connectable));
    if (without.length === live.length) {
      const names = without.map((e) => e.entry);
      const index = (rule.operations ?? []).indexOf('CONNECT');
      violations.push({ messageId: 'connect', path: [...path, 'operations', index], data: { webhook, resources: list(names), does: new Set(names).size === 1 ? 'does' : 'do' } });
      return { violations, dead: true };
    }
    for (const { entry, k } of without) violations.push({ messageId: 'connectEntry', path: [...path, 'resources', k], data: { webhook, entry } });
  }
  return { violations, dead: false };
}

export const rule = defineObjectRule({
  meta: {
    id: 'unreachable-rule',
    title: 'A rule can never match a request',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      emptyRules: 'webhook "{{webhook}}" has an empty rules list, so it is never called',
      exempt:
        '"{{entry}}" names admission configuration objects (webhook configurations, admission policies and their bindings), which the API server never sends to webhooks: webhook "{{webhook}}" is never called for them',
      virtual:
        '"{{entry}}" names virtual authentication/authorization reviews, for which the API server no longer calls webhooks from Kubernetes 1.37 on (target: {{kube}}): webhook "{{webhook}}" is never called for them',
      scope: 'scope is {{scope}}, but {{resources}} {{is}} {{kind}}, so webhook "{{webhook}}" is never called through this rule',
      scopeEntry: '"{{entry}}" is {{kind}}, so with scope {{scope}} webhook "{{webhook}}" is never called for it',
      connect:
        'CONNECT is the rule\'s only operation, and {{resources}} {{does}} not accept it (only the exec, attach, portforward and proxy subresources do), so webhook "{{webhook}}" is never called through this rule',
      connectEntry: '"{{entry}}" does not accept CONNECT (only the exec, attach, portforward and proxy subresources do), so this CONNECT-only rule never calls webhook "{{webhook}}" for it',
      objectSelector:
        'webhook "{{webhook}}" has an objectSelector, and its rules only match CONNECT, whose requests carry no object labels: the selector never matches, so the webhook is never called',
      objectSelectorSome:
        'webhook "{{webhook}}" has an objectSelector, which never matches CONNECT requests (they carry no object labels): its CONNECT-only {{rules}} {{call}} it',
    },
    help: 'Remove what cannot match, or fix it: name resources that receive the operation, a scope that fits them, and no objectSelector on CONNECT rules.',
  },
  check(object, context) {
    const { discovery } = context;
    const kube = formatKubeVersion(context.kubeVersion);
    const virtualExcluded = isAtLeast(context.kubeVersion, 1, 37);
    const violations: Violation<MessageId>[] = [];
    for (const entry of webhooksOf(object)) {
      const rules = entry.webhook.rules;
      // Only a written `rules: []`: an absent list is how knative, tekton and rancher ship
      // webhooks whose rules their controller fills in at run time.
      if (Array.isArray(rules) && rules.length === 0) {
        violations.push({ messageId: 'emptyRules', path: [...entry.path, 'rules'], data: { webhook: entry.label } });
        continue;
      }
      const connectOnly: number[] = [];
      let others = 0;
      (rules ?? []).forEach((rule, j) => {
        if (rule === null || typeof rule !== 'object') return;
        const result = checkRule(discovery, rule, [...entry.path, 'rules', j], entry.label, kube, virtualExcluded);
        violations.push(...result.violations);
        if (result.dead) return;
        if (isConnectOnly(rule)) connectOnly.push(j);
        else others++;
      });
      // facts §5 step 2: a non-empty objectSelector never matches CONNECT (no object, no labels).
      if (connectOnly.length > 0 && !isEmptySelector(entry.webhook.objectSelector)) {
        const path = [...entry.path, 'objectSelector'];
        if (others === 0) violations.push({ messageId: 'objectSelector', path, data: { webhook: entry.label } });
        else {
          const names = connectOnly.map((j) => `rules[${j}]`);
          const data = names.length === 1 ? { rules: `rule ${names[0]}`, call: 'never calls' } : { rules: `rules ${names.join(', ')}`, call: 'never call' };
          violations.push({ messageId: 'objectSelectorSome', path, data: { webhook: entry.label, ...data } });
        }
      }
    }
    return violations;
  },
});
