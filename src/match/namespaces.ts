/** The labels a namespace has, as far as the run can tell. */
import { groupBy } from '../collections.js';
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import type { SourceFile } from '../load/sources.js';
import type { NamespaceObject, WebhookConfigurationObject } from '../model/objects.js';
import { NAMESPACE_NAME_LABEL } from '../model/types.js';
import { memoKey, type RunScope } from '../run-scope.js';
import type { Labels } from './selector.js';
import { namespaceMetadataErrors } from '../validate/namespace-meta.js';

export type NamespaceScope = Pick<RunScope, 'namespaces' | 'kubeVersion' | 'memo'>;

/** The webhook configurations of the run that a later stream's configuration of the same kind and name follows, found once per run. */
const SUPERSEDED = memoKey<ReadonlySet<WebhookConfigurationObject>>('webhook configurations a later stream names again');

/**
 * Whether a later stream (file) of the run holds a webhook configuration of the same kind and
 * name: `kubectl apply -R` would leave that one, so the two are builds of one project.
 */
export function supersededLater(scope: Pick<RunScope, 'webhookConfigurations' | 'memo'>, object: WebhookConfigurationObject): boolean {
  return scope.memo
    .get(SUPERSEDED, () => {
      /** Per kind and name, the streams of the configurations after the one looked at (two are enough to know). */
      const laterStreams = new Map<string, Set<string>>();
      const superseded = new Set<WebhookConfigurationObject>();
      for (let at = scope.webhookConfigurations.length - 1; at >= 0; at--) {
        const configuration = scope.webhookConfigurations[at]!;
        const key = `${configuration.kind}\u0000${configuration.name}`;
        const stream = streamOf(configuration.manifest.file);
        const later = laterStreams.get(key) ?? new Set<string>();
        if ([...later].some((each) => each !== stream)) superseded.add(configuration);
        if (later.size < 2) later.add(stream);
        laterStreams.set(key, later);
      }
      return superseded;
    })
    .has(object);
}

/** The run's Namespace manifests by name, in the run's order, built once per run. */
const ALL_BY_NAME = memoKey<ReadonlyMap<string, readonly NamespaceObject[]>>('Namespace manifests by name, in order');

/** The run's Namespace manifests of this name, in the run's order. */
function namespacesNamed(scope: Pick<RunScope, 'namespaces' | 'memo'>, name: string): readonly NamespaceObject[] {
  const byName = scope.memo.get(ALL_BY_NAME, () => groupBy(scope.namespaces, (namespace) => namespace.name));
  return byName.get(name) ?? [];
}

/** The run's first Namespace manifest of this name. */
export function namespaceNamed(scope: Pick<RunScope, 'namespaces' | 'memo'>, name: string): NamespaceObject | undefined {
  return namespacesNamed(scope, name)[0];
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
 * The labels the namespace `name` may have when `stream` is applied: those of the last Namespace
 * manifest of that name in the stream (a file that holds one is applied with it, whatever an
 * earlier build's manifest of the same name says), else of the run's first (as before); and with
 * `later`, those of the run's last when it comes after them (what `kubectl apply -R` leaves).
 */
export function namespaceLabelsWith(scope: NamespaceScope, name: string, stream: string, { later }: { readonly later: boolean }): Labels[] {
  const all = namespacesNamed(scope, name);
  let lastOwn = -1;
  for (let at = 0; at < all.length; at++) if (streamOf(all[at]!.manifest.file) === stream) lastOwn = at;
  // `kubectl apply -R` applies files, and the documents of each, in the order the run reads them:
  // the last manifest of the namespace is what stays (s38c 4, s38d 6). The stream's own last one
  // counts (it is applied with the webhook), and the run's last when another file comes later.
  const chosen: NamespaceObject[] = [];
  if (lastOwn >= 0) chosen.push(all[lastOwn]!);
  else if (all.length > 0) chosen.push(all[0]!);
  if (later && all.length > 0 && all.length - 1 > lastOwn && !chosen.includes(all[all.length - 1]!)) chosen.push(all[all.length - 1]!);
  return chosen.length === 0 ? [namespaceLabels(scope, name)] : chosen.map((namespace) => labelsOfNamespace(namespace, name, scope.kubeVersion));
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
