import { isAtLeast } from '../src/kube/version.js';
import { systemObjectLabels } from '../src/match/kube-system.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { matchWebhook, type AdmissionRequest, type Operation } from '../src/match/request.js';
import type { Labels } from '../src/match/selector.js';
import { conditionsOutcome, SYSTEM_REQUESTERS } from '../src/match/system-requests.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext } from '../src/rule.js';
import { rule as matchesKubeSystem } from './matches-kube-system.js';

/** With failurePolicy Ignore, a timeout above this many seconds is reported. */
export const IGNORE_TIMEOUT_SECONDS = 15;

interface TargetRequest {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly operations: readonly Operation[];
}

interface Target {
  /** Where, for the message: " in kube-system", "" for cluster-scoped resources. */
  readonly where: string;
  /** The request namespace: null for cluster-scoped resources; a Namespace's own name for Namespaces. */
  readonly namespace: string | null;
  readonly requests: readonly TargetRequest[];
  /** What matches-kube-system reports (pods, workloads, leases in kube-system). */
  readonly kubeSystemWrites?: boolean;
  /** TokenReview/SubjectAccessReview-style virtual resources: not sent to webhooks from 1.37. */
  readonly virtual?: boolean;
  /** A Namespace object: the namespaceSelector reads its own labels. */
  readonly namespaceObject?: boolean;
}

const WRITE: readonly Operation[] = ['CREATE', 'UPDATE'];
const core = (resource: string, operations: readonly Operation[], subresource = ''): TargetRequest => ({ group: '', version: 'v1', resource, subresource, operations });
const apps = (resource: string): TargetRequest => ({ group: 'apps', version: 'v1', resource, operations: WRITE });
const lease: TargetRequest = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', operations: WRITE };

/**
 * The writes the control plane cannot do without: node registration and heartbeats, leader
 * election, the system add-ons' pods, authentication and authorization of the kubelet and of
 * aggregated API servers, kubelet client certificates, API registration, the priority classes
 * and namespaces the API server bootstraps, and the `kubernetes` Service in `default`.
 */
