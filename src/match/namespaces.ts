/** The labels a namespace has, as far as the run can tell. */
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import type { SourceFile } from '../load/sources.js';
import type { NamespaceObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../model/types.js';
import { memoKey, type RunScope } from '../run-scope.js';
import type { Labels } from './selector.js';
import { namespaceMetadataErrors } from '../validate/namespace-meta.js';

/** The run's Namespaces by name (the first of each name), built once per run. */
const BY_NAME = memoKey<ReadonlyMap<string, NamespaceObject>>('Namespaces by name');

export type NamespaceScope = Pick<RunScope, 'namespaces' | 'kubeVersion' | 'memo'>;

/** The run's Namespaces by the stream their file is applied with, and name (streamOf), built once per run. */
const BY_STREAM = memoKey<ReadonlyMap<string, readonly NamespaceObject[]>>('Namespaces by stream and name');

/** The run's first Namespace manifest of this name. */
export function namespaceNamed(scope: Pick<RunScope, 'namespaces' | 'memo'>, name: string): NamespaceObject | undefined {
  const index = scope.memo.get(BY_NAME, () => {
    const built = new Map<string, NamespaceObject>();
    for (const namespace of scope.namespaces) if (!built.has(namespace.name)) built.set(namespace.name, namespace);
    return built;
  });
  return index.get(name);
}

/**
 * A Namespace manifest's labels when the run has one, else none; plus
 * `kubernetes.io/metadata.name`, which the API server sets on every Namespace from 1.21.
 */
export function namespaceLabels(scope: NamespaceScope, name: string): Labels {
  return labelsOfNamespace(namespaceNamed(scope, name), name, scope.kubeVersion);
}

/** The stream a file's objects are applied with: a rendered stream's template is its stream (src/load/helm.ts). */
export function streamOf(file: SourceFile): string {
  return file.renderedFrom ?? file.path;
}

/**
 * The labels the namespace `name` may have when `stream` is applied: those of each Namespace
 * manifest of that name in the stream (a file that holds one is applied with it, whatever another
 * build's manifest of the same name says; one that holds it twice leaves the last, but which
 * was applied last is not known), else those of the run's first (namespaceLabels).
 */
export function namespaceLabelsWith(scope: NamespaceScope, name: string, stream: string): Labels[] {
  const index = scope.memo.get(BY_STREAM, () => {
    const built = new Map<string, NamespaceObject[]>();
    for (const namespace of scope.namespaces) {
      const key = `${streamOf(namespace.manifest.file)}\u0000${namespace.name}`;
      const found = built.get(key);
      if (found === undefined) built.set(key, [namespace]);
      else found.push(namespace);
    }
    return built;
  });
  const own = index.get(`${stream}\u0000${name}`) ?? [];
  return own.length === 0 ? [namespaceLabels(scope, name)] : own.map((namespace) => labelsOfNamespace(namespace, name, scope.kubeVersion));
}

/**
 * The labels of the namespace `name` described by `manifest` (or by nothing), as the API server
 * sets them. A manifest whose name or labels the API server rejects (src/validate/namespace-meta.ts)
 * never exists: its labels count for nothing, as if the run had no manifest.
 */
export function labelsOfNamespace(manifest: NamespaceObject | undefined, name: string, kubeVersion: KubeVersion): Labels {
  const accepted = manifest !== undefined && namespaceMetadataErrors(manifest.written).length === 0 ? manifest : undefined;
  const labels: Record<string, string> = { ...(accepted?.labels ?? {}) };
  if (isAtLeast(kubeVersion, 1, 21)) labels[NAMESPACE_NAME_LABEL] = name;
  else delete labels[NAMESPACE_NAME_LABEL];
  return labels;
}
