/**
 * Workloads that need no parse: a document read by the simple reader (src/parse/simple-yaml.ts,
 * which gives exactly `yaml`'s value or nothing) whose Pod Security verdict, in a namespace whose
 * policy can no longer change, passes every mode. The pod-security rule reports nothing for such
 * a workload, so building its syntax tree and positions would be work for nothing; where anything
 * is uncertain (the reader declines, the namespace's policy is not final, a check fails) the
 * document is parsed and read as any other.
 */
import { isRecord } from '../json.js';
import type { KubeVersion } from '../kube/version.js';
import type { PodSecurityConfiguration } from '../model/pod-security.js';
import { readSimpleDocument } from '../parse/simple-yaml.js';
import { podSecurityVerdict, type NamespacePodSecurity } from './run-policy.js';
import { psaWorkloadOf } from './workloads.js';

/**
 * Whether the document certainly has nothing for the pod-security rule: it is not a workload the
 * plugin evaluates (or not one a request could carry), or it passes every mode of its namespace.
 * `policyOf` gives the final policy of a namespace (undefined: the workload names none), or
 * undefined while it may still change.
 */
export function needsNoParse(
  documentText: string,
  policyOf: (namespace: string | undefined) => NamespacePodSecurity | undefined,
  config: PodSecurityConfiguration,
  kubeVersion: KubeVersion,
): boolean {
  const value = readSimpleDocument(documentText);
  if (value === undefined) return false;
  const { kind, apiVersion } = value;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string' || psaWorkloadOf(kind, apiVersion) === undefined) return true;
  // As src/recognize builds a workload: metadata that does not decode is no request's object.
  const metadata = value.metadata ?? {};
  if (!isRecord(metadata)) return true;
  const { name, namespace } = metadata;
  if ((name != null && typeof name !== 'string') || (namespace != null && typeof namespace !== 'string')) return true;
  const policy = policyOf(typeof namespace === 'string' && namespace !== '' ? namespace : undefined);
  if (policy === undefined) return false;
  const verdict = podSecurityVerdict({ kind, apiVersion, written: value }, policy, config, kubeVersion);
  return verdict === undefined || verdict.notChecked !== undefined || verdict.modes.every((mode) => mode.result.allowed);
}
