/**
 * What the system's own objects look like to an objectSelector: the labels that objects in
 * kube-system (control-plane Pods, add-ons, their controllers' objects, bootstrap RBAC) and the
 * cluster's Nodes really carry, with where each comes from. A selector that requires any other
 * label (an opt-in such as `<project>.example.io/inject: "true"`) excludes them; one that
 * requires a label below, with a value such objects have, may select them.
 *
 * Keys are listed exactly: a key under `kubernetes.io/` or `k8s.io/` is not a system label
 * because of its prefix (any project may name its labels `<project>.sigs.k8s.io/...`).
 */
import type { LabelSelector } from '../model/types.js';
import type { Labels } from './selector.js';

/**
 * `any`: generated or chosen per add-on (hashes, names): any value may occur. A list: the
 * values that occur. An empty list: the key occurs on add-ons installed into kube-system, with
 * values we cannot know, so only `Exists` is taken as met.
 */
type SystemLabelValues = 'any' | readonly string[];

export const SYSTEM_OBJECT_LABELS: ReadonlyMap<string, SystemLabelValues> = new Map<string, SystemLabelValues>([
  // kubeadm static Pods: cmd/kubeadm/app/util/staticpod/utils.go ComponentPod sets
  // component=<name>, tier=control-plane; the `kubernetes` Service has component=apiserver,
  // provider=kubernetes (pkg/controlplane/controller/kubernetesservice); GKE and cluster/addons
  // label their control-plane and node add-ons the same way.
  ['component', ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd', 'apiserver', 'cloud-controller-manager', 'kube-addon-manager', 'kube-proxy']],
  ['tier', ['control-plane', 'node']],
  ['provider', ['kubernetes']],
  // The add-on convention: kubeadm's CoreDNS (k8s-app=kube-dns) and kube-proxy (k8s-app=kube-proxy)
  // manifests (cmd/kubeadm/app/phases/addons), cluster/addons (metrics-server, konnectivity-agent,
  // node-local-dns, ...), and most CNI DaemonSets in kube-system.
  ['k8s-app', 'any'],
  // cluster/addons: objects reconciled by the addon manager.
  ['kubernetes.io/cluster-service', ['true']],
  ['addonmanager.kubernetes.io/mode', ['Reconcile', 'EnsureExists']],
  // Labels the workload controllers add to the Pods and objects they create (k8s.io/api apps/v1
  // and batch/v1 well-known labels).
  ['pod-template-hash', 'any'],
  ['controller-revision-hash', 'any'],
  ['pod-template-generation', 'any'],
  ['statefulset.kubernetes.io/pod-name', 'any'],
  ['apps.kubernetes.io/pod-index', 'any'],
  ['job-name', 'any'],
  ['controller-uid', 'any'],
  ['batch.kubernetes.io/job-name', 'any'],
  ['batch.kubernetes.io/controller-uid', 'any'],
  ['batch.kubernetes.io/job-completion-index', 'any'],
  // EndpointSlice and Endpoints controllers (k8s.io/api discovery/v1 well-known labels).
  ['kubernetes.io/service-name', 'any'],
  ['endpointslice.kubernetes.io/managed-by', ['endpointslice-controller.k8s.io', 'endpointslicemirroring-controller.k8s.io']],
  // The API server's endpoint reconciler marks the `kubernetes` Endpoints so that the mirroring
  // controller leaves it (pkg/controlplane/reconcilers).
  ['endpointslice.kubernetes.io/skip-mirror', ['true']],
  // Service labels the EndpointSlice controller copies onto its slices: kubeadm's kube-dns
  // Service carries kubernetes.io/name=CoreDNS (cluster/addons/dns).
  ['kubernetes.io/name', 'any'],
  // The token controller's marks on legacy service account token Secrets (KEP-2799).
  ['kubernetes.io/legacy-token-last-used', 'any'],
  ['kubernetes.io/legacy-token-invalid-since', 'any'],
  ['service.kubernetes.io/headless', ['']],
  // RBAC bootstrap policy: the roles and bindings the API server creates in kube-system
  // (plugin/pkg/auth/authorizer/rbac/bootstrappolicy).
  ['kubernetes.io/bootstrapping', ['rbac-defaults']],
  // API server identity leases in kube-system (pkg/controlplane/apiserver, KEP-1965).
  ['apiserver.kubernetes.io/identity', ['kube-apiserver']],
  // Node labels the kubelet and cloud providers set (k8s.io/api core/v1 well_known_labels.go),
  // and kubeadm's control-plane node labels.
  ['kubernetes.io/hostname', 'any'],
  ['kubernetes.io/os', ['linux', 'windows']],
  ['kubernetes.io/arch', 'any'],
  ['beta.kubernetes.io/os', ['linux', 'windows']],
  ['beta.kubernetes.io/arch', 'any'],
  ['node.kubernetes.io/instance-type', 'any'],
  ['topology.kubernetes.io/zone', 'any'],
  ['topology.kubernetes.io/region', 'any'],
  ['node-role.kubernetes.io/control-plane', ['']],
  ['node-role.kubernetes.io/master', ['']],
  ['node.kubernetes.io/exclude-from-external-load-balancers', ['']],
  // The recommended labels (kubernetes.io docs, "Recommended Labels") and Helm's chart label, on
  // add-ons that Helm charts install into kube-system: their values are the add-ons' own names.
  // Managed clusters label their add-ons in kube-system (EKS's CoreDNS Pods, AKS's add-ons).
  ['eks.amazonaws.com/component', 'any'],
  ['kubernetes.azure.com/managedby', 'any'],
  ['app.kubernetes.io/name', []],
  ['app.kubernetes.io/instance', []],
  ['app.kubernetes.io/component', []],
  ['app.kubernetes.io/part-of', []],
  ['app.kubernetes.io/managed-by', []],
  ['app.kubernetes.io/version', []],
  ['helm.sh/chart', []],
  ['app', []],
]);

/**
 * Whether no system object carries `key` with `value`, as far as the values listed show: a key
 * the system never sets, or one whose values are all known (a non-empty list) and exclude it. A
 * key with values we cannot know (`any`, an empty list) may carry any.
 */
export function systemObjectsNeverCarry(key: string, value: string, likely = false): boolean {
  const values = SYSTEM_OBJECT_LABELS.get(key);
  if (values === undefined) return true;
  // `likely`: a key whose values are add-ons' own names (an empty list) is also taken not to
  // carry a given one; what a rule concludes from that is said at a lower severity.
  if (likely && values !== 'any' && values.length === 0) return true;
  return values !== 'any' && values.length > 0 && !values.includes(value);
}

/** Whether some system object may carry the label `key` with `value` (undefined: any value, for Exists). */
export function systemObjectsCarry(key: string, value: string | undefined): boolean {
  const values = SYSTEM_OBJECT_LABELS.get(key);
  if (values === undefined) return false;
  if (value === undefined || values === 'any') return true;
  return values.includes(value);
}

/** Whether some label key the system's objects carry starts with `prefix` (the keys above are all of them). */
export function systemLabelKeyMayStartWith(prefix: string): boolean {
  for (const key of SYSTEM_OBJECT_LABELS.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/**
 * The domains of the annotations the system's objects in kube-system carry: the control plane's
 * and kubeadm's own (`kubernetes.io`, `k8s.io` and their subdomains: kubeadm.kubernetes.io on
 * static Pods, deployment.kubernetes.io on ReplicaSets, kubectl.kubernetes.io), Helm's on the
 * add-ons it installs (meta.helm.sh), the scrape annotations on add-ons' Services (kubeadm's
 * kube-dns Service carries prometheus.io/port and prometheus.io/scrape), the managed clusters'
 * on theirs (GKE's components.gke.io and cloud.google.com, EKS's eks.amazonaws.com, AKS's
 * kubernetes.azure.com, the k3s and RKE2 add-ons' objectset.rio.cattle.io, OpenShift's
 * openshift.io/scc on every pod), and the network plugin's on every pod it wires, kube-system's
 * CoreDNS among them (cni.projectcalico.org/podIP, Multus's k8s.v1.cni.cncf.io/network-status,
 * OVN-Kubernetes's k8s.ovn.org/pod-networks).
 */
const SYSTEM_ANNOTATION_DOMAINS: readonly string[] = [
  'kubernetes.io',
  'k8s.io',
  'helm.sh',
  'prometheus.io',
  'gke.io',
  'google.com',
  'googleapis.com',
  'amazonaws.com',
  'azure.com',
  'cattle.io',
  'openshift.io',
  'projectcalico.org',
  'cni.cncf.io',
  'ovn.org',
];

/**
 * Whether a system object may carry an annotation whose key starts with `prefix`: unless the
 * prefix names a domain (`<domain>/…`, the domain with a dot) that is none of the above, nor a
 * subdomain of one. No list says which annotation keys the system's objects carry, so what
 * follows from "they carry none of this domain" is said at a lower severity (`likely`).
 */
export function systemObjectsMayCarryAnnotation(prefix: string): boolean {
  const slash = prefix.indexOf('/');
  if (slash < 0) return true;
  const domain = prefix.slice(0, slash).toLowerCase();
  if (!domain.includes('.')) return true;
  return SYSTEM_ANNOTATION_DOMAINS.some((system) => domain === system || domain.endsWith(`.${system}`));
}

/**
 * The labels a system object is assumed to have when `selector` is evaluated: none, except that
 * a requirement that asks for a key system objects carry (matchLabels, `In`, `Exists`), with a
 * value they may have, is met. Requirements on other keys are left unmet: no system object
 * carries the webhook's own opt-in label.
 */
export function systemObjectLabels(selector: LabelSelector | undefined): Labels {
  const labels: Record<string, string> = {};
  if (selector === undefined || selector === null) return labels;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (systemObjectsCarry(key, value ?? '')) labels[key] = value ?? '';
  }
  const excluded = new Map<string, readonly string[]>();
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement?.operator === 'NotIn') excluded.set(requirement.key, [...(excluded.get(requirement.key) ?? []), ...(requirement.values ?? [])]);
  }
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement === null || typeof requirement.key !== 'string' || requirement.key in labels || !SYSTEM_OBJECT_LABELS.has(requirement.key)) continue;
    const notIn = excluded.get(requirement.key) ?? [];
    if (requirement.operator === 'In') {
      const value = (requirement.values ?? []).find((v) => !notIn.includes(v) && systemObjectsCarry(requirement.key, v));
      if (value !== undefined) labels[requirement.key] = value;
    } else if (requirement.operator === 'Exists') {
      const known = SYSTEM_OBJECT_LABELS.get(requirement.key)!;
      let value = known !== 'any' ? known.find((v) => !notIn.includes(v)) : undefined;
      if (value === undefined) {
        value = 'system';
        while (notIn.includes(value)) value += '-';
      }
      labels[requirement.key] = value;
    }
  }
  return labels;
}
