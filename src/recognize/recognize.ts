/**
 * Decides what each manifest is, from its apiVersion and kind alone, and builds the model for
 * the kinds we lint. Everything else is counted and never converted to data.
 */
import { defaultWebhookConfiguration } from '../defaults/webhooks.js';
import type { Manifest, SyntaxProblem } from '../parse/yaml.js';
import { checkWebhookConfigurationSchema } from '../validate/schema.js';
import { defaultPolicy } from '../defaults/policies.js';
import { checkPolicySchema } from '../validate/policy-schema.js';
import type { BundleWorkload, CustomResourceDefinitionObject, NamespaceObject, NetworkPolicyObject, PolicyObject, SchemaProblem, SecretKeysObject, ServiceObject, ServicePortEntry, WebhookConfigurationObject, WorkloadObject } from '../model/objects.js';
import { ADMISSION_GROUP, isPolicyKind, isUnknownAdmissionKind, isWebhookApiVersion, isWebhookConfigurationKind, isWorkloadKind, type PolicyKind, NAMESPACE_NAME_LABEL, type WebhookConfiguration } from '../model/types.js';
import { isRecord } from '../json.js';
import { psaWorkloadOf } from '../psa/workloads.js';
import { keyBudget, publicKeysOf, type KeyBudget } from '../kube/private-keys.js';
import type { FieldPath } from '../field-path.js';


export type Recognized =
  | { readonly type: 'webhook-configuration'; readonly object: WebhookConfigurationObject }
  | { readonly type: 'namespace'; readonly object: NamespaceObject }
  | { readonly type: 'custom-resource-definition'; readonly object: CustomResourceDefinitionObject }
  | { readonly type: 'admission-policy'; readonly object: PolicyObject }
  | { readonly type: 'workload'; readonly object: WorkloadObject }
  | { readonly type: 'service'; readonly object: ServiceObject }
  | { readonly type: 'network-policy'; readonly object: NetworkPolicyObject }
  | { readonly type: 'secret-keys'; readonly object: SecretKeysObject }
  | { readonly type: 'unreadable'; readonly problem: SyntaxProblem }
  /** A kind admissionregistration.k8s.io never had (`MutatingAdmissionWebhookConfiguration`): kept for rule unknown-kind, never converted to data. */
  | { readonly type: 'unknown-kind' }
  | { readonly type: 'other' };

export interface RecognizeOptions {
  /**
   * Which kinds to build: `admission` (the default) the admission objects, Namespaces and CRDs;
   * `workloads` Pods and the kinds with a pod template only (src/engine/load-run.ts reads them
   * where a Pod Security level other than privileged can apply); `both`. What is not built is
   * 'other', never converted to data.
   */
  readonly read?: 'admission' | 'workloads' | 'both';
  /**
   * Build v1 Services and networking.k8s.io/v1 NetworkPolicies too (with `admission` or `both`):
   * src/engine/load-run.ts asks for them in the inputs that hold a webhook configuration.
   * Otherwise they are 'other'.
   */
  readonly services?: boolean;
  /**
   * Also build Secrets that hold private keys in the clear (read beside webhook configurations,
   * as Services are), spending this budget: one per run (src/kube/private-keys.ts runKeyBudget).
   */
  readonly secrets?: KeyBudget;
}

