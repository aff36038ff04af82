/** The labels a namespace has, as far as the run can tell. */
import { isAtLeast } from '../kube/version.js';
import type { NamespaceObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../model/recognize.js';
import type { RunScope } from '../run-scope.js';
import type { Labels } from './selector.js';

/** The run's Namespaces by name (the first of each name), built once per run. */
const byName = new WeakMap<readonly NamespaceObject[], Map<string, NamespaceObject>>();

/** The run's first Namespace manifest of this name. */
export function namespaceNamed(namespaces: readonly NamespaceObject[], name: string): NamespaceObject | undefined {
  let index = byName.get(namespaces);
  if (index === undefined) {
    index = new Map();
    for (const namespace of namespaces) if (!index.has(namespace.name)) index.set(namespace.name, namespace);
    byName.set(namespaces, index);
  }
  return index.get(name);
}

/**
 * A Namespace manifest's labels when the run has one, else none; plus
 * `kubernetes.io/metadata.name`, which the API server sets on every Namespace from 1.21.
 */
export function namespaceLabels(context: Pick<RunScope, 'namespaces' | 'kubeVersion'>, name: string): Labels {
  const manifest = namespaceNamed(context.namespaces, name);
  const labels: Record<string, string> = { ...(manifest?.labels ?? {}) };
  if (isAtLeast(context.kubeVersion, 1, 21)) labels[NAMESPACE_NAME_LABEL] = name;
  else delete labels[NAMESPACE_NAME_LABEL];
  return labels;
}
