/**
 * Whether the NetworkPolicies of the run drop the API server's calls to a webhook's pods. The
 * API server is no pod of the cluster's network (it runs on the control plane's hosts, or outside
 * the cluster on a managed one), so a rule with no `from` (every source) or with an `ipBlock`
 * (which may hold its address) can let it in, and a peer that selects pods only where the calls
 * may come from a pod or a selectable group: a managed cluster's konnectivity agents in
 * kube-system relay them (AKS, GKE), and OpenShift selects host-network traffic, the API server's
 * among it, by a policy-group label (API_SERVER_SOURCES). Policies are additive: the calls are
 * dropped when a policy certainly selects the webhook's pods for ingress and no policy that may
 * select them lets the API server in on the port it calls (networking.k8s.io/v1
 * NetworkPolicySpec; a plugin that enforces them). Traffic from the pod's own node is always
 * allowed, so an API server on the webhook pod's node still reaches it.
 *
 * The webhook's pods are known by the selector of its Service (the Service of the run that its
 * `clientConfig.service` names, src/match/services.ts): they carry at least those labels. A
 * policy's `podSelector` is evaluated on them three ways: certainly selected, certainly not, or
 * not known (it asks for a label the Service does not). Nothing is concluded where a policy may
 * be elsewhere: an input not read for them, a document that could not be read, a kustomize
 * patch of a NetworkPolicy.
 */
import type { LabelSelector } from '../model/types.js';
import type { NetworkPolicyObject, ServiceObject } from '../model/objects.js';
import type { RunScope } from '../run-scope.js';
import type { Webhook } from '../model/types.js';
import { isRecord } from '../json.js';
import { webhookServices } from './services.js';
import { unreadableMayHold } from './unreadable.js';
import { namespaceLabels } from './namespaces.js';
import { selectorMatches, type Labels } from './selector.js';

export type NetworkPolicyScope = Pick<RunScope, 'services' | 'unreadable' | 'kustomizePatches' | 'kustomizations' | 'memo' | 'networkPolicies' | 'networkPoliciesOutsideBundles' | 'namespaces' | 'kubeVersion'>;

/**
 * Namespaces (their labels) the API server's calls may come from as seen by a policy peer: kube-system,
 * where a managed cluster's konnectivity agents relay them from pods (its labels as the run knows
 * them); OpenShift's host-network policy group (policy-group.network.openshift.io/host-network,
 * the group its network plugin puts host traffic in); and OpenShift's openshift-kube-apiserver,
 * whose API server pods run on the host network.
 */
function apiServerSources(scope: NetworkPolicyScope): readonly { readonly namespace: string; readonly labels: Labels }[] {
  return [
    { namespace: 'kube-system', labels: namespaceLabels(scope, 'kube-system') },
    { namespace: '', labels: { 'policy-group.network.openshift.io/host-network': '' } },
    { namespace: 'openshift-kube-apiserver', labels: namespaceLabels(scope, 'openshift-kube-apiserver') },
  ];
}

/** A policy that drops the API server's calls to a webhook's pods, and the Service they go through. */
export interface DroppedCalls {
  readonly policy: NetworkPolicyObject;
  /** The policy admits nothing on ingress (no rules), rather than pods only. */
  readonly deniesAll: boolean;
  readonly service: ServiceObject;
  /** The pod port the calls go to (the Service port's targetPort). */
  readonly targetPort: number | string;
}

/** The policy that drops the API server's calls to the webhook, or undefined when none certainly does. */
export function droppedCalls(scope: NetworkPolicyScope, webhook: Readonly<Webhook>): DroppedCalls | undefined {
  const policies = scope.networkPolicies;
  if (policies === undefined || policies.length === 0 || scope.networkPoliciesOutsideBundles !== false) return undefined;
  if (unreadableMayHold(scope, 'NetworkPolicy')) return undefined;
  if (scope.kustomizePatches.some((patch) => patch.target.kind === undefined || patch.target.kind === 'NetworkPolicy')) return undefined;
  const found = webhookServices(scope, webhook);
  if (found === undefined) return undefined;
  const { reference, services } = found;
  // Every copy of the Service (a run may hold several renderings) must lead to the same verdict: the first is judged, the others must agree.
  const sources = apiServerSources(scope);
  let result: DroppedCalls | undefined;
  for (const service of services) {
    const pods = service.selector;
    // A headless Service cannot be called through a cluster IP: webhook-service-port's ground, not a policy's.
    if (pods === undefined || Object.keys(pods).length === 0 || service.type === 'ExternalName' || service.clusterIP === 'None') return undefined;
    const entry = service.ports?.find((port) => port.port === reference.port);
    if (entry === undefined) return undefined;
    const targetPort = entry.targetPort ?? reference.port;
    const inNamespace = policies.filter((policy) => policy.namespace === reference.namespace || policy.namespace === undefined);
    const selecting = inNamespace.filter((policy) => restrictsIngress(policy) && selects(policy, pods) !== false);
    const blocker = selecting.find((policy) => policy.namespace === reference.namespace && selects(policy, pods) === true);
    if (blocker === undefined || selecting.some((policy) => mayAdmitApiServer(policy, targetPort, sources))) return undefined;
    const { ingress } = specOf(blocker);
    result ??= { policy: blocker, deniesAll: ingress == null || (Array.isArray(ingress) && ingress.length === 0), service, targetPort };
  }
  return result;
}

