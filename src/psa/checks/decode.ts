/**
 * Reads untrusted decoded JSON/YAML into the pod view, as Go's encoding/json would fill
 * corev1.ObjectMeta and corev1.PodSpec: keys are case-sensitive, JSON null leaves a field at its
 * zero value (nil for pointers), and `{}` is a set (non-nil) struct.
 *
 * A value of the wrong type (a string where a bool belongs, an int32 out of range) makes the API
 * server reject the whole request while decoding it, before any admission plugin runs; there is
 * no Pod Security verdict for such an object. To stay useful on the rest of the object, such a
 * value is read as absent, and a list item that is not an object is skipped.
 */
import type { FieldPath } from '../../field-path.js';
import { isRecord } from '../../json.js';
import { goString } from './go-text.js';
import {
  VOLUME_SOURCE_KEYS,
  type AppArmorProfileView,
  type CapabilitiesView,
  type CapabilityView,
  type CommonSecurityContextView,
  type ContainerView,
  type HandlerView,
  type PodSecurityContextView,
  type PodSpecView,
  type PodView,
  type PortView,
  type SecurityContextView,
  type SELinuxOptionsView,
  type SysctlView,
  type VolumeView,
} from './model.js';

type JsonObject = Record<string, unknown>;

/**
 * Builds the field paths of the view, which only failures' details read: podPassesAll asks for
 * none, and every path is then one shared empty array (the paths were most of what deciding a
 * pod allocated).
 */
type PathOf = (base: FieldPath, ...parts: (string | number)[]) => FieldPath;
const withPaths: PathOf = (base, ...parts) => [...base, ...parts];
const NO_PATH: FieldPath = Object.freeze([]) as unknown as FieldPath;
const withoutPaths: PathOf = () => NO_PATH;

/** An own member: never a prototype property such as `constructor`. */
function member(object: JsonObject | undefined, key: string): unknown {
  return object !== undefined && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** A pointer to a struct: nil unless the value is an object. */
function struct(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = member(object, key);
  return isRecord(value) ? value : undefined;
}

/** A *bool. */
function optionalBool(object: JsonObject | undefined, key: string): boolean | undefined {
  const value = member(object, key);
  return typeof value === 'boolean' ? value : undefined;
}

/** A string (zero value ""). */
function string(object: JsonObject | undefined, key: string): string {
  return optionalString(object, key) ?? '';
}

/** A *string (or a string-typed enum behind a pointer). */
function optionalString(object: JsonObject | undefined, key: string): string | undefined {
  const value = member(object, key);
  return typeof value === 'string' ? goString(value) : undefined;
}

const INT32_LIMIT = 2 ** 31;
const INT64_LIMIT = 2 ** 63;

/** An integer field of `bits` bits; undefined when absent, fractional or out of range. */
function optionalInt(object: JsonObject | undefined, key: string, bits: 32 | 64): number | undefined {
  const value = member(object, key);
  const limit = bits === 32 ? INT32_LIMIT : INT64_LIMIT;
  if (typeof value === 'bigint') return value >= -BigInt(limit) && value < BigInt(limit) ? Number(value) : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  return value >= -limit && value < limit ? value : undefined;
}

/** The objects of a list, each with its index in the input (non-objects are skipped). */
function objects(object: JsonObject | undefined, key: string): { item: JsonObject; index: number }[] {
  const value = member(object, key);
  if (!Array.isArray(value)) return [];
  const out: { item: JsonObject; index: number }[] = [];
  value.forEach((item: unknown, index) => {
    if (isRecord(item)) out.push({ item, index });
  });
  return out;
}

/** A []Capability, each with its path; items that are not strings are skipped. */
function capabilityList(capabilities: JsonObject, key: 'add' | 'drop', path: FieldPath, pathOf: PathOf): CapabilityView[] {
  const value = member(capabilities, key);
  if (!Array.isArray(value)) return [];
  const out: CapabilityView[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item === 'string') out.push({ name: goString(item), path: pathOf(path, key, index) });
  });
  return out;
}

