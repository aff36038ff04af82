/**
 * The labels of the request's namespace: --namespace-labels, else the run's Namespace manifest
 * of that name, else the automatic `kubernetes.io/metadata.name` label alone. The API server
 * sets that label on every Namespace (from 1.21), so it is added to the first two as well.
 */
import type { KubeVersion } from '../kube/version.js';
import { isAtLeast } from '../kube/version.js';
import { labelsOfNamespace } from '../match/namespaces.js';
import type { Labels } from '../match/selector.js';
import type { NamespaceObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../model/types.js';

export type NamespaceLabelSource = 'flag' | 'manifest' | 'automatic';

export interface ResolvedNamespaceLabels {
  readonly labels: Labels;
  readonly source: NamespaceLabelSource;
  /** The manifest's file, when the labels come from one. */
  readonly file?: string;
}

export function resolveNamespaceLabels(name: string, flag: Labels | undefined, namespaces: readonly NamespaceObject[], kubeVersion: KubeVersion): ResolvedNamespaceLabels {
  if (flag !== undefined) {
    const labels: Record<string, string> = { ...flag };
    if (isAtLeast(kubeVersion, 1, 21)) labels[NAMESPACE_NAME_LABEL] = name;
    return { labels, source: 'flag' };
  }
  const manifest = namespaces.find((namespace) => namespace.name === name);
  const labels = labelsOfNamespace(manifest, name, kubeVersion);
  return manifest ? { labels, source: 'manifest', file: manifest.manifest.file.path } : { labels, source: 'automatic' };
}