function specOf(policy: NetworkPolicyObject): Record<string, unknown> {
  return isRecord(policy.written.spec) ? policy.written.spec : {};
}

/** Whether the policy restricts ingress: `policyTypes` names Ingress, or is absent (Ingress is then always among them). */
function restrictsIngress(policy: NetworkPolicyObject): boolean {
  const { policyTypes } = specOf(policy);
  if (policyTypes == null) return true;
  return Array.isArray(policyTypes) && policyTypes.includes('Ingress');
}

/**
 * Whether the policy's podSelector selects pods that carry at least `labels`: true, false, or
 * undefined when it asks for a label they may or may not carry beside them (or is not readable).
 */
function selects(policy: NetworkPolicyObject, labels: Labels): boolean | undefined {
  return selectorOn(specOf(policy).podSelector, labels);
}

/** A label selector on an object that carries at least `labels` (see selects); null or absent selects all. */
function selectorOn(selector: unknown, labels: Labels): boolean | undefined {
  if (selector == null) return true;
  if (!isRecord(selector)) return undefined;
  const { matchLabels, matchExpressions } = selector as LabelSelector & Record<string, unknown>;
  let verdict: boolean | undefined = true;
  const and = (value: boolean | undefined): void => {
    if (value === false) verdict = false;
    else if (value === undefined && verdict !== false) verdict = undefined;
  };
  if (matchLabels != null) {
    if (!isRecord(matchLabels)) return undefined;
    for (const [key, value] of Object.entries(matchLabels)) and(Object.hasOwn(labels, key) ? labels[key] === value : undefined);
  }
  if (matchExpressions != null) {
    if (!Array.isArray(matchExpressions)) return undefined;
    for (const requirement of matchExpressions) {
      if (!isRecord(requirement) || typeof requirement.key !== 'string') return undefined;
      const values = Array.isArray(requirement.values) ? requirement.values : [];
      const has = Object.hasOwn(labels, requirement.key);
      const value = labels[requirement.key] ?? '';
      switch (requirement.operator) {
        case 'In':
          and(has ? values.includes(value) : undefined);
          break;
        case 'NotIn':
          and(has ? !values.includes(value) : undefined);
          break;
        case 'Exists':
          and(has ? true : undefined);
          break;
        case 'DoesNotExist':
          and(has ? false : undefined);
          break;
        default:
          return undefined;
      }
    }
  }
  return verdict;
}

/**
 * Whether one of the policy's ingress rules may let the API server in on `targetPort`: a rule
 * without peers (every source) or with an `ipBlock` peer, on a port that may be it. A rule whose
 * peers all select pods or namespaces does not: the API server is not a pod.
 */
function mayAdmitApiServer(policy: NetworkPolicyObject, targetPort: number | string, sources: readonly { readonly namespace: string; readonly labels: Labels }[]): boolean {
  const { ingress } = specOf(policy);
  if (ingress == null) return false;
  if (!Array.isArray(ingress)) return true;
  return ingress.some((rule) => {
    if (!isRecord(rule)) return true;
    const { from, ports } = rule;
    const anySource = from == null || (Array.isArray(from) && from.length === 0);
    const mayBeApiServer = anySource || !Array.isArray(from) || from.some((peer) => mayBeApiServerPeer(peer, policy, sources));
    return mayBeApiServer && mayBeOnPort(ports, targetPort);
  });
}

/**
 * Whether a peer may match the API server's calls: an ipBlock, or pods of a namespace they may
 * come from (a namespaceSelector that may select one, or the policy's own namespace when it is
 * one); the pods there (konnectivity agents, host-network ones) are not known, so any podSelector may.
 */
function mayBeApiServerPeer(peer: unknown, policy: NetworkPolicyObject, sources: readonly { readonly namespace: string; readonly labels: Labels }[]): boolean {
  if (!isRecord(peer) || peer.ipBlock != null) return true;
  if (peer.namespaceSelector == null) return peer.podSelector == null || sources.some((source) => source.namespace === policy.namespace);
  if (!isRecord(peer.namespaceSelector)) return true;
  // A namespace's labels are known whole (its manifest in the run, or the name label alone).
  return sources.some((source) => selectorMatches(peer.namespaceSelector as LabelSelector, source.labels) !== false);
}

/** Whether a rule's ports may include the pod port `targetPort` (TCP). */
function mayBeOnPort(ports: unknown, targetPort: number | string): boolean {
  if (ports == null || (Array.isArray(ports) && ports.length === 0)) return true;
  if (!Array.isArray(ports)) return true;
  return ports.some((entry) => {
    if (!isRecord(entry)) return true;
    if (entry.protocol != null && entry.protocol !== 'TCP') return false;
    const { port, endPort } = entry;
    if (port == null) return true;
    if (typeof port === 'number' && typeof targetPort === 'number') return targetPort >= port && targetPort <= (typeof endPort === 'number' ? endPort : port);
    if (typeof port === 'string' && typeof targetPort === 'string') return port === targetPort;
    // A name against a number: the pod's ports are not in the run.
    return true;
  });
}
