import { reportedAsEverything } from '../src/match/intercepts-everything.js';
import { groupCopies, type WebhookFinding } from '../src/match/webhook-copies.js';
import { unlessPatchedAway, withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { namespaceLabelsWith, namespaceNamed, streamOf, supersededLater } from '../src/match/namespaces.js';
import { matchWebhook } from '../src/match/request.js';
import { conditionsOutcome, FARGATE_SCHEDULER, type Requester } from '../src/match/system-requests.js';
import { listingsOf } from '../src/match/kustomize-fills.js';
import { servicesNamed } from '../src/match/services.js';
import { CONTROLLER_POD_LABELS, ownPodLabels } from '../src/match/own-pods.js';
import { isEmptySelector } from '../src/match/selector.js';
import type { Labels } from '../src/match/selector.js';
import type { RunScope } from '../src/run-scope.js';
import type { ServiceObject, WebhookConfigurationObject } from '../src/model/objects.js';
import type { MatchCondition } from '../src/model/types.js';
import { isRecord } from '../src/json.js';
import { loadCelSync } from '../src/cel/library.js';
import { evaluateCondition } from '../src/cel/evaluate.js';
import { budget, celMeterOf, RUNTIME_COST_BUDGET_MATCH_CONDITIONS } from '../src/cel/budget.js';
import { NAMESPACE_NAME_LABEL } from '../src/model/types.js';
import type { LabelSelector } from '../src/model/types.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';
import { isPlaceholder } from '../src/text/placeholder.js';

const controller = (name: string): Requester => ({
  username: `system:serviceaccount:kube-system:${name}`,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
});

/** The namespace the API server creates, with only the name label, and in which people deploy without thinking of it. */
const DEFAULT_NAMESPACE = 'default';

/** The kubelets that run the webhook's pods (node names are often hostnames; a managed cluster adds its own groups). */
const KUBELETS: readonly Requester[] = [
  { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] },
  { username: 'system:node:ip-10-0-1-23.ec2.internal', groups: ['system:bootstrappers', 'system:nodes', 'system:authenticated'] },
];

/** Whoever installs or upgrades the webhook's workload (Helm, kubectl, a GitOps controller). */
const INSTALLER: Requester = { username: 'cluster-admin', groups: ['system:masters', 'system:authenticated'] };

interface Candidate {
  readonly group: string;
  readonly resource: string;
  /** A subresource the request is for ('' for the object itself). */
  readonly subresource?: string;
  /** CREATE unless said. */
  readonly operation?: 'UPDATE';
  readonly kind: string;
  /** Who creates these objects when the webhook's pods are replaced, rolled out or reinstalled. */
  readonly requesters: readonly Requester[];
}

/** In this order: the first one the webhook intercepts is named. */
const CANDIDATES: readonly Candidate[] = [
  { group: '', resource: 'pods', kind: 'Pod', requesters: [controller('replicaset-controller'), controller('daemon-set-controller'), controller('statefulset-controller')] },
  // The scheduler binds each new pod to a node with a create of pods/binding: refused, no pod of
  // the namespace (the webhook's own replacements among them) is ever scheduled.
  { group: '', resource: 'pods', subresource: 'binding', kind: 'Binding', requesters: [{ username: 'system:kube-scheduler', groups: ['system:authenticated'] }, FARGATE_SCHEDULER] },
  // The kubelet reports a pod's IP and readiness with an update of pods/status: refused, the
  // webhook's replacement pods run but never become endpoints of its Service.
  { group: '', resource: 'pods', subresource: 'status', operation: 'UPDATE', kind: 'Pod', requesters: KUBELETS },
  // The EndpointSlice controller writes the new pods' addresses into its Service's slices with an
  // update: refused, the API server's calls (to the Service's cluster IP, which kube-proxy routes
  // by the slices) still go to the pods that are gone.
  { group: 'discovery.k8s.io', resource: 'endpointslices', operation: 'UPDATE', kind: 'EndpointSlice', requesters: [controller('endpointslice-controller'), { username: 'system:kube-controller-manager', groups: ['system:authenticated'] }] },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', requesters: [controller('deployment-controller')] },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', requesters: [INSTALLER] },
  // The Service the API server calls it through, created by whoever installs it: before the
  // configuration (an install in another order, a reinstall, a deleted Service), refused.
  { group: '', resource: 'services', kind: 'Service', requesters: [INSTALLER] },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', requesters: [INSTALLER] },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', requesters: [INSTALLER] },
];

/**
 * Whether the selector has a requirement that a label on the namespace would make false
 * (NotIn, DoesNotExist) on a key other than the name label: an opt-out switch that the
 * webhook's own namespace may well carry, which we cannot see without its manifest.
 */
