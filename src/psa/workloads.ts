/**
 * What the PodSecurity admission plugin evaluates: which kinds carry a pod (and where), and which
 * requests it looks at (k8s.io/pod-security-admission admission/admission.go: Validate,
 * ValidateNamespace, ValidatePod, ValidatePodController, DefaultPodSpecExtractor,
 * isSignificantPodUpdate; kubernetes plugin/pkg/admission/security/podsecurity/admission.go).
 *
 * The plugin decides by group and resource, whatever the version: the API server converts the
 * object to its v1 type first. The versions listed are the ones served on clusters that have the
 * plugin (1.22 on); the apps and extensions betas were gone by 1.16, and an `extensions`
 * workload is not one the plugin would evaluate anyway.
 */
import type { FieldPath } from '../field-path.js';
import { isRecord } from '../json.js';
import { splitApiVersion } from '../kube/api-version.js';

export interface PsaWorkloadVersion {
  readonly version: string;
  /** The first minor version that no longer serves it. */
  readonly removedIn?: number;
}

export interface PsaWorkload {
  /** "" for the core group. */
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly versions: readonly PsaWorkloadVersion[];
  /** Where the pod's metadata and spec sit: [] for a Pod, else its PodTemplateSpec. */
  readonly templatePath: FieldPath;
  /** The template is a pointer in the Go type (ReplicationController): without it there is no pod to check. */
  readonly templateOptional: boolean;
  /**
   * Pods are enforced: a violation rejects the request. Workloads are only audited and warned
   * about (ValidatePodController never enforces): their pods are checked when they are created.
   */
  readonly enforced: boolean;
}

const V1: readonly PsaWorkloadVersion[] = [{ version: 'v1' }];
const TEMPLATE = ['spec', 'template'];

/** defaultPodSpecResources and DefaultPodSpecExtractor.ExtractPodSpec. */
export const PSA_WORKLOADS: readonly PsaWorkload[] = [
  { group: '', resource: 'pods', kind: 'Pod', versions: V1, templatePath: [], templateOptional: false, enforced: true },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', versions: V1, templatePath: TEMPLATE, templateOptional: true, enforced: false },
  { group: '', resource: 'podtemplates', kind: 'PodTemplate', versions: V1, templatePath: ['template'], templateOptional: false, enforced: false },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', versions: V1, templatePath: TEMPLATE, templateOptional: false, enforced: false },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', versions: V1, templatePath: TEMPLATE, templateOptional: false, enforced: false },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', versions: V1, templatePath: TEMPLATE, templateOptional: false, enforced: false },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', versions: V1, templatePath: TEMPLATE, templateOptional: false, enforced: false },
  { group: 'batch', resource: 'jobs', kind: 'Job', versions: V1, templatePath: TEMPLATE, templateOptional: false, enforced: false },
  {
    group: 'batch',
    resource: 'cronjobs',
    kind: 'CronJob',
    versions: [{ version: 'v1' }, { version: 'v1beta1', removedIn: 25 }],
    templatePath: ['spec', 'jobTemplate', 'spec', 'template'],
    templateOptional: false,
    enforced: false,
  },
];

/** The workload entry for a manifest's kind and apiVersion, if the plugin evaluates it. */
export function psaWorkloadOf(kind: string | undefined, apiVersion: string | undefined): PsaWorkload | undefined {
  if (kind === undefined || apiVersion === undefined) return undefined;
  const { group, version } = splitApiVersion(apiVersion);
  return PSA_WORKLOADS.find((entry) => entry.kind === kind && entry.group === group && entry.versions.some((v) => v.version === version));
}

/** The workload entry for a request's group and resource (any version), if the plugin evaluates it. */
export function psaWorkloadForResource(group: string, resource: string): PsaWorkload | undefined {
  return PSA_WORKLOADS.find((entry) => entry.group === group && entry.resource === resource);
}

export interface PodTemplateLocation {
  readonly metadataPath: FieldPath;
  readonly specPath: FieldPath;
  /** The pod's (or template's) metadata; {} where it is not written (Go's zero ObjectMeta). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The PodSpec; {} where it is not written (Go's zero PodSpec, which every check passes). */
  readonly spec: Readonly<Record<string, unknown>>;
}

/**
 * The pod metadata and spec the plugin evaluates in a manifest, with their field paths. Undefined
 * when the kind is not one the plugin evaluates, when a ReplicationController has no template
 * (ExtractPodSpec returns none), or when a field on the way is not a mapping (such an object
 * cannot be decoded, so no request carries it). Fields left out or null read as empty, as Go
 * decodes them.
 */
