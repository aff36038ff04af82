/**
 * Whether a webhook's namespaceSelector can ever decide anything (facts §5 step 1): the API
 * server ignores it for requests without a namespace, except for Namespace objects, which are
 * matched against their own labels.
 */
import { isBuiltinClusterScoped } from '../kube/builtin-resources.js';
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

/** Whether the rule can match a request that has a namespace (a namespaced resource). */
function canMatchNamespaced(rule: RuleWithOperations): boolean {
  const groups = rule.apiGroups ?? [];
  return (rule.resources ?? []).some((entry) => {
    const resource = resourcePart(entry);
    if (resource === '*' || groups.includes('*')) return true;
    // Unknown groups are custom resources, which may be namespaced.
    return groups.some((group) => resource !== 'namespaces' && !isBuiltinClusterScoped(group, resource));
  });
}

export function namespaceSelectorApplies(rules: readonly (RuleWithOperations | null)[] | undefined): boolean {
  return (rules ?? []).some((rule) => {
    if (rule === null) return false;
    const scope = rule.scope ?? '*';
    if (scope === 'Cluster') return canMatchNamespaces(rule);
    if (scope === 'Namespaced') return canMatchNamespaced(rule);
    return canMatchNamespaced(rule) || canMatchNamespaces(rule);
  });
}
