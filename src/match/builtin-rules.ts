/**
 * Whether rules can match a resource that Kubernetes itself serves (pods, services, namespaces,
 * workloads, ...), as opposed to only the custom resources of groups no built-in API serves. A
 * webhook or policy of the second kind checks a project's own objects: a correctness check, not
 * a control over what runs in the cluster.
 */
import type { Discovery } from '../kube/discovery/discovery.js';

interface ResourceRule {
  readonly apiGroups?: readonly string[] | null;
}

export function rulesMatchBuiltins(rules: readonly (ResourceRule | null)[] | undefined | null, discovery: Discovery): boolean {
  return (rules ?? []).some((rule) => rule !== null && typeof rule === 'object' && (rule.apiGroups ?? []).some((group) => group === '*' || discovery.isKnownBuiltinGroup(group)));
}
