/**
 * The pod as Pod Security Admission reads it: the fields of corev1.ObjectMeta and
 * corev1.PodSpec that any check reads, after Go decoding and after what the API server does to
 * the object before admission (`decode.ts`, `prepare.ts`). Optional members are Go's nil
 * pointers; every other member holds Go's zero value when the input does not set it.
 *
 * Values the checks report carry a `path`: where the value is in the input, relative to the pod
 * (`['spec', 'containers', 0, ...]`, `['metadata', 'annotations', key]`). A value the API server
 * filled in points at the field it was filled in from.
 */
import type { FieldPath } from '../../field-path.js';

export interface PodView {
  /** metadata.annotations, in input order (checks that report them sort them as upstream does). */
  readonly annotations: ReadonlyMap<string, string>;
  readonly spec: PodSpecView;
}

export interface PodSpecView {
  /** spec.os.name; undefined when spec.os is nil. */
  readonly osName?: string;
  readonly hostUsers?: boolean;
  readonly hostNetwork: boolean;
  readonly hostPID: boolean;
  readonly hostIPC: boolean;
  readonly securityContext?: PodSecurityContextView;
  readonly initContainers: readonly ContainerView[];
  readonly containers: readonly ContainerView[];
  readonly ephemeralContainers: readonly ContainerView[];
  readonly volumes: readonly VolumeView[];
}

/** The securityContext fields the pod and its containers share. */
export interface CommonSecurityContextView {
  readonly runAsNonRoot?: boolean;
  readonly runAsUser?: number;
  readonly seccompProfile?: { readonly type: string };
  readonly seLinuxOptions?: SELinuxOptionsView;
  readonly windowsOptions?: { readonly hostProcess?: boolean };
  readonly appArmorProfile?: AppArmorProfileView;
}

export interface PodSecurityContextView extends CommonSecurityContextView {
  readonly sysctls: readonly SysctlView[];
}

export interface SecurityContextView extends CommonSecurityContextView {
  readonly privileged?: boolean;
  readonly allowPrivilegeEscalation?: boolean;
  readonly capabilities?: CapabilitiesView;
  readonly procMount?: string;
}

export interface SELinuxOptionsView {
  readonly type: string;
  readonly user: string;
  readonly role: string;
}

export interface AppArmorProfileView {
  readonly type: string;
  /** Whether localhostProfile is set (the API server compares whole profiles when it copies annotations). */
  readonly hasLocalhostProfile: boolean;
  /** securityContext.appArmorProfile.type, or the annotation the API server copied the profile from. */
  readonly path: FieldPath;
}

export interface CapabilitiesView {
  readonly add: readonly CapabilityView[];
  readonly drop: readonly CapabilityView[];
}

export interface CapabilityView {
  readonly name: string;
  /** e.g. [..., 'capabilities', 'add', 2] */
  readonly path: FieldPath;
}

export interface SysctlView {
  readonly name: string;
  readonly path: FieldPath;
}

/** A container, init container or ephemeral container (EphemeralContainerCommon has the same fields). */
export interface ContainerView {
  readonly name: string;
  /** e.g. ['spec', 'initContainers', 0] */
  readonly path: FieldPath;
  readonly securityContext?: SecurityContextView;
  readonly ports: readonly PortView[];
  readonly livenessProbe?: HandlerView;
  readonly readinessProbe?: HandlerView;
  readonly startupProbe?: HandlerView;
  readonly lifecycle?: { readonly postStart?: HandlerView; readonly preStop?: HandlerView };
}

export interface PortView {
  /** e.g. ['spec', 'containers', 0, 'ports', 1] */
  readonly path: FieldPath;
  readonly containerPort: number;
  readonly hostPort: number;
  /** The field hostPort's value is in: itself, or containerPort when the API server defaulted hostPort from it. */
  readonly hostPortField: 'hostPort' | 'containerPort';
}

/** A probe or lifecycle handler: only the actions with a host. */
export interface HandlerView {
  readonly httpGet?: { readonly host: string };
  readonly tcpSocket?: { readonly host: string };
}

export interface VolumeView {
  readonly name: string;
  /** e.g. ['spec', 'volumes', 0] */
  readonly path: FieldPath;
  /** The volume source fields that are set (non-nil), e.g. ['hostPath']. */
  readonly sources: readonly VolumeSourceKey[];
}

/** Every field of corev1.VolumeSource (all pointers), in the order Go declares them. */
export const VOLUME_SOURCE_KEYS = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
] as const;

export type VolumeSourceKey = (typeof VOLUME_SOURCE_KEYS)[number];
