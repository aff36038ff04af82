/**
 * `simulate --object FILE` (or `-`) and `--old-object FILE`: the object of the simulated request,
 * read as kubectl reads a manifest (YAML 1.1, one object), and the request flags it fills in: the
 * operation (CREATE, or UPDATE with --old-object), the group, version and resource of its kind,
 * its namespace (metadata.namespace, else --namespace, else kubectl's `default`) and its labels.
 * A flag that contradicts the object is a usage error, as kubectl's namespace mismatch is.
 */
import { UsageError } from '../errors.js';
import { isRecord } from '../json.js';
import type { Discovery, ResourceInfo } from '../kube/discovery/discovery.js';
import { decode, readBytes } from '../load/sources.js';
import type { Labels } from '../match/selector.js';
import { DEFAULT_NAMESPACE } from '../model/pod-security.js';
import { parseFile } from '../parse/yaml.js';
import type { RequestFlags } from './request-flags.js';
import { splitApiVersion } from '../kube/api-version.js';

export interface RequestObject {
  /** The file as messages name it (`<stdin>` for -). */
  readonly file: string;
  readonly value: Readonly<Record<string, unknown>>;
  readonly kind: string;
  readonly apiVersion: string;
  /** metadata.name; undefined when not written (generateName: the request's name is then empty). */
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  /** metadata.labels. */
  readonly labels: Labels;
}

/** Reads one object from `path` (`-`: standard input); the errors name `flag`, the file and the position. */
export function readRequestObject(path: string, flag: '--object' | '--old-object', readStdin: () => Uint8Array): RequestObject {
  const raw = readBytes(path, readStdin);
  if (raw.tooLarge !== undefined) throw new UsageError(`${flag} ${raw.path}: the file is too large to be one object`);
  const text = decode(raw.bytes);
  if (text === null) throw new UsageError(`${flag} ${raw.path}: the file is not UTF-8 text`);
  const parsed = parseFile({ path: raw.path, text }, { prefilter: false });
  const problem = parsed.problems.find((candidate) => candidate.severity === 'error');
  if (problem !== undefined) throw new UsageError(`${flag} ${raw.path}:${problem.span.line}:${problem.span.column}: ${problem.message}`);
  const manifests = parsed.manifests;
  if (manifests.length !== 1) {
    throw new UsageError(
      `${flag} ${raw.path}: ${manifests.length === 0 ? 'holds no object' : `holds ${manifests.length} objects`}; a request carries one`,
      manifests.length > 1 ? 'give a file with the one object to simulate (a List is one request per item)' : undefined,
    );
  }
  const manifest = manifests[0]!;
  if (manifest.basePath.length > 0) throw new UsageError(`${flag} ${raw.path}: a List is one request per item; give the one object to simulate`);
  const read = manifest.toValue();
  if ('problem' in read) throw new UsageError(`${flag} ${raw.path}:${read.problem.span.line}:${read.problem.span.column}: ${read.problem.message}`);
  const value = read.value;
  const at = (path: (string | number)[]): string => {
    const span = manifest.locate(path);
    return `${raw.path}:${span.line}:${span.column}`;
  };
  if (!isRecord(value)) throw new UsageError(`${flag} ${raw.path}: not an object (a mapping with apiVersion and kind)`);
  if (typeof value.kind !== 'string' || value.kind === '') throw new UsageError(`${flag} ${at(['kind'])}: the object has no kind`);
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') throw new UsageError(`${flag} ${at(['apiVersion'])}: the object has no apiVersion`);
  const metadata = value.metadata ?? {};
  if (!isRecord(metadata)) throw new UsageError(`${flag} ${at(['metadata'])}: metadata must be a mapping`);
  for (const key of ['name', 'namespace'] as const) {
    if (metadata[key] != null && typeof metadata[key] !== 'string') throw new UsageError(`${flag} ${at(['metadata', key])}: metadata.${key} must be a string`);
  }
  const labels: Record<string, string> = {};
  if (metadata.labels != null) {
    if (!isRecord(metadata.labels)) throw new UsageError(`${flag} ${at(['metadata', 'labels'])}: metadata.labels must be a mapping`);
    for (const [key, label] of Object.entries(metadata.labels)) {
      if (typeof label !== 'string') throw new UsageError(`${flag} ${at(['metadata', 'labels', key])}: label ${key} must be a string (quote it)`);
      labels[key] = label;
    }
  }
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
  const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined;
  return { file: raw.path, value, kind: value.kind, apiVersion: value.apiVersion, name, namespace, labels };
}

/** The resource that serves `kind` in the object's group and version. */
function resourceOf(object: RequestObject, discovery: Discovery, flag: string): ResourceInfo {
  const { group, version } = splitApiVersion(object.apiVersion);
  if (!discovery.knowsGroup(group) || !discovery.versions(group).includes(version)) {
    throw new UsageError(`${flag} ${object.file}: apiVersion ${object.apiVersion} is not served by Kubernetes ${discovery.kubeVersion.major}.${discovery.kubeVersion.minor}`, 'custom resources are known from their CustomResourceDefinition in the paths');
  }
  const found = discovery.resources(group, version).find((info) => info.kind === object.kind);
  if (found === undefined) throw new UsageError(`${flag} ${object.file}: ${object.apiVersion} has no kind ${object.kind}`);
  return found;
}