export function podTemplateOf(kind: string | undefined, apiVersion: string | undefined, object: unknown): PodTemplateLocation | undefined {
  const workload = psaWorkloadOf(kind, apiVersion);
  if (workload === undefined || !isRecord(object)) return undefined;
  let template: Record<string, unknown> = object;
  const path = workload.templatePath;
  for (const [index, segment] of path.entries()) {
    const next = template[segment];
    if (next === undefined || next === null) {
      if (workload.templateOptional && index === path.length - 1) return undefined;
      template = {};
    } else if (isRecord(next)) {
      template = next;
    } else {
      return undefined;
    }
  }
  const metadata = template.metadata ?? {};
  const spec = template.spec ?? {};
  if (!isRecord(metadata) || !isRecord(spec)) return undefined;
  return { metadataPath: [...workload.templatePath, 'metadata'], specPath: [...workload.templatePath, 'spec'], metadata, spec };
}

/** The only operations the plugin handles (admission.NewHandler(admission.Create, admission.Update)). */
export const PSA_OPERATIONS = ['CREATE', 'UPDATE'] as const;

/**
 * Pod subresources the plugin lets through unchecked (ignoredPodSubresources). Every other pod
 * subresource is checked as a pod: `ephemeralcontainers` (so `kubectl debug` meets the enforce
 * level) and `resize`, whose updates change no image and so are never significant.
 */
export const PSA_IGNORED_POD_SUBRESOURCES: readonly string[] = ['attach', 'binding', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'status'];

export type PsaRequestCheck =
  | {
      readonly checked: false;
      /** `subresource`: workloads' and namespaces' subresources (scale, status, finalize) are never checked. */
      readonly why: 'operation' | 'resource' | 'subresource';
    }
  | {
      readonly checked: true;
      /**
       * The Namespace's PSA labels are validated (an invalid one rejects a CREATE, and an UPDATE
       * that changes them); an UPDATE that tightens enforce checks the pods already there and
       * returns warnings. Exempt namespaces are only warned about.
       */
      readonly what: 'namespace';
    }
  | {
      readonly checked: true;
      readonly what: 'pod';
      readonly enforced: true;
      /** UPDATE: checked only when isSignificantPodUpdate says so. */
      readonly onlySignificantUpdates: boolean;
    }
  | { readonly checked: true; readonly what: 'pod-template'; readonly enforced: false };

/** What the plugin does with a request, before exemptions and the namespace's policy. */
export function psaRequestCheck(request: { readonly operation: string; readonly group: string; readonly resource: string; readonly subresource: string }): PsaRequestCheck {
  if (!(PSA_OPERATIONS as readonly string[]).includes(request.operation)) return { checked: false, why: 'operation' };
  if (request.group === '' && request.resource === 'namespaces') {
    return request.subresource === '' ? { checked: true, what: 'namespace' } : { checked: false, why: 'subresource' };
  }
  const workload = psaWorkloadForResource(request.group, request.resource);
  if (workload === undefined) return { checked: false, why: 'resource' };
  if (workload.enforced) {
    if (PSA_IGNORED_POD_SUBRESOURCES.includes(request.subresource)) return { checked: false, why: 'subresource' };
    return { checked: true, what: 'pod', enforced: true, onlySignificantUpdates: request.operation === 'UPDATE' };
  }
  return request.subresource === '' ? { checked: true, what: 'pod-template', enforced: false } : { checked: false, why: 'subresource' };
}

function containerList(spec: Record<string, unknown>, field: string): Record<string, unknown>[] {
  const list = spec[field];
  return Array.isArray(list) ? list.map((item: unknown) => (isRecord(item) ? item : {})) : [];
}

function imageOf(container: Record<string, unknown>): unknown {
  return container.image ?? '';
}

/**
 * isSignificantPodUpdate: an UPDATE of a pod is checked only if it changes the number of
 * containers or init containers, the image of one, or adds an ephemeral container or changes the
 * image of one (matched by name). Anything else (labels, tolerations, resources) passes unchecked.
 */
export function isSignificantPodUpdate(pod: unknown, oldPod: unknown): boolean {
  const spec = isRecord(pod) && isRecord(pod.spec) ? pod.spec : {};
  const oldSpec = isRecord(oldPod) && isRecord(oldPod.spec) ? oldPod.spec : {};
  for (const field of ['containers', 'initContainers']) {
    const containers = containerList(spec, field);
    const oldContainers = containerList(oldSpec, field);
    if (containers.length !== oldContainers.length) return true;
    if (containers.some((container, index) => imageOf(container) !== imageOf(oldContainers[index]!))) return true;
  }
  const oldEphemeral = containerList(oldSpec, 'ephemeralContainers');
  return containerList(spec, 'ephemeralContainers').some((container) => {
    const old = oldEphemeral.find((candidate) => (candidate.name ?? '') === (container.name ?? ''));
    return old === undefined || imageOf(container) !== imageOf(old);
  });
}