function decodeSeLinuxOptions(options: JsonObject | undefined): SELinuxOptionsView | undefined {
  if (options === undefined) return undefined;
  return { type: string(options, 'type'), user: string(options, 'user'), role: string(options, 'role') };
}

function decodeAppArmorProfile(securityContext: JsonObject | undefined, path: FieldPath, pathOf: PathOf): AppArmorProfileView | undefined {
  const profile = struct(securityContext, 'appArmorProfile');
  if (profile === undefined) return undefined;
  return {
    type: string(profile, 'type'),
    hasLocalhostProfile: optionalString(profile, 'localhostProfile') !== undefined,
    path: pathOf(path, 'appArmorProfile', 'type'),
  };
}

/** The fields both kinds of security context hold (one object literal each: spreading one into the other was slow). */
function commonFields(securityContext: JsonObject | undefined, path: FieldPath, pathOf: PathOf): CommonSecurityContextView {
  const seccompProfile = struct(securityContext, 'seccompProfile');
  const windowsOptions = struct(securityContext, 'windowsOptions');
  return {
    runAsNonRoot: optionalBool(securityContext, 'runAsNonRoot'),
    runAsUser: optionalInt(securityContext, 'runAsUser', 64),
    seccompProfile: seccompProfile === undefined ? undefined : { type: string(seccompProfile, 'type') },
    seLinuxOptions: decodeSeLinuxOptions(struct(securityContext, 'seLinuxOptions')),
    windowsOptions: windowsOptions === undefined ? undefined : { hostProcess: optionalBool(windowsOptions, 'hostProcess') },
    appArmorProfile: decodeAppArmorProfile(securityContext, path, pathOf),
  };
}

function decodePodSecurityContext(spec: JsonObject | undefined, pathOf: PathOf): PodSecurityContextView | undefined {
  const securityContext = struct(spec, 'securityContext');
  if (securityContext === undefined) return undefined;
  const path = pathOf([], 'spec', 'securityContext');
  const sysctls: SysctlView[] = objects(securityContext, 'sysctls').map(({ item, index }) => ({
    name: string(item, 'name'),
    path: pathOf(path, 'sysctls', index, 'name'),
  }));
  const common = commonFields(securityContext, path, pathOf);
  return {
    runAsNonRoot: common.runAsNonRoot,
    runAsUser: common.runAsUser,
    seccompProfile: common.seccompProfile,
    seLinuxOptions: common.seLinuxOptions,
    windowsOptions: common.windowsOptions,
    appArmorProfile: common.appArmorProfile,
    sysctls,
  };
}

function decodeCapabilities(securityContext: JsonObject, securityContextPath: FieldPath, pathOf: PathOf): CapabilitiesView | undefined {
  const capabilities = struct(securityContext, 'capabilities');
  if (capabilities === undefined) return undefined;
  const path = pathOf(securityContextPath, 'capabilities');
  return { add: capabilityList(capabilities, 'add', path, pathOf), drop: capabilityList(capabilities, 'drop', path, pathOf) };
}

function decodeSecurityContext(container: JsonObject, containerPath: FieldPath, pathOf: PathOf): SecurityContextView | undefined {
  const securityContext = struct(container, 'securityContext');
  if (securityContext === undefined) return undefined;
  const path = pathOf(containerPath, 'securityContext');
  const common = commonFields(securityContext, path, pathOf);
  return {
    runAsNonRoot: common.runAsNonRoot,
    runAsUser: common.runAsUser,
    seccompProfile: common.seccompProfile,
    seLinuxOptions: common.seLinuxOptions,
    windowsOptions: common.windowsOptions,
    appArmorProfile: common.appArmorProfile,
    privileged: optionalBool(securityContext, 'privileged'),
    allowPrivilegeEscalation: optionalBool(securityContext, 'allowPrivilegeEscalation'),
    capabilities: decodeCapabilities(securityContext, path, pathOf),
    procMount: optionalString(securityContext, 'procMount'),
  };
}

