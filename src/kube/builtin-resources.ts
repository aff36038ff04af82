/**
 * The namespaced resources that Kubernetes 1.35 itself serves (kube-apiserver's built-in
 * groups, as `kubectl api-resources --namespaced=true` lists them on a cluster with the default
 * feature gates), with the group versions served by default. Subresources take the scope of
 * their parent. Custom resources and aggregated APIs (metrics.k8s.io) are not here.
 */
export interface BuiltinGroup {
  readonly versions: readonly string[];
  readonly namespacedResources: readonly string[];
}

export const BUILTIN_NAMESPACED: Readonly<Record<string, BuiltinGroup>> = {
  '': {
    versions: ['v1'],
    namespacedResources: ['bindings', 'configmaps', 'endpoints', 'events', 'limitranges', 'persistentvolumeclaims', 'pods', 'podtemplates', 'replicationcontrollers', 'resourcequotas', 'secrets', 'serviceaccounts', 'services'],
  },
  apps: { versions: ['v1'], namespacedResources: ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'] },
  'authorization.k8s.io': { versions: ['v1'], namespacedResources: ['localsubjectaccessreviews'] },
  autoscaling: { versions: ['v1', 'v2'], namespacedResources: ['horizontalpodautoscalers'] },
  batch: { versions: ['v1'], namespacedResources: ['cronjobs', 'jobs'] },
  'coordination.k8s.io': { versions: ['v1'], namespacedResources: ['leases'] },
  'discovery.k8s.io': { versions: ['v1'], namespacedResources: ['endpointslices'] },
  'events.k8s.io': { versions: ['v1'], namespacedResources: ['events'] },
  'networking.k8s.io': { versions: ['v1'], namespacedResources: ['ingresses', 'networkpolicies'] },
  policy: { versions: ['v1'], namespacedResources: ['poddisruptionbudgets'] },
  'rbac.authorization.k8s.io': { versions: ['v1'], namespacedResources: ['rolebindings', 'roles'] },
  'resource.k8s.io': { versions: ['v1'], namespacedResources: ['resourceclaims', 'resourceclaimtemplates'] },
  'storage.k8s.io': { versions: ['v1'], namespacedResources: ['csistoragecapacities'] },
};

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

/** A namespaced built-in resource that a rule's apiGroups/apiVersions/resources can match. */
export interface BuiltinMatch {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
}

function matchesName(pattern: string, name: string): boolean {
  return pattern === '*' || pattern === name;
}

/**
 * The first resource of `table` that the rule names, or undefined when it names none of them. An entry `x` matches the main resource only, `x/y` the
 * subresource, `x/*` and `*\/*` any (facts §5 step 3).
 */
export function firstResourceMatch(
  table: Readonly<Record<string, BuiltinGroup>>,
  apiGroups: readonly string[],
  apiVersions: readonly string[],
  resources: readonly string[],
): BuiltinMatch | undefined {
  for (const [group, info] of Object.entries(table)) {
    if (!apiGroups.some((g) => matchesName(g, group))) continue;
    if (!apiVersions.some((v) => v === '*' || info.versions.includes(v))) continue;
    for (const entry of resources) {
      const slash = entry.indexOf('/');
      const resourcePart = slash < 0 ? entry : entry.slice(0, slash);
      const subresourcePart = slash < 0 ? '' : entry.slice(slash + 1);
      const resource = info.namespacedResources.find((name) => matchesName(resourcePart, name));
      if (resource !== undefined) return { group, resource: resourcePart === '*' ? '*' : resource, subresource: subresourcePart };
    }
  }
  return undefined;
}

/**
 * Cluster-scoped resources of the built-in groups (Kubernetes 1.35). A namespaceSelector never
 * filters requests for them; Namespaces themselves are the exception (matched against their
 * own labels) and are not listed here.
 */
export const BUILTIN_CLUSTER_SCOPED: Readonly<Record<string, readonly string[]>> = {
  '': ['componentstatuses', 'nodes', 'persistentvolumes'],
  'admissionregistration.k8s.io': ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'validatingwebhookconfigurations'],
  'apiextensions.k8s.io': ['customresourcedefinitions'],
  'apiregistration.k8s.io': ['apiservices'],
  'authentication.k8s.io': ['selfsubjectreviews', 'tokenreviews'],
  'authorization.k8s.io': ['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'subjectaccessreviews'],
  'certificates.k8s.io': ['certificatesigningrequests', 'clustertrustbundles'],
  'flowcontrol.apiserver.k8s.io': ['flowschemas', 'prioritylevelconfigurations'],
  'internal.apiserver.k8s.io': ['storageversions'],
  'networking.k8s.io': ['ingressclasses', 'ipaddresses', 'servicecidrs'],
  'node.k8s.io': ['runtimeclasses'],
  'rbac.authorization.k8s.io': ['clusterrolebindings', 'clusterroles'],
  'resource.k8s.io': ['deviceclasses', 'resourceslices'],
  'scheduling.k8s.io': ['priorityclasses'],
  'storage.k8s.io': ['csidrivers', 'csinodes', 'storageclasses', 'volumeattachments', 'volumeattributesclasses'],
  'storagemigration.k8s.io': ['storageversionmigrations'],
};

/** Whether `group`/`resource` (a name, not a wildcard) is a known cluster-scoped built-in. */
export function isBuiltinClusterScoped(group: string, resource: string): boolean {
  return BUILTIN_CLUSTER_SCOPED[group]?.includes(resource) ?? false;
}