function hasOptOut(selector: LabelSelector | undefined): boolean {
  return (selector?.matchExpressions ?? []).some(
    (requirement) => requirement !== null && requirement.key !== NAMESPACE_NAME_LABEL && (requirement.operator === 'NotIn' || requirement.operator === 'DoesNotExist'),
  );
}

const AS_GENERATED_HELP = `As generated: controller-gen points the webhook at its Service in the scaffold's placeholder namespace system, and the build that installs it sets the namespace it runs in (and may add selectors). Lint that build (kubectl kustomize config/default | admission-lint -): there the webhook is judged in the namespace it gets.`;

const INSTALL_HELP = `While the webhook is down, an install or reinstall of the workload that runs it is rejected, when it is of that kind (its pods' own replacements are not). Exclude the webhook's own namespace with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (operator NotIn), or use failurePolicy Ignore.`;

/**
 * The webhook's Service, when its file creates it after the configuration: `kubectl apply -f`
 * creates a file's documents (and a List's items) in order, so the Service's creation comes to a
 * webhook that cannot be reached without it. Not so for a file a kustomization lists (kustomize
 * puts Services before webhook configurations) nor a rendered stream (Helm orders kinds the same
 * way); nor when the file holds a copy of the Service before the configuration too.
 */
function serviceCreatedAfter(run: Pick<RunScope, 'services' | 'unreadable' | 'kustomizePatches' | 'kustomizations' | 'memo'>, object: WebhookConfigurationObject, namespace: string, name: string | undefined): ServiceObject | undefined {
  const file = object.manifest.file;
  if (typeof name !== 'string' || file.renderedFrom !== undefined || listingsOf(run, file.path).length > 0) return undefined;
  const inFile = (servicesNamed(run, namespace, name) ?? []).filter((service) => service.manifest.file.path === file.path);
  const place = (manifest: WebhookConfigurationObject['manifest']): readonly [number, number] => [manifest.documentIndex, typeof manifest.basePath[1] === 'number' ? manifest.basePath[1] : -1];
  const [document, item] = place(object.manifest);
  const after = (service: ServiceObject): boolean => {
    const [serviceDocument, serviceItem] = place(service.manifest);
    return serviceDocument > document || (serviceDocument === document && serviceItem > item);
  };
  return inFile.length > 0 && inFile.every(after) ? inFile[0] : undefined;
}

/** The string labels of an object as written (what an objectSelector reads of its creation). */
/** Whether a selector reads a label that a controller adds to its pods (src/match/own-pods.ts). */
function readsControllerLabels(selector: LabelSelector | undefined): boolean {
  if (selector == null) return false;
  const keys = [...Object.keys(selector.matchLabels ?? {}), ...(selector.matchExpressions ?? []).map((requirement) => requirement?.key)];
  return keys.some((key) => typeof key === 'string' && CONTROLLER_POD_LABELS.has(key));
}

