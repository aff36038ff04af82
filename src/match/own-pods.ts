/**
 * The labels of the pods that serve a webhook: those of the pod templates (and Pods) of the run's
 * bundles that the webhook's Service selects, in the Service's namespace. An objectSelector reads
 * them when the webhook's own pods are created, so they decide whether a webhook that fails
 * closed stands between its own Deployment and its replacement pods (rules/self-deadlock.ts).
 *
 * Only what the run shows counts: a workload without a written namespace lands wherever it is
 * applied, one a kustomize patch of the run changes may get other labels, and a Service the run
 * does not hold (or cannot pin down: src/match/services.ts) selects nothing known. Then the
 * answer is undefined, never an empty list.
 */
import { isRecord } from '../json.js';
import type { WorkloadObject } from '../model/objects.js';
import type { RunScope } from '../run-scope.js';
import { runPatchesChanging } from './patched.js';
import { streamOf } from './namespaces.js';
import type { Labels } from './selector.js';
import { servicesNamed, type ServiceScope } from './services.js';

export type OwnPodsScope = ServiceScope & Pick<RunScope, 'bundleWorkloads'>;

/** A workload's pods' labels as written (a Pod's own; a template's; a CronJob's job template's), or undefined when they are not a map of strings. */
export function podLabelsOf(workload: WorkloadObject): Labels | undefined {
  const written = workload.written;
  if (!isRecord(written)) return undefined;
  const template = workload.kind === 'Pod' ? written : workload.kind === 'CronJob' ? dig(written, ['spec', 'jobTemplate', 'spec', 'template']) : dig(written, ['spec', 'template']);
  if (!isRecord(template)) return undefined;
  const metadata = template.metadata ?? {};
  if (!isRecord(metadata)) return undefined;
  const labels = metadata.labels ?? {};
  if (!isRecord(labels) || !Object.values(labels).every((value) => typeof value === 'string')) return undefined;
  return labels as Labels;
}

function dig(value: Record<string, unknown>, path: readonly string[]): unknown {
  let at: unknown = value;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return at;
}

/**
 * The label sets of the pods that the Service `namespace/name` of the run selects, one per
 * workload of the run's bundles whose pods it picks; undefined when the run does not show them.
 */
export function ownPodLabels(scope: OwnPodsScope, namespace: string, name: string): readonly Labels[] | undefined {
  const services = servicesNamed(scope, namespace, name);
  if (services === undefined) return undefined;
  const found: Labels[] = [];
  for (const service of services) {
    const selector = service.selector;
    // A Service without a selector has its endpoints written by hand: no pods of the run are known to serve it.
    if (selector === undefined || Object.keys(selector).length === 0) continue;
    for (const workload of scope.bundleWorkloads) {
      if (workload.namespace !== namespace) continue;
      if (runPatchesChanging(scope, { kind: workload.kind, name: workload.name, file: workload.manifest.file.path }, streamOf(workload.manifest.file)).length > 0) continue;
      const labels = podLabelsOf(workload);
      if (labels !== undefined && Object.entries(selector).every(([key, value]) => labels[key] === value)) found.push(labels);
    }
  }
  return found.length === 0 ? undefined : found;
}