export function recognize(manifest: Manifest, options: RecognizeOptions = {}): Recognized {
  const { kind, apiVersion } = manifest;
  const read = options.read ?? 'admission';
  if (read !== 'admission' && isWorkloadKind(kind) && psaWorkloadOf(kind, apiVersion) !== undefined) {
    const value = manifest.toValue();
    if ('problem' in value) return { type: 'unreadable', problem: value.problem };
    const workload = buildWorkload(manifest, kind, apiVersion!, value.value);
    return workload ? { type: 'workload', object: workload } : { type: 'other' };
  }
  if (read === 'workloads') return { type: 'other' };
  if (isWebhookConfigurationKind(kind) && apiVersion?.startsWith(`${ADMISSION_GROUP}/`)) {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    return { type: 'webhook-configuration', object: buildWebhookConfiguration(manifest, kind, apiVersion, read.value) };
  }
  if (isPolicyKind(kind) && apiVersion?.startsWith(`${ADMISSION_GROUP}/`)) {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    return { type: 'admission-policy', object: buildPolicy(manifest, kind, apiVersion, read.value) };
  }
  if (isUnknownAdmissionKind(apiVersion, kind)) return { type: 'unknown-kind' };
  if (kind === 'Namespace' && apiVersion === 'v1') {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    const namespace = buildNamespace(manifest, read.value);
    return namespace ? { type: 'namespace', object: namespace } : { type: 'other' };
  }
  if (kind === 'CustomResourceDefinition' && apiVersion === 'apiextensions.k8s.io/v1') {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    const crd = buildCustomResourceDefinition(manifest, read.value);
    return crd ? { type: 'custom-resource-definition', object: crd } : { type: 'other' };
  }
  if (options.services === true && kind === 'Service' && apiVersion === 'v1') {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    const service = buildService(manifest, read.value);
    return service ? { type: 'service', object: service } : { type: 'other' };
  }
  if (options.services === true && kind === 'NetworkPolicy' && apiVersion === 'networking.k8s.io/v1') {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    const policy = buildNetworkPolicy(manifest, read.value);
    return policy ? { type: 'network-policy', object: policy } : { type: 'other' };
  }
  if (options.secrets !== undefined && kind === 'Secret' && apiVersion === 'v1') {
    const read = manifest.toValue();
    if ('problem' in read) return { type: 'unreadable', problem: read.problem };
    const secret = buildSecretKeys(manifest, read.value, options.secrets);
    return secret ? { type: 'secret-keys', object: secret } : { type: 'other' };
  }
  return { type: 'other' };
}

/**
 * A Secret's private keys in the clear: `data` values are base64 (as the API server decodes
 * them), `stringData` values are text. Undefined when it has no name or no such key.
 */
