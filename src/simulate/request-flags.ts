/**
 * The request to simulate, from the command-line flags, checked against API discovery (the
 * built-in resources of the target version plus the run's CRDs): an unknown group, version,
 * resource or subresource is a usage error that names the closest real one; missing or
 * contradictory flags are usage errors too.
 */
import { UsageError } from '../errors.js';
import type { Discovery, ResourceInfo } from '../kube/discovery/discovery.js';
import { OPERATIONS, type Operation } from '../match/request.js';
import type { Labels } from '../match/selector.js';
import { closest } from '../text/closest.js';
import { parseLabels } from './labels.js';
import type { RequestObject } from './object.js';

export interface RequestFlags {
  readonly operation?: string;
  readonly resource?: string;
  readonly group?: string;
  readonly version?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly namespaceLabels?: string;
  readonly objectLabels?: string;
  readonly dryRun?: boolean;
}

export interface SimulatedRequest {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kind: string;
  /** null for cluster-scoped objects; a Namespace's own name for the namespaces resource. */
  readonly namespace: string | null;
  /** From --namespace-labels; undefined when not given (the run's Namespace manifest or the automatic label then). */
  readonly namespaceLabelsFlag: Labels | undefined;
  /** The object's labels (--object-labels, or the --object's; none when not given). */
  readonly objectLabels: Labels;
  readonly dryRun: boolean;
  /** --object: the request's object (CREATE, UPDATE), or the object deleted (DELETE). */
  readonly object?: RequestObject;
  /** --old-object: the object before an UPDATE; its labels are the old object's labels. */
  readonly oldObject?: RequestObject;
  /** The object names no namespace and none was given: kubectl's `default` was assumed. */
  readonly namespaceAssumed?: boolean;
}

/** Subresources that are only read (GET): reads never reach admission (facts §5). */
const READ_ONLY_SUBRESOURCES = new Set(['log']);

