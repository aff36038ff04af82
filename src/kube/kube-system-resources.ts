import { ObjectMemo } from '../cache.js';
export interface BuiltinGroup {
  readonly versions: readonly string[];
  readonly namespacedResources: readonly string[];
}

/**
 * The resources that the control plane and node components themselves write in kube-system:
 * kubelets (pods and their status, leases, events, service account tokens), the scheduler
 * (pods/binding, leases), controllers (workloads, endpoints, endpointslices, jobs), the API
 * server's RBAC bootstrap (roles, rolebindings), and the add-ons they run there (CoreDNS,
 * kube-proxy: configmaps, secrets, services). Ingresses, network policies, quotas and the like
 * are built in but not part of how a cluster recovers.
 */
export const KUBE_SYSTEM_WRITTEN: Readonly<Record<string, BuiltinGroup>> = {
  '': { versions: ['v1'], namespacedResources: ['bindings', 'configmaps', 'endpoints', 'events', 'pods', 'secrets', 'serviceaccounts', 'services'] },
  apps: { versions: ['v1'], namespacedResources: ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'] },
  batch: { versions: ['v1'], namespacedResources: ['jobs'] },
  'coordination.k8s.io': { versions: ['v1'], namespacedResources: ['leases'] },
  'discovery.k8s.io': { versions: ['v1'], namespacedResources: ['endpointslices'] },
  'events.k8s.io': { versions: ['v1'], namespacedResources: ['events'] },
  'rbac.authorization.k8s.io': { versions: ['v1'], namespacedResources: ['rolebindings', 'roles'] },
};

/**
 * Of those, the resources that the system itself deletes in kube-system: controllers scaling
 * down and rolling out (pods, replicasets, controllerrevisions), the garbage collection of
 * events, finished jobs and expired API server identity leases, and the endpoints controllers.
 * Workloads, Services, ConfigMaps, Secrets and RBAC objects there are deleted by people and
 * installers, not by the control plane to keep running.
 */
export const KUBE_SYSTEM_DELETED: Readonly<Record<string, BuiltinGroup>> = {
  '': { versions: ['v1'], namespacedResources: ['endpoints', 'events', 'pods'] },
  apps: { versions: ['v1'], namespacedResources: ['controllerrevisions', 'replicasets'] },
  batch: { versions: ['v1'], namespacedResources: ['jobs'] },
  'coordination.k8s.io': { versions: ['v1'], namespacedResources: ['leases'] },
  'discovery.k8s.io': { versions: ['v1'], namespacedResources: ['endpointslices'] },
  'events.k8s.io': { versions: ['v1'], namespacedResources: ['events'] },
};

/** A namespaced built-in resource that a rule's apiGroups/apiVersions/resources can match. */
export interface BuiltinMatch {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
}

function matchesName(pattern: string, name: string): boolean {
  return pattern === '*' || pattern === name;
}

/** Object.entries of each table, once (the tables are constants). */
const tableEntries = new ObjectMemo<Readonly<Record<string, BuiltinGroup>>, [string, BuiltinGroup][]>();

/**
 * Every resource of the table that the rule's entries name, in order (group, entry, resource):
 * `shown` as a message names it (`*` for an entry `*`), and `concrete`, the table's resource the
 * entry reaches (what a request names). An entry `x` matches the main resource only, `x/y` the
 * subresource, `x/*` and `*\/*` any (facts §5 step 3).
 */
function* eachResourceMatch(
  table: Readonly<Record<string, BuiltinGroup>>,
  apiGroups: readonly string[],
  apiVersions: readonly string[],
  resources: readonly string[],
): Generator<{ readonly shown: BuiltinMatch; readonly concrete: BuiltinMatch }> {
  const entries = tableEntries.get(table, Object.entries);
  for (const [group, info] of entries) {
    if (!apiGroups.some((g) => matchesName(g, group))) continue;
    if (!apiVersions.some((v) => v === '*' || info.versions.includes(v))) continue;
    for (const entry of resources) {
      const slash = entry.indexOf('/');
      const resourcePart = slash < 0 ? entry : entry.slice(0, slash);
      const subresource = slash < 0 ? '' : entry.slice(slash + 1);
      for (const name of info.namespacedResources) {
        if (!matchesName(resourcePart, name)) continue;
        // A `*` subresource matches the object itself too: the API server's rule matcher
        // (apiserver plugin/webhook/predicates/rules/rules.go resource()) takes `sub == "*"` for any
        // subresource of the request, "" included (s37b B-4, s37c 4-A).
        if (subresource === '*') yield { shown: { group, resource: resourcePart === '*' ? '*' : name, subresource }, concrete: { group, resource: name, subresource: '' } };
        yield { shown: { group, resource: resourcePart === '*' ? '*' : name, subresource }, concrete: { group, resource: name, subresource } };
      }
    }
  }
}

/** Every resource of the table that the rule names (eachResourceMatch). */
export function resourceMatches(
  table: Readonly<Record<string, BuiltinGroup>>,
  apiGroups: readonly string[],
  apiVersions: readonly string[],
  resources: readonly string[],
): { readonly shown: BuiltinMatch; readonly concrete: BuiltinMatch }[] {
  return [...eachResourceMatch(table, apiGroups, apiVersions, resources)];
}

/** The first resource of `table` that the rule names, as a message names it, or undefined when it names none of them. */
export function firstResourceMatch(
  table: Readonly<Record<string, BuiltinGroup>>,
  apiGroups: readonly string[],
  apiVersions: readonly string[],
  resources: readonly string[],
): BuiltinMatch | undefined {
  return eachResourceMatch(table, apiGroups, apiVersions, resources).next().value?.shown;
}

