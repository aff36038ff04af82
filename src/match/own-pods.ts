/**
 * The labels of the pods that serve a webhook: those of the pod templates of the server
 * workloads in the webhook's own file (or rendered stream) that its Service, in the same file,
 * selects in its namespace. An objectSelector reads them when the webhook's own pods are created,
 * so they decide whether a webhook that fails closed stands between its own Deployment and its
 * replacement pods (rules/self-deadlock.ts).
 *
 * Only what the file shows counts: a workload without a written namespace lands wherever it is
 * applied, one a kustomization or a patch of the run builds may get other labels, a workload
 * document the fast reader declined may be anything, and a Service the run does not hold (or
 * cannot pin down: src/match/services.ts) selects nothing known. Then the answer is undefined,
 * never an empty list.
 */
import type { RunScope } from '../run-scope.js';
import { listingsOf } from './kustomize-fills.js';
import { runPatchesChanging } from './patched.js';
import { streamOf } from './namespaces.js';
import type { Labels } from './selector.js';
import { servicesNamed, type ServiceScope } from './services.js';

export type OwnPodsScope = ServiceScope & Pick<RunScope, 'bundleWorkloads' | 'bundlesWithUnreadWorkloads'>;

/**
 * The kinds that keep a webhook's server running: their controller replaces a pod that goes. A
 * Job's, a CronJob's or a bare Pod's pods (a certificate job, a test) serve no webhook for long,
 * and nothing replaces a bare Pod.
 */
const SERVER_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController']);

/**
 * Labels a controller adds to the pods it creates (pod-template-hash, controller-revision-hash,
 * pod-template-generation, the StatefulSet pod's name and index): not in the template, with
 * values the manifest cannot show. A selector that reads one is not judged on the template.
 */
export const CONTROLLER_POD_LABELS: ReadonlySet<string> = new Set([
  'pod-template-hash',
  'controller-revision-hash',
  'pod-template-generation',
  'statefulset.kubernetes.io/pod-name',
  'apps.kubernetes.io/pod-index',
]);

/**
 * The label sets of the pods that serve the Service `namespace/name` as the file (or rendered
 * stream) `stream` applies it: one per workload of that stream that keeps a server running and
 * whose pods the Service's selector picks, when that stream holds the Service too. Undefined when
 * the stream does not show them, or a kustomization of the run builds the workload (its labels
 * may be transformed: commonLabels, labels) or a patch of the run changes it.
 */
export function ownPodLabels(scope: OwnPodsScope, namespace: string, name: string, stream: string): readonly Labels[] | undefined {
  if (scope.bundlesWithUnreadWorkloads.has(stream)) return undefined;
  const services = servicesNamed(scope, namespace, name)?.filter((service) => streamOf(service.manifest.file) === stream);
  if (services === undefined || services.length === 0) return undefined;
  const found: Labels[] = [];
  for (const service of services) {
    const selector = service.selector;
    // A Service without a selector has its endpoints written by hand: no pods of the run are known to serve it.
    if (selector === undefined || Object.keys(selector).length === 0) return undefined;
    for (const workload of scope.bundleWorkloads) {
      if (workload.path !== stream || workload.namespace !== namespace || !SERVER_KINDS.has(workload.kind)) continue;
      const labels = workload.podLabels;
      // Labels that are not a map of strings: which pods the Service selects is not known.
      if (labels === undefined) return undefined;
      if (!Object.entries(selector).every(([key, value]) => labels[key] === value)) continue;
      if (listingsOf(scope, workload.path).length > 0) return undefined;
      if (runPatchesChanging(scope, { kind: workload.kind, name: workload.name, file: workload.path }, stream).length > 0) return undefined;
      found.push(labels);
    }
  }
  return found.length === 0 ? undefined : found;
}
