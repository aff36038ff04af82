/** The labels a namespace has, as far as the run can tell. */
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import type { NamespaceObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../model/types.js';
import { memoKey, type RunScope } from '../run-scope.js';
import type { Labels } from './selector.js';
import { namespaceMetadataErrors } from '../validate/namespace-meta.js';

/** The run's Namespaces by name (the first of each name), built once per run. */
const BY_NAME = memoKey<ReadonlyMap<string, NamespaceObject>>('Namespaces by name');

export type NamespaceScope = Pick<RunScope, 'namespaces' | 'kubeVersion' | 'memo'>;

/**
 * The run's Namespace manifest of this name: the one in `file` when it has one (what that file is
 * applied with: a rendered build beside another build's Namespace of the same name), else the
 * run's first.
 */
export function namespaceNamed(scope: Pick<RunScope, 'namespaces' | 'memo'>, name: string, file?: string): NamespaceObject | undefined {
  if (file !== undefined) {
    const own = scope.namespaces.find((namespace) => namespace.name === name && namespace.manifest.file.path === file);
    if (own !== undefined) return own;
  }
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
export function namespaceLabels(scope: NamespaceScope, name: string, file?: string): Labels {
  return labelsOfNamespace(namespaceNamed(scope, name, file), name, scope.kubeVersion);
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