function buildSecretKeys(manifest: Manifest, written: unknown, runBudget: KeyBudget): SecretKeysObject | undefined {
  if (!isRecord(written) || !isRecord(written.metadata)) return undefined;
  const { name, namespace } = written.metadata;
  if (typeof name !== 'string' || name === '' || (namespace != null && typeof namespace !== 'string')) return undefined;
  const keys: { path: FieldPath; publicKey: Buffer }[] = [];
  const budget = keyBudget(runBudget);
  for (const [field, encoded] of [['data', true], ['stringData', false]] as const) {
    const values = written[field];
    if (!isRecord(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if (typeof value !== 'string') continue;
      const text = encoded ? Buffer.from(value.replace(/\s/g, ''), 'base64').toString('latin1') : value;
      for (const publicKey of publicKeysOf(text, budget)) keys.push({ path: [field, key], publicKey });
    }
  }
  if (keys.length === 0) return undefined;
  return { category: 'secret-keys', manifest, name, namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined, keys };
}

/** A NetworkPolicy with a string name (one without is no object the API server stores). */
function buildNetworkPolicy(manifest: Manifest, written: unknown): NetworkPolicyObject | undefined {
  if (!isRecord(written) || !isRecord(written.metadata)) return undefined;
  const { name, namespace } = written.metadata;
  if (typeof name !== 'string' || name === '' || (namespace != null && typeof namespace !== 'string')) return undefined;
  return { category: 'network-policy', manifest, name, namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined, written };
}

/**
 * What a webhook's service reference reaches: a Service with a string name (a Service without
 * one is no object the API server stores). Fields of another type than the API's are read as
 * unknown (undefined), never guessed.
 */
function buildService(manifest: Manifest, written: unknown): ServiceObject | undefined {
  if (!isRecord(written) || !isRecord(written.metadata)) return undefined;
  const { name, namespace } = written.metadata;
  if (typeof name !== 'string' || name === '' || (namespace != null && typeof namespace !== 'string')) return undefined;
  const spec = isRecord(written.spec) ? written.spec : {};
  const ports: ServicePortEntry[] | undefined = spec.ports == null ? [] : Array.isArray(spec.ports) ? spec.ports.map((entry) => ({
    port: isRecord(entry) && Number.isInteger(entry.port) ? (entry.port as number) : undefined,
    name: isRecord(entry) && typeof entry.name === 'string' ? entry.name : undefined,
    ...(isRecord(entry) && (Number.isInteger(entry.targetPort) || (typeof entry.targetPort === 'string' && entry.targetPort !== '')) ? { targetPort: entry.targetPort as number | string } : {}),
  })) : undefined;
  let selector: Record<string, string> | undefined;
  if (isRecord(spec.selector) && Object.values(spec.selector).every((value) => typeof value === 'string')) selector = spec.selector as Record<string, string>;
  return {
    category: 'service',
    manifest,
    name,
    namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
    // The API server defaults an empty or absent type to ClusterIP; another type does not decode.
    type: spec.type == null || spec.type === '' ? 'ClusterIP' : typeof spec.type === 'string' ? spec.type : undefined,
    clusterIP: typeof spec.clusterIP === 'string' ? spec.clusterIP : undefined,
    ports,
    selector,
    written,
  };
}

/** What discovery needs of a CRD; one that lacks its group, names or versions is ignored. */
function buildCustomResourceDefinition(manifest: Manifest, written: unknown): CustomResourceDefinitionObject | undefined {
  if (!isRecord(written) || !isRecord(written.spec)) return undefined;
  const { group, names, scope, versions } = written.spec;
  if (typeof group !== 'string' || !isRecord(names) || typeof names.plural !== 'string' || !Array.isArray(versions)) return undefined;
  const served = versions.filter((v): v is Record<string, unknown> => isRecord(v) && typeof v.name === 'string' && v.served !== false);
  const subresources = new Set<string>();
  for (const version of served) {
    if (isRecord(version.subresources)) {
      if (version.subresources.status !== undefined) subresources.add('status');
      if (version.subresources.scale !== undefined) subresources.add('scale');
    }
  }
  const schemas = new Map<string, unknown>();
  for (const version of served) if (isRecord(version.schema) && isRecord(version.schema.openAPIV3Schema)) schemas.set(version.name as string, version.schema.openAPIV3Schema);
  return {
    category: 'custom-resource-definition',
    manifest,
    group,
    plural: names.plural,
    kind: typeof names.kind === 'string' ? names.kind : names.plural,
    namespaced: scope !== 'Cluster',
    versions: served.map((v) => v.name as string),
    subresources: [...subresources],
    ...(schemas.size > 0 ? { schemas } : {}),
  };
}

function buildWebhookConfiguration(manifest: Manifest, kind: WebhookConfiguration['kind'], apiVersion: string, written: unknown): WebhookConfigurationObject {
  const schemaProblems: SchemaProblem[] = checkWebhookConfigurationSchema(kind, written);
  if (!isWebhookApiVersion(apiVersion)) {
    // No version but v1 (and the long-removed v1beta1) ever served these kinds.
    schemaProblems.unshift({
      path: ['apiVersion'],
      part: 'pair',
      blocking: true,
      message: `no API serves ${kind} in ${apiVersion}: use admissionregistration.k8s.io/v1`,
    });
  }
  const version = isWebhookApiVersion(apiVersion) ? apiVersion : 'admissionregistration.k8s.io/v1';
  const { effective, defaulted, defaultedPaths } = defaultWebhookConfiguration(written, version, kind);
  const metadata = isRecord(written) && isRecord(written.metadata) ? written.metadata : undefined;
  return {
    category: 'webhook-configuration',
    manifest,
    apiVersion: version,
    kind,
    name: typeof metadata?.name === 'string' ? metadata.name : undefined,
    written,
    effective: effective as WebhookConfiguration,
    defaulted,
    defaultedPaths,
    schemaProblems,
    decodable: !schemaProblems.some((problem) => problem.blocking),
  };
}

function buildNamespace(manifest: Manifest, written: unknown): NamespaceObject | undefined {
  if (!isRecord(written) || !isRecord(written.metadata) || typeof written.metadata.name !== 'string') return undefined;
  const writtenLabels: Record<string, string> = {};
  if (isRecord(written.metadata.labels)) {
    for (const [key, value] of Object.entries(written.metadata.labels)) {
      if (typeof value === 'string') writtenLabels[key] = value;
    }
  }
  const labels = { ...writtenLabels, [NAMESPACE_NAME_LABEL]: written.metadata.name };
  return { category: 'namespace', manifest, name: written.metadata.name, labels, writtenLabels, written };
}

/**
 * A workload whose metadata decodes: a mapping, with string name and namespace where written
 * (an object whose metadata has other types is one no request carries).
 */
function buildWorkload(manifest: Manifest, kind: WorkloadObject['kind'], apiVersion: string, written: unknown): WorkloadObject | undefined {
  if (!isRecord(written)) return undefined;
  const metadata = written.metadata ?? {};
  if (!isRecord(metadata)) return undefined;
  const { name, generateName, namespace } = metadata;
  if ((name != null && typeof name !== 'string') || (namespace != null && typeof namespace !== 'string')) return undefined;
  const shownName = typeof name === 'string' && name !== '' ? name : typeof generateName === 'string' && generateName !== '' ? generateName : undefined;
  return {
    category: 'workload',
    manifest,
    apiVersion,
    kind,
    name: shownName,
    namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
    written,
  };
}

function buildPolicy(manifest: Manifest, kind: PolicyKind, apiVersion: string, written: unknown): PolicyObject {
  const schemaProblems = checkPolicySchema(kind, written);
  const { effective, defaulted, defaultedPaths } = defaultPolicy(written, kind);
  const metadata = isRecord(written) && isRecord(written.metadata) ? written.metadata : undefined;
  return {
    category: 'admission-policy',
    manifest,
    apiVersion,
    kind,
    name: typeof metadata?.name === 'string' ? metadata.name : undefined,
    written,
    effective: effective as PolicyObject['effective'],
    defaulted,
    defaultedPaths,
    schemaProblems,
    decodable: !schemaProblems.some((problem) => problem.blocking),
  };
}

/**
 * A workload read quietly from a bundle (src/engine/load-run.ts): what its pods are labelled.
 * Undefined when the value is no Pod or workload with a pod template that a request could carry.
 */
export function bundleWorkloadOf(value: unknown, path: string): BundleWorkload | undefined {
  if (!isRecord(value)) return undefined;
  const { kind, apiVersion } = value;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string' || !isWorkloadKind(kind) || psaWorkloadOf(kind, apiVersion) === undefined) return undefined;
  const metadata = value.metadata ?? {};
  if (!isRecord(metadata)) return undefined;
  const { name, namespace } = metadata;
  if ((name != null && typeof name !== 'string') || (namespace != null && typeof namespace !== 'string')) return undefined;
  const template = kind === 'Pod' ? value : kind === 'CronJob' ? dig(value, ['spec', 'jobTemplate', 'spec', 'template']) : dig(value, ['spec', 'template']);
  const templateMetadata = isRecord(template) ? (template.metadata ?? {}) : undefined;
  const labels = isRecord(templateMetadata) ? (templateMetadata.labels ?? {}) : undefined;
  const podLabels = isRecord(labels) && Object.values(labels).every((label) => typeof label === 'string') ? (labels as Record<string, string>) : undefined;
  return { kind, name: typeof name === 'string' && name !== '' ? name : undefined, namespace: typeof namespace === 'string' && namespace !== '' ? namespace : undefined, podLabels, path };
}

function dig(value: Record<string, unknown>, path: readonly string[]): unknown {
  let at: unknown = value;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return at;
}