/** A Probe or LifecycleHandler: ProbeHandler is inlined in Probe, so both hold httpGet and tcpSocket directly. */
function decodeHandler(handler: JsonObject | undefined): HandlerView | undefined {
  if (handler === undefined) return undefined;
  const httpGet = struct(handler, 'httpGet');
  const tcpSocket = struct(handler, 'tcpSocket');
  return {
    httpGet: httpGet === undefined ? undefined : { host: string(httpGet, 'host') },
    tcpSocket: tcpSocket === undefined ? undefined : { host: string(tcpSocket, 'host') },
  };
}

function decodePorts(container: JsonObject, containerPath: FieldPath, pathOf: PathOf): PortView[] {
  return objects(container, 'ports').map(({ item, index }) => ({
    path: pathOf(containerPath, 'ports', index),
    containerPort: optionalInt(item, 'containerPort', 32) ?? 0,
    hostPort: optionalInt(item, 'hostPort', 32) ?? 0,
    hostPortField: 'hostPort',
  }));
}

function decodeContainers(spec: JsonObject | undefined, key: 'initContainers' | 'containers' | 'ephemeralContainers', pathOf: PathOf): ContainerView[] {
  return objects(spec, key).map(({ item, index }) => {
    const path = pathOf([], 'spec', key, index);
    const lifecycle = struct(item, 'lifecycle');
    return {
      name: string(item, 'name'),
      path,
      securityContext: decodeSecurityContext(item, path, pathOf),
      ports: decodePorts(item, path, pathOf),
      livenessProbe: decodeHandler(struct(item, 'livenessProbe')),
      readinessProbe: decodeHandler(struct(item, 'readinessProbe')),
      startupProbe: decodeHandler(struct(item, 'startupProbe')),
      lifecycle:
        lifecycle === undefined
          ? undefined
          : { postStart: decodeHandler(struct(lifecycle, 'postStart')), preStop: decodeHandler(struct(lifecycle, 'preStop')) },
    };
  });
}

function decodeVolumes(spec: JsonObject | undefined, pathOf: PathOf): VolumeView[] {
  return objects(spec, 'volumes').map(({ item, index }) => ({
    name: string(item, 'name'),
    path: pathOf([], 'spec', 'volumes', index),
    sources: VOLUME_SOURCE_KEYS.filter((key) => struct(item, key) !== undefined),
  }));
}

function decodeAnnotations(metadata: JsonObject | undefined): Map<string, string> {
  const annotations = new Map<string, string>();
  const value = struct(metadata, 'annotations');
  if (value === undefined) return annotations;
  for (const [key, annotation] of Object.entries(value)) {
    if (typeof annotation === 'string') annotations.set(goString(key), goString(annotation));
  }
  return annotations;
}

function decodeSpec(spec: JsonObject | undefined, pathOf: PathOf): PodSpecView {
  const os = struct(spec, 'os');
  return {
    osName: os === undefined ? undefined : string(os, 'name'),
    hostUsers: optionalBool(spec, 'hostUsers'),
    hostNetwork: optionalBool(spec, 'hostNetwork') === true,
    hostPID: optionalBool(spec, 'hostPID') === true,
    hostIPC: optionalBool(spec, 'hostIPC') === true,
    securityContext: decodePodSecurityContext(spec, pathOf),
    initContainers: decodeContainers(spec, 'initContainers', pathOf),
    containers: decodeContainers(spec, 'containers', pathOf),
    ephemeralContainers: decodeContainers(spec, 'ephemeralContainers', pathOf),
    volumes: decodeVolumes(spec, pathOf),
  };
}

/**
 * The pod view of a pod's (or pod template's) metadata and spec, as Go would decode them.
 * `paths: false`: every field path is empty (for a verdict without details, podPassesAll).
 */
export function decodePod(podMetadata: unknown, podSpec: unknown, { paths = true }: { readonly paths?: boolean } = {}): PodView {
  return {
    annotations: decodeAnnotations(isRecord(podMetadata) ? podMetadata : undefined),
    spec: decodeSpec(isRecord(podSpec) ? podSpec : undefined, paths ? withPaths : withoutPaths),
  };
}
