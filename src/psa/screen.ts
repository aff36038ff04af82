/**
 * Workloads that need no parse: a document whose value (read by src/parse/read.ts with the fast
 * reader, which gives exactly `yaml`'s value or nothing) passes every mode of its namespace's
 * policy, in a namespace whose policy can no longer change. The pod-security rule reports nothing
 * for such a workload, so building its syntax tree and positions would be work for nothing; it is
 * counted with the workloads checked. Where anything is uncertain (the reader declines, the
 * namespace's policy is not final, a check fails) the document is parsed and read as any other.
 */
import { isRecord } from '../json.js';
import type { KubeVersion } from '../kube/version.js';
import type { PodSecurityConfiguration } from '../model/pod-security.js';
import type { Settled } from '../parse/read.js';
import { podSecurityPasses, type NamespacePodSecurity } from './run-policy.js';
import { psaWorkloadOf } from './workloads.js';

/**
 * Keys that settleWorkload never reads at any depth of a workload (nor does anything it calls:
 * the checks read kind, apiVersion, metadata's name, namespace and annotations, the pod template,
 * and the pod spec's host fields, security contexts, ports, probes, lifecycle handlers, volumes'
 * sources, runtimeClassName and os). The fast reader passes over their values (src/parse/simple-yaml.ts
 * ReadOptions.skip): in real workloads they are most of the text. A test replaces each of them
 * by other values and expects the same verdict.
 */
export const POD_SECURITY_UNREAD_KEYS: ReadonlySet<string> = new Set([
  'env',
  'envFrom',
  'args',
  'command',
  'resources',
  'volumeMounts',
  'volumeDevices',
  'labels',
  'selector',
  'affinity',
  'tolerations',
  'nodeSelector',
  'topologySpreadConstraints',
  'strategy',
  'updateStrategy',
  'imagePullSecrets',
  'dnsConfig',
  'readinessGates',
  'volumeClaimTemplates',
  'status',
]);

/**
 * What the value of a document settles for the pod-security rule: `read`, a workload that passes
 * every mode of its namespace (checked, nothing to report); `other`, not a workload the plugin
 * evaluates or not one a request could carry (src/recognize builds none); undefined, parse it.
 * `policyOf` gives the final policy of a namespace (undefined: the workload names none), or
 * undefined while it may still change.
 */
export function settleWorkload(
  value: Readonly<Record<string, unknown>>,
  policyOf: (namespace: string | undefined) => NamespacePodSecurity | undefined,
  config: PodSecurityConfiguration,
  kubeVersion: KubeVersion,
): Settled | undefined {
  // kubectl reads an object with an `items` list as a list of its items (src/parse/yaml.ts).
  if (Array.isArray(value.items)) return undefined;
  const { kind, apiVersion } = value;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string' || psaWorkloadOf(kind, apiVersion) === undefined) return 'other';
  // As src/recognize builds a workload: metadata that does not decode is no request's object.
  const metadata = value.metadata ?? {};
  if (!isRecord(metadata)) return 'other';
  const { name, namespace } = metadata;
  if ((name != null && typeof name !== 'string') || (namespace != null && typeof namespace !== 'string')) return 'other';
  const policy = policyOf(typeof namespace === 'string' && namespace !== '' ? namespace : undefined);
  if (policy === undefined) return undefined;
  return podSecurityPasses({ kind, apiVersion, written: value }, policy, config, kubeVersion) === false ? undefined : 'read';
}
