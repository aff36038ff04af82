/**
 * What the API server serves: the built-in group versions of the target Kubernetes version
 * (builtin-data.ts) plus the CustomResourceDefinitions found in the run. The request matcher
 * and the rules ask it whether a resource exists, its scope, its subresources, and which other
 * versions serve the same resource (for matchPolicy: Equivalent).
 */
import type { KubeVersion } from '../version.js';
import { BUILTIN_GROUP_VERSIONS } from './builtin-data.js';
import type { GroupVersionEntry, MinorVersion } from './types.js';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface ResourceInfo extends GroupVersionResource {
  readonly kind: string;
  readonly namespaced: boolean;
  readonly subresources: ReadonlySet<string>;
  /** Subresources that accept CONNECT. */
  readonly connect: ReadonlySet<string>;
  /** Subresources that are only read (pods/log): never admitted. */
  readonly readOnly: ReadonlySet<string>;
  /** From a CustomResourceDefinition in the run, not built in. */
  readonly custom: boolean;
  /** A custom resource's openAPIV3Schema in this version, where its CRD writes one. */
  readonly schema?: unknown;
  /** Its schemas in the CRD's other served versions (a request in one is converted to this one without its defaults). */
  readonly otherSchemas?: readonly unknown[];
}

export interface CustomResourceDefinitionInfo {
  readonly group: string;
  readonly versions: readonly string[];
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly subresources: readonly string[];
  /** Each version's openAPIV3Schema, where written. */
  readonly schemas?: ReadonlyMap<string, unknown>;
}

function minor(version: MinorVersion): number {
  return Number(version.split('.')[1]);
}

function served(target: KubeVersion, since: MinorVersion | undefined, removed: MinorVersion | undefined): boolean {
  const at = target.minor;
  return (since === undefined || at >= minor(since)) && (removed === undefined || at < minor(removed));
}

const key = (group: string, version: string): string => `${group}/${version}`;

export class Discovery {
  private readonly byGroupVersion = new Map<string, Map<string, ResourceInfo>>();
  private readonly versionsByGroup = new Map<string, string[]>();
  private readonly builtinGroups = new Set<string>();
  /** Built-in groups served in any version the data knows, even if not in the target one. */
  private readonly everBuiltinGroups = new Set<string>();
  /** Memos of allResources() and equivalents(), dropped when a CRD is added. */
  private all: readonly ResourceInfo[] | undefined;
  private readonly derived = new Map<string, unknown>();
  private readonly equivalentsMemo = new Map<string, Map<string, Map<string, readonly ResourceInfo[]>>>();

  constructor(
    readonly kubeVersion: KubeVersion,
    data: readonly GroupVersionEntry[] = BUILTIN_GROUP_VERSIONS,
  ) {
    for (const entry of data) {
      this.everBuiltinGroups.add(entry.group);
      if (!served(kubeVersion, entry.since, entry.removed)) continue;
      this.builtinGroups.add(entry.group);
      for (const resource of entry.resources) {
        if (!served(kubeVersion, resource.since, resource.removed)) continue;
        this.add({
          group: entry.group,
          version: entry.version,
          resource: resource.name,
          kind: resource.kind,
          namespaced: resource.namespaced,
          subresources: new Set(resource.subresources ?? []),
          connect: new Set(resource.connect ?? []),
          readOnly: new Set(resource.readOnly ?? []),
          custom: false,
        });
      }
      // A group version with no resources left still counts as served.
      if (!this.byGroupVersion.has(key(entry.group, entry.version))) this.byGroupVersion.set(key(entry.group, entry.version), new Map());
      const versions = this.versionsByGroup.get(entry.group) ?? [];
      if (!versions.includes(entry.version)) versions.push(entry.version);
      this.versionsByGroup.set(entry.group, versions);
    }
  }

