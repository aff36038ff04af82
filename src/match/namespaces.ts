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
