/**
 * A binding whose paramRef cannot find params for the requests it matches, whatever params the
 * cluster holds (k8s.io/apiserver pkg/admission/plugin/policy/generic policy_dispatcher.go
 * CollectParams): a `namespace` for a cluster-scoped paramKind, or none for a namespaced
 * paramKind on a request without a namespace (a cluster-scoped resource). Either is a
 * configuration error of the binding, which the policy's failurePolicy turns into a rejection
 * (Fail) or into the policy being skipped (Ignore).
 */
import type { Discovery, ResourceInfo } from '../src/kube/discovery/discovery.js';
import { splitApiVersion } from '../src/kube/api-version.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { entryTargets, withAllGroups } from '../src/match/targets.js';
import type { PolicyObject } from '../src/model/objects.js';
import { bindingSpec, isBinding, matchResourcesOf, policySpec } from '../src/model/policies.js';
import type { LabelSelector, NamedRuleWithOperations } from '../src/model/types.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';

type MessageId = 'namespaceForClusterParams' | 'noNamespaceForClusterRequests';

/** The resource a paramKind names, when discovery knows it (built in, or a CRD of the run). */
function paramResource(discovery: Discovery, apiVersion: unknown, kind: unknown): ResourceInfo | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === '') return undefined;
  const { group, version } = splitApiVersion(apiVersion);
  return discovery.resources(group, version).find((info) => info.kind === kind);
}

/**
 * Groups whose requests the CEL admission plugins never see: the virtual review resources
 * (TokenReviews, SubjectAccessReviews), and the admission policies and bindings themselves, which
 * the policy plugin leaves alone (generic plugin isPolicyResource).
 */
const NEVER_ADMITTED_GROUPS = new Set(['authentication.k8s.io', 'authorization.k8s.io']);
const POLICY_RESOURCES = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** The operations a request for the resource (or subresource) can be: connect subresources take CONNECT, other subresources UPDATE. */
function operationsTaken(info: ResourceInfo, subresource: string): readonly string[] {
  if (NEVER_ADMITTED_GROUPS.has(info.group) || (info.group === 'admissionregistration.k8s.io' && POLICY_RESOURCES.has(info.resource))) return [];
  // ComponentStatuses are read only.
  if (info.group === '' && info.resource === 'componentstatuses') return [];
  if (subresource === '') return ['CREATE', 'UPDATE', 'DELETE'];
  if (info.connect.has(subresource)) return ['CONNECT'];
  return info.readOnly.has(subresource) ? [] : ['UPDATE'];
}

/** A cluster-scoped (resource, subresource) the rules match, with the operations they match it for. */
interface ClusterTarget {
  readonly info: ResourceInfo;
  readonly operations: Set<string>;
}

/**
 * Every (resource, subresource) without a namespace that the rules match, with the operations
 * they match it for among those it takes; with `named` false, rules limited to resourceNames are
 * left out (an exclusion of some objects leaves the others in).
 */
function clusterScopedTargets(discovery: Discovery, rules: readonly (NamedRuleWithOperations | null)[], named = true): Map<string, ClusterTarget> {
  const found = new Map<string, ClusterTarget>();
  for (const rule of rules) {
    if (rule === null || typeof rule !== 'object' || rule.scope === 'Namespaced') continue;
    if (!named && (rule.resourceNames ?? []).length > 0) continue;
    const operations = rule.operations ?? [];
    const spelled = withAllGroups(discovery, rule);
    for (const entry of rule.resources ?? []) {
      for (const { info, subresource } of entryTargets(discovery, spelled, entry)) {
        // A Namespace's own requests are left out: which namespace the API server gives them is not asserted here.
        if (info.namespaced || (info.group === '' && info.resource === 'namespaces')) continue;
        const taken = operationsTaken(info, subresource).filter((operation) => operations.includes(operation) || operations.includes('*'));
        if (taken.length === 0) continue;
        const key = `${info.group}/${info.resource}${subresource === '' ? '' : `/${subresource}`}`;
        const target = found.get(key) ?? { info, operations: new Set<string>() };
        for (const operation of taken) target.operations.add(operation);
        found.set(key, target);
      }
    }
  }
  return found;
}