  private add(info: ResourceInfo): void {
    this.forget();
    const gv = key(info.group, info.version);
    let resources = this.byGroupVersion.get(gv);
    if (resources === undefined) {
      resources = new Map();
      this.byGroupVersion.set(gv, resources);
    }
    resources.set(info.resource, info);
  }

  /** Adds a CRD of the run; it does not override built-in resources. */
  addCustomResource(crd: CustomResourceDefinitionInfo): void {
    if (this.builtinGroups.has(crd.group)) return;
    for (const version of crd.versions) {
      this.add({
        group: crd.group,
        version,
        resource: crd.plural,
        kind: crd.kind,
        namespaced: crd.namespaced,
        subresources: new Set(crd.subresources),
        connect: new Set(),
        readOnly: new Set(),
        custom: true,
        ...(crd.schemas?.has(version) === true ? { schema: crd.schemas.get(version), otherSchemas: [...crd.schemas].filter(([other]) => other !== version).map(([, schema]) => schema) } : {}),
      });
      const versions = this.versionsByGroup.get(crd.group) ?? [];
      if (!versions.includes(version)) versions.push(version);
      this.versionsByGroup.set(crd.group, versions);
    }
    this.forget();
  }

  private forget(): void {
    this.all = undefined;
    this.equivalentsMemo.clear();
    this.derived.clear();
  }

  /**
   * A value computed from this discovery, remembered under `key` until a resource is added
   * (a CRD of the run): for tables that rules derive from discovery once per run.
   */
  derive<T>(key: string, compute: () => T): T {
    if (this.derived.has(key)) return this.derived.get(key) as T;
    const value = compute();
    this.derived.set(key, value);
    return value;
  }

  /** A group that Kubernetes itself serves in the target version. */
  isBuiltinGroup(group: string): boolean {
    return this.builtinGroups.has(group);
  }

  /** A group that Kubernetes serves in some version the data knows (so a rule naming it is about built-ins). */
  isKnownBuiltinGroup(group: string): boolean {
    return this.everBuiltinGroups.has(group);
  }

  /** Whether the group is known at all (built in, or defined by a CRD of the run). */
  knowsGroup(group: string): boolean {
    return this.versionsByGroup.has(group);
  }

  versions(group: string): readonly string[] {
    return this.versionsByGroup.get(group) ?? [];
  }

  groups(): readonly string[] {
    return [...this.versionsByGroup.keys()];
  }

  resources(group: string, version: string): readonly ResourceInfo[] {
    return [...(this.byGroupVersion.get(key(group, version))?.values() ?? [])];
  }

  /** Every resource, by group version in the order they were added (one frozen array, rebuilt after a CRD is added). */
  allResources(): readonly ResourceInfo[] {
    this.all ??= Object.freeze([...this.byGroupVersion.values()].flatMap((resources) => [...resources.values()]));
    return this.all;
  }

  resource(group: string, version: string, resource: string): ResourceInfo | undefined {
    return this.byGroupVersion.get(key(group, version))?.get(resource);
  }

  /**
   * The same resource served under another version of its group (what matchPolicy:
   * Equivalent converts between): autoscaling/v1 and v2 horizontalpodautoscalers, every
   * served version of a CRD.
   */
  equivalents(gvr: GroupVersionResource): readonly ResourceInfo[] {
    let byVersion = this.equivalentsMemo.get(gvr.group);
    if (byVersion === undefined) {
      byVersion = new Map();
      this.equivalentsMemo.set(gvr.group, byVersion);
    }
    let byResource = byVersion.get(gvr.version);
    if (byResource === undefined) {
      byResource = new Map();
      byVersion.set(gvr.version, byResource);
    }
    let found = byResource.get(gvr.resource);
    if (found === undefined) {
      found = Object.freeze(
        this.versions(gvr.group)
          .filter((version) => version !== gvr.version)
          .map((version) => this.resource(gvr.group, version, gvr.resource))
          .filter((info): info is ResourceInfo => info !== undefined),
      );
      byResource.set(gvr.resource, found);
    }
    return found;
  }
}