function writtenLabels(written: unknown): Labels {
  const labels = isRecord(written) && isRecord(written.metadata) && isRecord(written.metadata.labels) ? written.metadata.labels : {};
  return Object.fromEntries(Object.entries(labels).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * The webhook's matchConditions for the creation of its own Service, evaluated on the Service as
 * its file writes it: any false skips the webhook for it; all true call it. A condition that
 * tests for presence (`has()`, optional syntax) is not evaluated: the API server's defaults
 * (spec.type, ports' protocol) are not in the written object. Nor is one that reads what is not
 * known of the request (who creates it): reading it errors, and the outcome is unknown.
 */
function ownServiceConditions(run: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], service: ServiceObject, namespace: string): 'called' | 'skipped' | 'unknown' {
  const expressions = conditions.map((condition) => condition?.expression?.trim() ?? '');
  if (expressions.length === 0) return 'called';
  if (!loadCelSync()) return 'unknown';
  const written = isRecord(service.written) ? service.written : {};
  const metadata = isRecord(written.metadata) ? written.metadata : {};
  const context = {
    object: { ...written, metadata: { ...metadata, namespace } },
    oldObject: null,
    request: {
      operation: 'CREATE',
      namespace,
      name: service.name,
      kind: { group: '', version: 'v1', kind: 'Service' },
      resource: { group: '', version: 'v1', resource: 'services' },
    },
  };
  const shared = budget(RUNTIME_COST_BUDGET_MATCH_CONDITIONS);
  let unknown = false;
  for (const expression of expressions) {
    const result = expression === '' || /\bhas\s*\(|[.[]\s*\?/.test(expression) ? undefined : evaluateCondition(expression, context, celMeterOf(run), shared);
    if (result === false) return 'skipped';
    if (result === undefined) unknown = true;
  }
  return unknown ? 'unknown' : 'called';
}

const SERVICE_HELP = `The API server calls the webhook through its Service: while that Service does not exist (the configuration applied before it, a reinstall, a deleted Service), every call fails, and with Fail the Service's own creation is rejected, so it never comes back. Exclude the webhook's own namespace with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (operator NotIn), or use failurePolicy Ignore.`;

/** The message of a finding on this candidate. */
function messageOf(candidate: Candidate): 'updates' | 'pods' | 'replicasets' | 'service' | 'workloads' {
  if (candidate.operation === 'UPDATE') return 'updates';
  if (candidate.resource === 'pods' && (candidate.subresource ?? '') === '') return 'pods';
  if (candidate.resource === 'replicasets') return 'replicasets';
  return candidate.resource === 'services' ? 'service' : 'workloads';
}

/**
 * The severity (and help) below the rule's error, where the candidate says less. The workload
 * objects themselves are created by an installer, not by the recovery of a pod that died: the
 * install or a reinstall is blocked, the webhook's own replacements are not (and which kind runs
 * it is not known here). A webhook server is a Deployment's as a rule: one run by a StatefulSet
 * or a DaemonSet (that the run does not show) is the rare case, an info. Its Service is one for
 * certain, but only a missing one needs creating: an error where the file creates it after the
 * configuration (`after`), else an info (a reinstall, a deleted Service). EndpointSlices whose
 * conditions could not be decided: an info.
 */
function levelOf(candidate: Candidate, after: boolean, undecidedSlices: boolean): { severity?: 'error' | 'warning' | 'info'; help?: string } {
  if (candidate.requesters.includes(INSTALLER)) {
    if (candidate.resource === 'services') return { severity: after ? 'error' : 'info', help: SERVICE_HELP };
    return { severity: candidate.resource === 'deployments' ? 'warning' : 'info', help: INSTALL_HELP };
  }
  return undecidedSlices ? { severity: 'info' } : {};
}

export const rule = defineObjectRule({
  meta: {
    id: 'self-deadlock',
    title: 'A Fail webhook intercepts what brings it back: its own pods, their endpoints, its Service',
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      pods: '{{which}} {{intercepts}} CREATE of pods in {{its}} own Service\'s namespace {{namespace}} with failurePolicy Fail{{defaulted}}{{patched}}',
      replicasets:
        '{{which}} {{intercepts}} CREATE of replicasets in {{its}} own Service\'s namespace {{namespace}} with failurePolicy Fail{{defaulted}}{{patched}}',
      workloads:
        '{{which}} {{intercepts}} CREATE of {{resource}} in {{its}} own Service\'s namespace {{namespace}} with failurePolicy Fail{{defaulted}}{{patched}}',
      updates: '{{which}} {{intercepts}} UPDATE of {{resource}} in {{its}} own Service\'s namespace {{namespace}} with failurePolicy Fail{{defaulted}}{{patched}}',
      service: '{{which}} {{intercepts}} CREATE of services in {{its}} own Service\'s namespace {{namespace}} with failurePolicy Fail{{defaulted}}{{after}}{{patched}}',
    },
    help: `While the webhook is down, the API server rejects what would bring it back: replacements for its pods (no pod is left to answer for them), the EndpointSlice updates that route to the new ones, the ReplicaSet of a rollout of its Deployment, a reinstall of the workload that runs it. Exclude the webhook's own namespace with a namespaceSelector on ${NAMESPACE_NAME_LABEL} (operator NotIn), or use failurePolicy Ignore.`,
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        // The selectors its kustomization's patches give it, when the build is certain (src/match/kustomize-selectors.ts).
        const judged = withKustomizeSelectors(object, run);
        // One cause, one finding: copies (webhooks that match alike) together (src/match/webhook-copies.ts).
        // Patched in an overlay only: what only the unpatched build has is an info (unlessPatchedAway).
        const found = groupCopies(unlessPatchedAway(judged, (judgedObject, patched) => webhooksOf(judgedObject).flatMap((entry): WebhookFinding<'pods' | 'replicasets' | 'workloads' | 'updates' | 'service'>[] => {
          const { webhook } = entry;
          const service = webhook.clientConfig?.service;
          const namespace = service?.namespace;
          // An unrendered placeholder (`${NAMESPACE}`) is not a namespace yet: nothing to reason about.
          if (typeof namespace !== 'string' || namespace === '' || isPlaceholder(namespace) || webhook.failurePolicy !== 'Fail') return [];
          // One cause, one finding: a webhook that intercepts everything is reported by wildcard-rule when it runs.
          // (wildcard-rule judges the same patched webhook: the deferral asks about that one.)
          if (reportedAsEverything(webhook, run)) return [];
          // The Namespace its own file (or rendered stream) applies, when it has one (another
          // build's of the same name may differ): reported when any of them lets the call through.
          // A later file's Namespace counts too (`kubectl apply -R` leaves it), unless a later file
          // also holds a configuration of this name: then the two are builds of one project, and
          // this one is not what such an apply leaves (s38a 4, s38c 4).
          const labelSets = namespaceLabelsWith(run, namespace, streamOf(object.manifest.file), { later: !supersededLater(run, object) });
          // The default namespace always exists, created by the API server with no label but its
          // name (pkg/controlplane/controller/systemnamespaces): its labels are known without a manifest.
          const manifestKnown = namespaceNamed(run, namespace) !== undefined || namespace === DEFAULT_NAMESPACE;
          for (const candidate of CANDIDATES) {
            const subresource = candidate.subresource ?? '';
            // The webhook's own Service, when its file creates it after the configuration: what
            // its selectors and conditions see of that creation is known.
            const ownService = candidate.resource === 'services' ? serviceCreatedAfter(run, object, namespace, service?.name) : undefined;
            // The webhook's own pods, when the run shows what its Service selects: their labels
            // are what an objectSelector reads of their creation. Otherwise a non-empty
            // objectSelector gives 'unknown'.
            // (Only for an objectSelector that reads none of the labels a controller adds to its pods.)
            const ownPods = candidate.resource === 'pods' && subresource === '' && typeof service?.name === 'string' && !readsControllerLabels(webhook.objectSelector) ? ownPodLabels(run, namespace, service.name, streamOf(object.manifest.file)) : undefined;
            const objectLabelSets: readonly (Labels | undefined)[] = ownService !== undefined ? [writtenLabels(ownService.written)] : (ownPods ?? [undefined]);
            // With its own pods known, every one of their workloads must be intercepted: one spared keeps serving.
            const outcomes = labelSets.map((labels) => {
              const each = objectLabelSets.map((objectLabels) =>
                matchWebhook(
                  webhook,
                  {
                    operation: candidate.operation ?? 'CREATE',
                    group: candidate.group,
                    version: 'v1',
                    resource: candidate.resource,
                    subresource,
                    namespace,
                    namespaceLabels: labels,
                    ...(objectLabels === undefined ? {} : { objectLabels }),
                    oldObjectLabels: null,
                  },
                  run.discovery,
                ),
              );
              return each.every((outcome) => outcome.called === true) ? each[0] : undefined;
            });
            const outcome = outcomes.find((each) => each !== undefined && each.called === true);
            if (outcome === undefined || outcome.called !== true) continue;
            if (!manifestKnown && hasOptOut(webhook.namespaceSelector)) return [];
            const requests = candidate.requesters.map((requester) => ({ group: candidate.group, resource: candidate.resource, subresource, operation: candidate.operation ?? 'CREATE', namespace, requester }));
            const conditions = ownService === undefined ? conditionsOutcome(run, webhook.matchConditions ?? [], requests) : ownServiceConditions(run, webhook.matchConditions ?? [], ownService, namespace);
            if (conditions === 'skipped') continue;
            // Judged on its own pods' labels (a non-empty objectSelector): only when the
            // conditions decide too (one may read the labels the selector picked them by).
            if (ownPods !== undefined && !isEmptySelector(webhook.objectSelector) && conditions !== 'called') continue;
            const failurePolicy = [...entry.path, 'failurePolicy'];
            const defaulted = isDefaulted(object, failurePolicy);
            const after = ownService !== undefined && conditions === 'called';
            // The EndpointSlice controller's slices carry labels of their own (kubernetes.io/service-name)
            // and the Service's, which the run does not show: conditions that read them and cannot be
            // decided may skip the webhook's own slices (an info, not an error).
            const undecidedSlices = candidate.resource === 'endpointslices' && conditions === 'unknown';
            return [
              {
                label: entry.label,
                webhook,
                messageId: messageOf(candidate),
                data: {
                  namespace,
                  service: `${namespace}/${service?.name ?? ''}`,
                  resource: subresource === '' ? candidate.resource : `${candidate.resource}/${subresource}`,
                  kind: candidate.kind,
                  defaulted: defaulted ? ' (the API default)' : '',
                  after: after ? ', and this file creates that Service after it' : '',
                  patched,
                },
                path: [...entry.path, 'rules', outcome.rule],
                ...levelOf(candidate, after, undecidedSlices),
                // Fail because failurePolicy is omitted: implicit-failure-policy's cause, with its consequence.
                ...(defaulted ? { covers: [{ ruleId: 'implicit-failure-policy', path: failurePolicy }] } : {}),
              },
            ];
          }
          return [];
        })));
        // controller-gen's output as generated: its own namespace is the scaffold's placeholder
        // `system`; the build that installs it sets where it runs, and may add the selectors.
        return judged.asGenerated === true ? found.map((finding) => ({ ...finding, severity: 'info' as const, help: AS_GENERATED_HELP })) : found;
      },
    };
  },
});