/** Whether a selector matches every object (absent or without requirements). */
function matchesAll(selector: LabelSelector | undefined | null): boolean {
  if (selector === undefined || selector === null) return true;
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

function checkBinding(binding: PolicyObject, run: RuleRun): Violation<MessageId>[] {
  if (!isBinding(binding)) return [];
  const paramRef = bindingSpec(binding)?.paramRef;
  if (paramRef === undefined || paramRef === null || typeof paramRef !== 'object') return [];
  const violations: Violation<MessageId>[] = [];
  for (const policy of policyIndexOf(run).policiesOf(binding).filter((each) => each.decodable)) {
    const spec = policySpec(policy);
    const params = paramResource(run.discovery, spec?.paramKind?.apiVersion, spec?.paramKind?.kind);
    if (spec === undefined || params === undefined) continue;
    const fail = spec.failurePolicy !== 'Ignore';
    const consequence = fail ? 'failurePolicy Fail rejects them' : 'failurePolicy Ignore skips the policy for them';
    const severity = fail ? ('error' as const) : ('warning' as const);
    const namespace = typeof paramRef.namespace === 'string' ? paramRef.namespace : '';
    if (!params.namespaced && namespace !== '') {
      violations.push({ messageId: 'namespaceForClusterParams', data: { kind: params.kind, policy: policy.name ?? '(unnamed)', consequence }, path: ['spec', 'paramRef', 'namespace'], severity });
      continue;
    }
    if (!params.namespaced || namespace !== '') continue;
    // The requests both the policy and the binding match, with no namespace of their own. An
    // objectSelector may leave them out (matchConditions may not: params are found before they run).
    const own = matchResourcesOf(binding).match;
    const constraints = spec.matchConstraints;
    if (!matchesAll(own?.objectSelector) || !matchesAll(constraints?.objectSelector)) continue;
    // Each target with the operations both match, less those an exclusion of every object of it takes away.
    const matched = clusterScopedTargets(run.discovery, constraints?.resourceRules ?? []);
    const bindingRules = own?.resourceRules ?? [];
    const narrowing = bindingRules.length === 0 ? undefined : clusterScopedTargets(run.discovery, bindingRules);
    const exclusions = [constraints?.excludeResourceRules ?? [], own?.excludeResourceRules ?? []].map((rules) => clusterScopedTargets(run.discovery, rules, false));
    const operationsLeft = (key: string, target: ClusterTarget): string[] =>
      [...target.operations].filter((operation) => (narrowing === undefined || narrowing.get(key)?.operations.has(operation) === true) && !exclusions.some((excluded) => excluded.get(key)?.operations.has(operation) === true));
    // Named by the resource whose writes matter most: Nodes (the kubelet's), then the first in order.
    const left = [...matched].filter(([key, target]) => operationsLeft(key, target).length > 0).map(([key]) => key).sort((a, b) => Number(b === '/nodes') - Number(a === '/nodes'));
    if (left.length === 0) continue;
    const first = matched.get(left[0]!)!.info;
    const resource = left[0]!.slice(left[0]!.indexOf('/') + 1);
    violations.push({
      messageId: 'noNamespaceForClusterRequests',
      data: { kind: params.kind, policy: policy.name ?? '(unnamed)', resource: `${resource} (${first.group === '' ? 'core' : first.group})`, more: left.length > 1 ? ` and ${left.length - 1} more cluster-scoped resources` : '', consequence },
      path: ['spec', 'paramRef'],
      severity,
    });
  }
  return violations;
}

export const rule = defineObjectRule({
  meta: {
    id: 'param-scope',
    title: "A binding's paramRef that cannot find params for the requests it matches",
    aboutCalls: true,
    severity: 'error',
    appliesTo: ['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding'],
    messages: {
      namespaceForClusterParams:
        'paramRef.namespace is set, but the params of policy "{{policy}}" ({{kind}}) are cluster-scoped: every request it matches fails to find them, and {{consequence}}',
      noNamespaceForClusterRequests:
        'paramRef has no namespace, so namespaced {{kind}} params of policy "{{policy}}" are looked up in the request\'s namespace, and requests for {{resource}}{{more}} have none: {{consequence}}',
    },
    help: "The API server looks params up when a binding matches a request, before matchConditions run. A cluster-scoped paramKind takes no paramRef.namespace; a namespaced one without paramRef.namespace is looked up in the request's namespace, which a cluster-scoped resource does not have. Either way the lookup is a configuration error: failurePolicy Fail rejects the request, Ignore skips the policy. Set paramRef.namespace to where the params are (namespaced paramKind), remove it (cluster-scoped paramKind), or narrow the rules to namespaced resources (scope: Namespaced).",
  },
  create(run) {
    return {
      policy: (object) => checkBinding(object, run),
    };
  },
});