const TARGETS: readonly Target[] = [
  { where: ' in kube-node-lease', namespace: 'kube-node-lease', requests: [lease] },
  { where: '', namespace: null, requests: [core('nodes', ['CREATE', 'UPDATE', 'DELETE']), core('nodes', ['UPDATE'], 'status')] },
  { where: ' in kube-system', namespace: 'kube-system', requests: [lease], kubeSystemWrites: true },
  {
    where: ' in kube-system',
    namespace: 'kube-system',
    requests: [core('pods', ['CREATE', 'UPDATE', 'DELETE']), core('pods', ['UPDATE'], 'status'), core('pods', ['CREATE'], 'binding'), apps('deployments'), apps('replicasets'), apps('daemonsets'), apps('statefulsets')],
    kubeSystemWrites: true,
  },
  { where: '', namespace: null, requests: [{ group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', operations: ['CREATE'] }], virtual: true },
  {
    where: '',
    namespace: null,
    requests: ['subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews'].map((resource) => ({ group: 'authorization.k8s.io', version: 'v1', resource, operations: ['CREATE'] as const })),
    virtual: true,
  },
  { where: ' in kube-system', namespace: 'kube-system', requests: [{ group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews', operations: ['CREATE'] }], virtual: true },
  {
    where: '',
    namespace: null,
    requests: [
      { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', operations: WRITE },
      { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', subresource: 'approval', operations: ['UPDATE'] },
      { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', subresource: 'status', operations: ['UPDATE'] },
      { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', operations: WRITE },
      { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', subresource: 'status', operations: ['UPDATE'] },
      { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', operations: WRITE },
      { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', subresource: 'status', operations: ['UPDATE'] },
      { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', operations: WRITE },
    ],
  },
  { where: ' (the kube-system Namespace)', namespace: 'kube-system', requests: [core('namespaces', WRITE)], namespaceObject: true },
  {
    where: ' in default (the kubernetes Service)',
    namespace: 'default',
    requests: [core('services', WRITE), core('endpoints', WRITE), { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', operations: WRITE }],
  },
];

function describe(request: TargetRequest): string {
  return request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
}

function labelsFor(operation: Operation, labels: Labels): Pick<AdmissionRequest, 'objectLabels' | 'oldObjectLabels'> {
  if (operation === 'CREATE') return { objectLabels: labels, oldObjectLabels: null };
  if (operation === 'DELETE') return { objectLabels: null, oldObjectLabels: labels };
  return { objectLabels: labels, oldObjectLabels: labels };
}

/** The index of the first rule that makes the API server call the webhook for this system write, if any. */
function intercepts(webhook: Parameters<typeof matchWebhook>[0], target: Target, request: TargetRequest, context: RuleContext): number | undefined {
  const nsLabels = target.namespace === null ? undefined : namespaceLabels(context, target.namespace);
  // An unlabelled system object, except for the system labels the objectSelector asks for.
  const objectLabels = target.namespaceObject ? nsLabels! : systemObjectLabels(webhook.objectSelector);
  let first: number | undefined;
  for (const operation of request.operations) {
    const outcome = matchWebhook(
      webhook,
      {
        operation,
        group: request.group,
        version: request.version,
        resource: request.resource,
        subresource: request.subresource ?? '',
        namespace: target.namespace,
        ...(nsLabels === undefined ? {} : { namespaceLabels: nsLabels }),
        ...labelsFor(operation, objectLabels),
      },
      context.discovery,
    );
    if (outcome.called !== true) continue;
    if (outcome.dependsOnMatchConditions) {
      const requests = SYSTEM_REQUESTERS.map((requester) => ({
        group: request.group,
        resource: request.resource,
        subresource: request.subresource ?? '',
        operation,
        namespace: target.namespace,
        requester,
      }));
      if (conditionsOutcome(webhook.matchConditions ?? [], requests) !== 'called') continue;
    }
    if (first === undefined || outcome.rule < first) first = outcome.rule;
  }
  return first;
}

export const rule = defineObjectRule({
  meta: {
    id: 'critical-resources',
    title: 'The webhook can intercept resources the control plane needs to recover',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      fail:
        'webhook "{{webhook}}" intercepts {{resources}} with failurePolicy Fail{{defaulted}}: while it is down, these writes are rejected, and nodes, controllers, authentication or the API server itself stop working until it is back',
      ignore:
        'webhook "{{webhook}}" intercepts {{resources}} with failurePolicy Ignore and timeoutSeconds {{timeout}}{{timeoutDefaulted}}: while it is unreachable, each of these writes waits {{timeout}}s for it, longer than node heartbeats and leader-election renewals can wait',
    },
    help: 'Narrow the rules to the resources the webhook needs (no wildcards over the control plane\'s resources), exclude kube-system and kube-node-lease by kubernetes.io/metadata.name, or use failurePolicy Ignore with a short timeout.',
  },
  check(object, context) {
    const virtualExempt = isAtLeast(context.kubeVersion, 1, 37);
    // matches-kube-system already reports these webhooks for the system's writes in kube-system.
    const reportedForKubeSystem = new Set(
      matchesKubeSystem.check(object, context).map((violation) => violation.path[1]).filter((index): index is number => typeof index === 'number'),
    );
    return webhooksOf(object).flatMap((entry) => {
      const { webhook } = entry;
      const ignore = webhook.failurePolicy === 'Ignore';
      const timeout = webhook.timeoutSeconds ?? 10;
      if (ignore && !(timeout > IGNORE_TIMEOUT_SECONDS)) return [];
      const described: string[] = [];
      let firstRule: number | undefined;
      for (const target of TARGETS) {
        if (target.virtual && virtualExempt) continue;
        if (target.kubeSystemWrites && reportedForKubeSystem.has(entry.index)) continue;
        const names: string[] = [];
        for (const request of target.requests) {
          const rule = intercepts(webhook, target, request, context);
          if (rule === undefined) continue;
          names.push(describe(request));
          if (firstRule === undefined || rule < firstRule) firstRule = rule;
        }
        if (names.length > 0) described.push(`${names.join(', ')}${target.where}`);
      }
      if (firstRule === undefined) return [];
      return [
        {
          messageId: ignore ? ('ignore' as const) : ('fail' as const),
          data: {
            webhook: entry.label,
            resources: described.join('; '),
            timeout,
            defaulted: isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '',
            timeoutDefaulted: isDefaulted(object, [...entry.path, 'timeoutSeconds']) ? ' (the API default)' : '',
          },
          path: [...entry.path, 'rules', firstRule],
          severity: ignore ? ('warning' as const) : ('error' as const),
        },
      ];
    });
  },
});
