/**
 * Typed views of the admission objects, as the v1 API types define them. Objects reach rules in
 * these shapes only after the `schema` check has confirmed the field types, so a rule never
 * sees a string where a list belongs.
 */

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

export const WEBHOOK_CONFIGURATION_KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const;
export type WebhookConfigurationKind = (typeof WEBHOOK_CONFIGURATION_KINDS)[number];

/** The range of a webhook's timeoutSeconds the API server accepts (validation.go). */
export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 30;
/**
 * The client-side request timeout many clients use (kubernetes/kubernetes#71508): with Ignore, a
 * webhook that waits this long fails the request anyway (long-timeout warns from it).
 */
export const CLIENT_TIMEOUT_SECONDS = 30;

export const WEBHOOK_API_VERSIONS = ['admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1'] as const;
export type WebhookApiVersion = (typeof WEBHOOK_API_VERSIONS)[number];

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface MatchCondition {
  name?: string;
  expression?: string;
}

export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
  /** Mutating webhooks only. */
  reinvocationPolicy?: string;
}

export interface WebhookConfiguration {
  apiVersion: WebhookApiVersion;
  kind: WebhookConfigurationKind;
  metadata?: ObjectMeta;
  webhooks?: Webhook[];
}

export function isWebhookConfigurationKind(kind: string | undefined): kind is WebhookConfigurationKind {
  return (WEBHOOK_CONFIGURATION_KINDS as readonly (string | undefined)[]).includes(kind);
}

export function isWebhookApiVersion(apiVersion: string | undefined): apiVersion is WebhookApiVersion {
  return (WEBHOOK_API_VERSIONS as readonly (string | undefined)[]).includes(apiVersion);
}

export const POLICY_KINDS = ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export function isPolicyKind(kind: string | undefined): kind is PolicyKind {
  return (POLICY_KINDS as readonly (string | undefined)[]).includes(kind);
}

/** The kinds admissionregistration.k8s.io has ever served: the objects and their lists. */
export const ADMISSION_GROUP_KINDS: readonly string[] = [...WEBHOOK_CONFIGURATION_KINDS, ...POLICY_KINDS].flatMap((kind) => [kind, `${kind}List`]);

/** An object in admissionregistration.k8s.io whose kind the group never had: the API server has no such kind. */
export function isUnknownAdmissionKind(apiVersion: string | undefined, kind: string | undefined): kind is string {
  return apiVersion?.startsWith(`${ADMISSION_GROUP}/`) === true && typeof kind === 'string' && !ADMISSION_GROUP_KINDS.includes(kind);
}

/**
 * The kinds that carry a pod, which the PodSecurity admission plugin evaluates (src/psa/workloads.ts
 * says where each keeps its pod template): read only where a Pod Security level other than
 * privileged can apply (src/engine/load-run.ts).
 */
export const WORKLOAD_KINDS = ['Pod', 'ReplicationController', 'PodTemplate', 'ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export function isWorkloadKind(kind: string | undefined): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly (string | undefined)[]).includes(kind);
}

/** Every kind a rule can apply to. */
export type ObjectKind = WebhookConfigurationKind | PolicyKind | 'Namespace' | WorkloadKind;

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

/** MatchResources of admission policies (spec.matchConstraints) and bindings (spec.matchResources). */
export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

export interface Variable {
  name?: string;
  expression?: string;
}

export interface Validation {
  expression?: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key?: string;
  valueExpression?: string;
}

export interface Mutation {
  patchType?: string;
  applyConfiguration?: { expression?: string };
  jsonPatch?: { expression?: string };
}

export interface AdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  mutations?: Mutation[];
  failurePolicy?: string;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
  /** MutatingAdmissionPolicy only. */
  reinvocationPolicy?: string;
}

export interface AdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  /** ValidatingAdmissionPolicyBinding only. */
  validationActions?: string[];
}

export interface AdmissionPolicy {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
  metadata?: ObjectMeta;
  spec?: AdmissionPolicySpec;
}

export interface AdmissionPolicyBinding {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicyBinding' | 'MutatingAdmissionPolicyBinding';
  metadata?: ObjectMeta;
  spec?: AdmissionPolicyBindingSpec;
}

/** The label the API server sets on every Namespace from 1.21: its name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