const groupName = (group: string): string => (group === '' ? '"" (core)' : group);
const suggestion = (word: string, candidates: readonly string[]): string => {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean "${near}"?`;
};

function parseOperation(text: string | undefined): Operation {
  if (text === undefined || text.trim() === '') throw new UsageError('simulate needs --operation (CREATE, UPDATE, DELETE or CONNECT)', 'e.g. admission-lint simulate deploy/ --operation CREATE --resource pods --namespace team-a');
  const upper = text.trim().toUpperCase();
  if ((OPERATIONS as readonly string[]).includes(upper)) return upper as Operation;
  const reads = ['GET', 'LIST', 'WATCH'];
  if (reads.includes(upper)) throw new UsageError(`--operation ${text}: reads never reach admission webhooks; only CREATE, UPDATE, DELETE and CONNECT are admitted`);
  if (upper === 'PATCH') throw new UsageError('--operation PATCH: a patch is admitted as UPDATE (or CREATE, for server-side apply of a new object)', 'use --operation UPDATE');
  throw new UsageError(`--operation "${text}" is not CREATE, UPDATE, DELETE or CONNECT${suggestion(upper, OPERATIONS)}`);
}

function resolveGroup(group: string, discovery: Discovery): void {
  if (discovery.knowsGroup(group)) return;
  throw new UsageError(`--group ${groupName(group)}: the API server (Kubernetes ${discovery.kubeVersion.major}.${discovery.kubeVersion.minor}) serves no such API group${suggestion(group, discovery.groups())}`, 'custom resources are known from their CustomResourceDefinition in the paths');
}

function resolveVersion(group: string, version: string | undefined, discovery: Discovery): string {
  const versions = discovery.versions(group);
  if (version !== undefined) {
    if (versions.includes(version)) return version;
    throw new UsageError(`--api-version ${version}: group ${groupName(group)} is not served in that version${suggestion(version, versions)}`, `served versions: ${versions.join(', ')}`);
  }
  if (versions.includes('v1')) return 'v1';
  if (versions.length === 1) return versions[0]!;
  throw new UsageError(`group ${groupName(group)} is served in several versions (${versions.join(', ')}): choose one with --api-version`);
}

function resolveResource(group: string, version: string, resource: string, discovery: Discovery): ResourceInfo {
  const info = discovery.resource(group, version, resource);
  if (info !== undefined) return info;
  const here = discovery.resources(group, version);
  const byKind = here.find((candidate) => candidate.kind.toLowerCase() === resource.toLowerCase());
  if (byKind) throw new UsageError(`--resource ${resource}: rules and requests name the plural resource; did you mean "${byKind.resource}"?`);
  const near = closest(resource, here.map((candidate) => candidate.resource));
  if (near !== undefined) throw new UsageError(`--resource ${resource}: ${groupName(group)}/${version} has no such resource; did you mean "${near}"?`);
  const elsewhere = discovery.allResources().filter((candidate) => candidate.resource === resource);
  if (elsewhere.length > 0) {
    const other = elsewhere[0]!;
    throw new UsageError(`--resource ${resource}: ${groupName(group)}/${version} has no such resource; it is served by ${other.group === '' ? 'the core group' : `--group ${other.group}`} --api-version ${other.version}`);
  }
  const anywhere = closest(resource, [...new Set(discovery.allResources().map((candidate) => candidate.resource))]);
  throw new UsageError(`--resource ${resource}: ${groupName(group)}/${version} has no such resource${anywhere !== undefined ? `; the closest served resource is "${anywhere}"` : ''}`, `${groupName(group)}/${version} serves: ${here.map((candidate) => candidate.resource).join(', ') || 'nothing'}`);
}

function resolveSubresource(info: ResourceInfo, subresource: string, operation: Operation): void {
  const label = `${info.resource}/${subresource}`;
  if (subresource !== '' && !info.subresources.has(subresource)) {
    throw new UsageError(`--subresource ${subresource}: ${info.resource} has no such subresource${suggestion(subresource, [...info.subresources])}`, info.subresources.size > 0 ? `its subresources: ${[...info.subresources].join(', ')}` : `${info.resource} has no subresources`);
  }
  if (READ_ONLY_SUBRESOURCES.has(subresource)) throw new UsageError(`${label} is only read (GET); reads never reach admission webhooks`);
  const connect = info.connect.has(subresource);
  if (operation === 'CONNECT' && !connect) {
    const connectable = [...info.connect];
    throw new UsageError(`CONNECT is only admitted for connect subresources${connectable.length > 0 ? ` (${info.resource}: ${connectable.join(', ')})` : `, and ${info.resource} has none`}`, 'give one with --subresource, e.g. --subresource exec');
  }
  if (operation !== 'CONNECT' && connect) throw new UsageError(`${label} is admitted as CONNECT (exec, attach, port-forward and proxy requests), not ${operation}`, 'use --operation CONNECT');
}

function parseNamespace(info: ResourceInfo, flags: RequestFlags): string | null {
  const isNamespace = info.group === '' && info.resource === 'namespaces';
  const namespace = flags.namespace?.trim();
  if (isNamespace) {
    if (!namespace) throw new UsageError('a request for namespaces needs --namespace <name>: the Namespace object the request is about');
    return namespace;
  }
  if (info.namespaced) {
    if (!namespace) throw new UsageError(`${info.resource} are namespaced: give --namespace <name>`);
    return namespace;
  }
  if (namespace !== undefined) throw new UsageError(`--namespace ${namespace}: ${info.resource} are cluster-scoped, so the request has no namespace (and namespaceSelectors do not apply)`, 'leave out --namespace and --namespace-labels');
  if (flags.namespaceLabels !== undefined) throw new UsageError(`--namespace-labels: ${info.resource} are cluster-scoped, so the request has no namespace`);
  return null;
}

/** Checks the flags against discovery and builds the request. */
export function parseRequestFlags(flags: RequestFlags, discovery: Discovery): SimulatedRequest {
  const operation = parseOperation(flags.operation);
  if (flags.resource === undefined || flags.resource.trim() === '') throw new UsageError('simulate needs --resource (the plural resource, e.g. pods, deployments)', 'e.g. --resource pods, or --group apps --resource deployments');
  let resource = flags.resource.trim();
  let subresource = flags.subresource?.trim() ?? '';
  const slash = resource.indexOf('/');
  if (slash >= 0) {
    if (flags.subresource !== undefined) throw new UsageError(`--resource ${resource} names a subresource and --subresource ${flags.subresource} another one: give one of them`);
    subresource = resource.slice(slash + 1);
    resource = resource.slice(0, slash);
  }
  const group = flags.group?.trim() ?? '';
  resolveGroup(group, discovery);
  const version = resolveVersion(group, flags.version?.trim(), discovery);
  const info = resolveResource(group, version, resource, discovery);
  resolveSubresource(info, subresource, operation);
  const namespace = parseNamespace(info, flags);
  const isNamespace = info.group === '' && info.resource === 'namespaces';
  if (operation === 'CONNECT' && flags.objectLabels !== undefined) throw new UsageError('--object-labels: a CONNECT request carries options, not an object with labels');
  if (isNamespace && flags.objectLabels !== undefined) throw new UsageError("--object-labels: a Namespace's labels are its namespace labels", 'give them with --namespace-labels');
  const namespaceLabelsFlag = flags.namespaceLabels === undefined ? undefined : parseLabels(flags.namespaceLabels, '--namespace-labels');
  const nameLabel = namespaceLabelsFlag?.['kubernetes.io/metadata.name'];
  if (nameLabel !== undefined && namespace !== null && nameLabel !== namespace) {
    throw new UsageError(`--namespace-labels sets kubernetes.io/metadata.name=${nameLabel} but the namespace is ${namespace}: the API server sets that label to the namespace's name`);
  }
  return {
    operation,
    group,
    version,
    resource,
    subresource,
    kind: info.kind,
    namespace,
    namespaceLabelsFlag,
    objectLabels: flags.objectLabels === undefined ? {} : parseLabels(flags.objectLabels, '--object-labels'),
    dryRun: flags.dryRun === true,
  };
}
