/**
 * What the API server does to a pod before Pod Security Admission reads it. PodSecurity is a
 * validating admission plugin: it sees the object after decoding (which applies the v1 defaults,
 * k8s.io/kubernetes pkg/apis/core/v1/defaults.go) and, for a Pod, after the pod strategy's
 * PrepareForCreate (pkg/registry/core/pod/strategy.go). Only the steps that change a field a
 * check reads are here; none of them changes whether a pod is allowed, only what the message
 * says and where it points.
 */
import type { ContainerView, PodSpecView, PodView, PortView, VolumeView } from './model.js';

/**
 * A Pod is defaulted and prepared as a Pod; a pod template (in a Deployment, Job, ...) gets only
 * the defaults of every PodSpec. The Pods a controller later creates from a template are Pods.
 */
export type PodObjectKind = 'pod' | 'template';

/** SetDefaults_Volume: a volume with no source is an emptyDir (applies to every PodSpec). */
function defaultVolumeSource(volume: VolumeView): VolumeView {
  return volume.sources.length === 0 ? { ...volume, sources: ['emptyDir'] } : volume;
}

/** defaultHostNetworkPorts (SetDefaults_Pod, Pods only): with hostNetwork, an unset hostPort is the containerPort. */
function defaultHostNetworkPort(port: PortView): PortView {
  return port.hostPort === 0 ? { ...port, hostPort: port.containerPort, hostPortField: 'containerPort' } : port;
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/**
 * applyAppArmorVersionSkew (PrepareForCreate, Pods only, not for `os.name: windows`): a
 * container with a deprecated AppArmor annotation and no appArmorProfile field gets the field the
 * annotation names, unless it equals the pod-level profile. Only "unconfined" becomes a value
 * Pod Security forbids (Unconfined); the RuntimeDefault and Localhost profiles it can also copy
 * are allowed values, so copying them changes nothing a check reports.
 */
function copyUnconfinedAnnotation(container: ContainerView, pod: PodView): ContainerView {
  const key = APPARMOR_ANNOTATION_PREFIX + container.name;
  if (pod.annotations.get(key) !== 'unconfined') return container;
  if (container.securityContext?.appArmorProfile !== undefined) return container;
  const podProfile = pod.spec.securityContext?.appArmorProfile;
  if (podProfile !== undefined && podProfile.type === 'Unconfined' && !podProfile.hasLocalhostProfile) return container;
  return {
    ...container,
    securityContext: {
      ...container.securityContext,
      appArmorProfile: { type: 'Unconfined', hasLocalhostProfile: false, path: ['metadata', 'annotations', key] },
    },
  };
}

function copyUnconfinedAnnotations(containers: readonly ContainerView[], pod: PodView): ContainerView[] {
  return containers.map((container) => copyUnconfinedAnnotation(container, pod));
}

function withHostNetworkPorts(containers: readonly ContainerView[]): ContainerView[] {
  return containers.map((container) => ({ ...container, ports: container.ports.map(defaultHostNetworkPort) }));
}

/** The pod as the API server hands it to Pod Security Admission. */
export function prepareAsApiServer(pod: PodView, kind: PodObjectKind): PodView {
  let spec: PodSpecView = { ...pod.spec, volumes: pod.spec.volumes.map(defaultVolumeSource) };
  if (kind === 'template') return { ...pod, spec };
  if (spec.hostNetwork) {
    // Ephemeral containers are not defaulted: defaultHostNetworkPorts covers containers and init containers.
    spec = { ...spec, containers: withHostNetworkPorts(spec.containers), initContainers: withHostNetworkPorts(spec.initContainers) };
  }
  if (spec.osName !== 'windows') {
    spec = {
      ...spec,
      initContainers: copyUnconfinedAnnotations(spec.initContainers, pod),
      containers: copyUnconfinedAnnotations(spec.containers, pod),
      ephemeralContainers: copyUnconfinedAnnotations(spec.ephemeralContainers, pod),
    };
  }
  return { ...pod, spec };
}
