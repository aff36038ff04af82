/**
 * The Pod Security policy that applies to pods in a namespace, and the exemptions the PodSecurity
 * admission configuration grants (k8s.io/pod-security-admission admission/admission.go:
 * PolicyToEvaluate with the configured defaults, exemptNamespace, exemptRuntimeClass, exemptUser).
 *
 * Exemptions by username cannot be decided from manifests: the username is the requesting user's
 * (a person, or for the pods a ReplicaSet, Job or DaemonSet creates, that controller's service account),
 * which no manifest shows. `isExemptUsername` is there for callers that are told the user.
 */
import type { KubeVersion } from '../kube/version.js';
import type { FieldError } from '../validate/field-error.js';
import type { PodSecurityConfiguration } from './config.js';
import { policyFromLabels, type PsaVersion, type ResolvedMode } from './labels.js';
import { isRecord } from '../json.js';

export interface EffectivePolicy {
  readonly enforce: ResolvedMode;
  readonly audit: ResolvedMode;
  readonly warn: ResolvedMode;
  /** The namespace is in exemptions.namespaces: no pod or workload in it is checked. */
  readonly exempt: boolean;
  /** False when the Namespace's labels are not known (the policy is then the configured defaults). */
  readonly labelsKnown: boolean;
  /** The labels PolicyToEvaluate cannot parse (the API server records them as an audit annotation). */
  readonly labelErrors: readonly FieldError[];
}

/** exemptNamespace: an exact name in exemptions.namespaces; the empty namespace never is. */
export function isExemptNamespace(namespace: string, config: PodSecurityConfiguration): boolean {
  return namespace !== '' && config.exemptions.namespaces.includes(namespace);
}

/** exemptUser: an exact username in exemptions.usernames; the empty name never is. */
export function isExemptUsername(username: string, config: PodSecurityConfiguration): boolean {
  return username !== '' && config.exemptions.usernames.includes(username);
}

/**
 * exemptRuntimeClass: the pod spec's runtimeClassName is set, not empty, and listed. Applies to
 * pods and to the pod templates of workloads alike (EvaluatePod checks it first).
 */
export function isExemptRuntimeClass(podSpec: unknown, config: PodSecurityConfiguration): boolean {
  if (!isRecord(podSpec)) return false;
  const name = podSpec.runtimeClassName;
  return typeof name === 'string' && name !== '' && config.exemptions.runtimeClasses.includes(name);
}

/**
 * The policy pods in `namespace` are checked against: its labels read over the configured
 * defaults, or the defaults alone when the labels are unknown (undefined).
 */
export function effectivePolicy(namespaceLabels: Readonly<Record<string, unknown>> | undefined, config: PodSecurityConfiguration, namespace: string): EffectivePolicy {
  const { policy, errors } = policyFromLabels(namespaceLabels, config.defaults);
  return { ...policy, exempt: isExemptNamespace(namespace, config), labelsKnown: namespaceLabels !== undefined, labelErrors: errors };
}

export interface ResolvedPsaVersion {
  /** The minor version of the checks that run (the major is 1). */
  readonly minor: number;
  /** `latest` follows the cluster; `clamped`: pinned past the cluster's version, which knows no newer checks. */
  readonly how: 'pinned' | 'latest' | 'clamped';
}

/**
 * The checks a version selects on a cluster of version `target`. The evaluator caps every version
 * at the newest one its checks define (policy/registry.go EvaluatePod, lowered to the emulated
 * version when the server emulates an older one), and a cluster has no checks newer than itself:
 * so `latest` and any version past the cluster's run the cluster's own checks.
 */
export function resolvePsaVersion(version: PsaVersion, target: KubeVersion): ResolvedPsaVersion {
  if (version === 'latest') return { minor: target.minor, how: 'latest' };
  return version.minor > target.minor ? { minor: target.minor, how: 'clamped' } : { minor: version.minor, how: 'pinned' };
}
