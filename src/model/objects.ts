/** What the pipeline knows about each recognised object, handed to rules read-only. */
import type { FieldPath } from '../field-path.js';
import type { Manifest } from '../parse/yaml.js';
import type { AdmissionPolicy, AdmissionPolicyBinding, PolicyKind, WebhookConfiguration, WorkloadKind } from './types.js';

export interface WebhookConfigurationObject {
  readonly category: 'webhook-configuration';
  readonly manifest: Manifest;
  readonly apiVersion: WebhookConfiguration['apiVersion'];
  readonly kind: WebhookConfiguration['kind'];
  readonly name: string | undefined;
  /** The object as written in the file. */
  readonly written: unknown;
  /**
   * The object after API defaulting. Typed as the API types only when `decodable`; rules run
   * on decodable objects only, so they may rely on the field types.
   */
  readonly effective: Readonly<WebhookConfiguration>;
  /** Field paths (API notation) that defaulting filled, e.g. `webhooks[0].failurePolicy`. */
  readonly defaulted: ReadonlySet<string>;
  readonly defaultedPaths: readonly FieldPath[];
  readonly schemaProblems: readonly SchemaProblem[];
  /** False when a field has the wrong type: the API server would not decode the object at all. */
  readonly decodable: boolean;
}

export interface NamespaceObject {
  readonly category: 'namespace';
  readonly manifest: Manifest;
  readonly name: string;
  /** The written labels plus `kubernetes.io/metadata.name`, which the API server always sets. */
  readonly labels: Readonly<Record<string, string>>;
  /** The labels as written (string values only). */
  readonly writtenLabels: Readonly<Record<string, string>>;
  readonly written: unknown;
}

/**
 * A Pod, or a workload with a pod template (Deployment, Job, CronJob, ...), in an apiVersion the
 * PodSecurity admission plugin evaluates. Read only where a Pod Security level other than
 * privileged can apply to it (src/engine/load-run.ts); not linted otherwise.
 */
export interface WorkloadObject {
  readonly category: 'workload';
  readonly manifest: Manifest;
  readonly apiVersion: string;
  readonly kind: WorkloadKind;
  /** metadata.name, else metadata.generateName; undefined when neither is written. */
  readonly name: string | undefined;
  /** metadata.namespace as written; undefined when it is not (the run's default namespace applies). */
  readonly namespace: string | undefined;
  /** The object as written in the file (workloads are not defaulted). */
  readonly written: unknown;
}

/**
 * A Pod or a workload with a pod template in an input that holds a webhook configuration, read
 * quietly (never reported, never linted) for what its pods are labelled: what runs the webhooks
 * (src/match/own-pods.ts).
 */
export interface BundleWorkload {
  readonly kind: string;
  readonly name: string | undefined;
  /** metadata.namespace as written; undefined when it is not. */
  readonly namespace: string | undefined;
  /** The labels of its pods as written (a Pod's own, a template's, a CronJob's job template's); undefined when they are not a map of strings. */
  readonly podLabels: Readonly<Record<string, string>> | undefined;
  /** The input it is in (for a rendered stream, the whole file). */
  readonly path: string;
}

/** One entry of a Service's `spec.ports`, as the API server reads it. */
export interface ServicePortEntry {
  /** `port`, when it is an integer; undefined when it is not (a placeholder, a string): the port is not known. */
  readonly port: number | undefined;
  readonly name: string | undefined;
  /** `targetPort` as written (a number or a pod port's name); undefined when absent (the API defaults it to `port`) or of another type. */
  readonly targetPort?: number | string;
}

/**
 * A networking.k8s.io/v1 NetworkPolicy, read from the inputs that hold a webhook configuration
 * (as Services are), for whether the API server's calls reach a webhook's pods. Not linted.
 */
export interface NetworkPolicyObject {
  readonly category: 'network-policy';
  readonly manifest: Manifest;
  readonly name: string;
  /** metadata.namespace as written; undefined when it is not (the namespace it is applied to is not known). */
  readonly namespace: string | undefined;
  /** The object as written. */
  readonly written: Readonly<Record<string, unknown>>;
}

/**
 * A v1 Service, read only from the inputs that also hold a webhook configuration (a rendered
 * bundle: src/engine/load-run.ts), for what a webhook's `clientConfig.service` reaches: its
 * type, ports and selector. Not linted.
 */
export interface ServiceObject {
  readonly category: 'service';
  readonly manifest: Manifest;
  readonly name: string;
  /** metadata.namespace as written; undefined when it is not (the namespace it is applied to is not known). */
  readonly namespace: string | undefined;
  /** spec.type with its default (ClusterIP, for an absent or empty one); undefined when it is not a string. */
  readonly type: string | undefined;
  /** spec.clusterIP as written (`None`: a headless Service). */
  readonly clusterIP: string | undefined;
  /** spec.ports; undefined when it is written as something other than a list. */
  readonly ports: readonly ServicePortEntry[] | undefined;
  /** spec.selector (string values); undefined when none is written, or one that is not a map of strings. */
  readonly selector: Readonly<Record<string, string>> | undefined;
  /** The object as written (what a matchCondition or objectSelector would see of its creation, before defaults). */
  readonly written?: unknown;
}

/**
 * A Secret that holds private keys in plain text (PEM, under data or stringData): the keys a
 * webhook's caBundle may trust (rules/ca-bundle.ts). Only their public halves are kept.
 */
export interface SecretKeysObject {
  readonly category: 'secret-keys';
  readonly manifest: Manifest;
  readonly name: string;
  readonly namespace: string | undefined;
  /** Each private key: the field that holds it (['data', 'tls.key']) and its public key (SPKI, DER). */
  readonly keys: readonly { readonly path: FieldPath; readonly publicKey: Buffer }[];
}

/** A ValidatingAdmissionPolicy, MutatingAdmissionPolicy or one of their bindings. */
export interface PolicyObject {
  readonly category: 'admission-policy';
  readonly manifest: Manifest;
  readonly apiVersion: string;
  readonly kind: PolicyKind;
  readonly name: string | undefined;
  readonly written: unknown;
  /** After API defaulting; typed as the API types only when `decodable`. */
  readonly effective: Readonly<AdmissionPolicy | AdmissionPolicyBinding>;
  readonly defaulted: ReadonlySet<string>;
  readonly defaultedPaths: readonly FieldPath[];
  readonly schemaProblems: readonly SchemaProblem[];
  readonly decodable: boolean;
}

export interface CustomResourceDefinitionObject {
  readonly category: 'custom-resource-definition';
  readonly manifest: Manifest;
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Served versions. */
  readonly versions: readonly string[];
  readonly subresources: readonly string[];
  /** Each served version's `schema.openAPIV3Schema`, where it is written (src/cel/optional-fields.ts reads which fields an object may lack). */
  readonly schemas?: ReadonlyMap<string, unknown>;
}

/** A decode problem of an object's written form (src/validate/schema.ts finds them). */
export interface SchemaProblem {
  readonly path: FieldPath;
  readonly message: string;
  /** Unknown fields are dropped (or rejected) without changing what the other fields mean. */
  readonly blocking: boolean;
  readonly part: 'pair' | 'key';
  /** The value is a boolean where the API wants a string (YAML 1.1 read a plain `on`, `yes`, … as one): quoting it is the fix. */
  readonly booleanForString?: true;
}
