/**
 * Whether a webhook's namespaceSelector can ever decide anything (facts §5 step 1): the API
 * server ignores it for requests without a namespace, except for Namespace objects, which are
 * matched against their own labels.
 */
import type { Discovery } from '../kube/discovery/discovery.js';
import type { RuleWithOperations } from '../model/types.js';

function resourcePart(entry: string): string {
  const slash = entry.indexOf('/');
  return slash < 0 ? entry : entry.slice(0, slash);
}

function canMatchNamespaces(rule: RuleWithOperations): boolean {
  const groups = rule.apiGroups ?? [];
  const versions = rule.apiVersions ?? [];
  return (
    groups.some((g) => g === '' || g === '*') &&
    versions.some((v) => v === 'v1' || v === '*') &&
    (rule.resources ?? []).some((entry) => ['namespaces', '*'].includes(resourcePart(entry)))
  );
}

/** Whether the resource is cluster-scoped in every version discovery knows of it. */
function isClusterScoped(discovery: Discovery, group: string, resource: string): boolean {
  const memo = discovery.derive('scope.isClusterScoped', () => new Map<string, boolean>());
  const key = `${group}\u0000${resource}`;
  let scoped = memo.get(key);
  if (scoped === undefined) {
    scoped = computeClusterScoped(discovery, group, resource);
    memo.set(key, scoped);
  }
  return scoped;
}

function computeClusterScoped(discovery: Discovery, group: string, resource: string): boolean {
  const known = discovery.versions(group).map((version) => discovery.resource(group, version, resource)).filter((info) => info !== undefined);
  return known.length > 0 && known.every((info) => !info.namespaced);
}

/** Whether the rule can match a request that has a namespace (a namespaced resource). */
function canMatchNamespaced(rule: RuleWithOperations, discovery: Discovery): boolean {
  const groups = rule.apiGroups ?? [];
  return (rule.resources ?? []).some((entry) => {
    const resource = resourcePart(entry);
    if (resource === '*' || groups.includes('*')) return true;
    // Resources discovery does not know (custom ones without a CRD in the run) may be namespaced.
    return groups.some((group) => !(group === '' && resource === 'namespaces') && !isClusterScoped(discovery, group, resource));
  });
}

export function namespaceSelectorApplies(rules: readonly (RuleWithOperations | null)[] | undefined, discovery: Discovery): boolean {
  return (rules ?? []).some((rule) => {
    if (rule === null) return false;
    const scope = rule.scope ?? '*';
    if (scope === 'Cluster') return canMatchNamespaces(rule);
    if (scope === 'Namespaced') return canMatchNamespaced(rule, discovery);
    return canMatchNamespaced(rule, discovery) || canMatchNamespaces(rule);
  });
}