export interface ObjectRequest {
  /** The flags with what the objects say filled in (parse them with parseRequestFlags). */
  readonly flags: RequestFlags;
  /** The new object's labels (CREATE, UPDATE) or the deleted one's (DELETE). */
  readonly objectLabels: Labels;
  /** UPDATE with --old-object: the old object's labels. */
  readonly oldObjectLabels?: Labels;
  /** The object names no namespace and --namespace gave none: kubectl's default was assumed. */
  readonly namespaceAssumed: boolean;
}

function conflict(flag: string, given: string, object: RequestObject, objectSays: string): never {
  throw new UsageError(`${flag} ${given} disagrees with the object in ${object.file} (${objectSays}): leave out ${flag}, or change the object`);
}

/**
 * The request flags for `object` (and `oldObject`): operation, group, version, resource and
 * namespace from the objects, checked against the flags given.
 */
export function objectRequestFlags(flags: RequestFlags, object: RequestObject, oldObject: RequestObject | undefined, discovery: Discovery): ObjectRequest {
  const operation = flags.operation?.trim().toUpperCase() ?? (oldObject !== undefined ? 'UPDATE' : 'CREATE');
  if (operation === 'CONNECT') throw new UsageError('--object: a CONNECT request carries options, not an object');
  if (oldObject !== undefined && operation !== 'UPDATE') throw new UsageError(`--old-object is the object before an UPDATE; the operation is ${operation}`);
  if (flags.objectLabels !== undefined) throw new UsageError("--object-labels and --object: the object's labels are its metadata.labels", 'leave out --object-labels');
  const info = resourceOf(object, discovery, '--object');
  if (oldObject !== undefined) {
    if (oldObject.kind !== object.kind || oldObject.apiVersion !== object.apiVersion) throw new UsageError(`--old-object ${oldObject.file} is a ${oldObject.apiVersion} ${oldObject.kind}, --object a ${object.apiVersion} ${object.kind}: an UPDATE has one kind`);
    if ((oldObject.name ?? '') !== (object.name ?? '') || (oldObject.namespace ?? '') !== (object.namespace ?? '')) {
      throw new UsageError(`--old-object ${oldObject.file} names another object than --object ${object.file}: an UPDATE changes one object`);
    }
  }
  if (flags.group !== undefined && flags.group.trim() !== info.group) conflict('--group', flags.group, object, `apiVersion ${object.apiVersion}`);
  if (flags.version !== undefined && flags.version.trim() !== info.version) conflict('--api-version', flags.version, object, `apiVersion ${object.apiVersion}`);
  if (flags.resource !== undefined) {
    const [resource, subresource] = flags.resource.trim().split('/', 2);
    if (resource !== info.resource) conflict('--resource', flags.resource, object, `kind ${object.kind}, resource ${info.resource}`);
    // A subresource request (pods/ephemeralcontainers) carries the object too: keep it.
    if (subresource !== undefined && flags.subresource !== undefined) throw new UsageError(`--resource ${flags.resource} names a subresource and --subresource ${flags.subresource} another one: give one of them`);
  }
  const isNamespace = info.group === '' && info.resource === 'namespaces';
  let namespace: string | undefined;
  let namespaceAssumed = false;
  if (isNamespace) {
    if (object.name === undefined) throw new UsageError(`--object ${object.file}: a Namespace needs metadata.name`);
    if (flags.namespace !== undefined && flags.namespace.trim() !== object.name) conflict('--namespace', flags.namespace, object, `Namespace ${object.name}`);
    namespace = object.name;
  } else if (info.namespaced) {
    const given = flags.namespace?.trim();
    // kubectl: "the namespace from the provided object "a" does not match the namespace "b"".
    if (object.namespace !== undefined && given !== undefined && given !== '' && given !== object.namespace) {
      throw new UsageError(`the namespace from the provided object "${object.namespace}" does not match the namespace "${given}"`, `pass --namespace ${object.namespace}, or leave --namespace out`);
    }
    namespace = object.namespace ?? (given !== undefined && given !== '' ? given : undefined);
    if (namespace === undefined) {
      namespace = DEFAULT_NAMESPACE;
      namespaceAssumed = true;
    }
  } else if (flags.namespace !== undefined) {
    throw new UsageError(`--namespace ${flags.namespace}: ${info.resource} are cluster-scoped, so the request has no namespace`);
  }
  return {
    flags: {
      ...flags,
      operation,
      group: info.group,
      version: info.version,
      resource: flags.resource?.trim() ?? info.resource,
      ...(namespace !== undefined ? { namespace } : {}),
    },
    objectLabels: object.labels,
    ...(oldObject !== undefined ? { oldObjectLabels: oldObject.labels } : {}),
    namespaceAssumed,
  };
}
