/**
 * What the control plane needs to recover, and whether a webhook intercepts it: leases in
 * kube-system and kube-node-lease, nodes, token and access reviews (before 1.37), CSRs,
 * APIServices, CRDs, priority classes, the endpoints of the `default/kubernetes` Service.
 * `critical-resources` reports the webhooks that do; `report` draws the matrix from the same
 * targets and calls.
 */
import { systemObjectLabels } from './kube-system.js';
import { namespaceLabels } from './namespaces.js';
import { matchWebhook, objectLabelsFor, rulesMayMatch, type Operation } from './request.js';
import { conditionsOutcome, systemWritersOf } from './system-requests.js';
import { isAtLeast } from '../kube/version.js';
import { MAX_TIMEOUT_SECONDS, type Webhook } from '../model/types.js';
import { memoKey, type RunScope } from '../run-scope.js';

/** With failurePolicy Ignore, a timeout above this many seconds is reported. */
export const IGNORE_TIMEOUT_SECONDS = 15;

export interface TargetRequest {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly operations: readonly Operation[];
}

export interface Target {
  /** Where, for the message: " in kube-system", "" for cluster-scoped resources. */
  readonly where: string;
  /** What breaks when these writes are rejected, for the message. */
  readonly why: string;
  /** The request namespace: null for cluster-scoped resources. */
  readonly namespace: string | null;
  readonly requests: readonly TargetRequest[];
  /** What matches-kube-system reports (pods, workloads, leases in kube-system). */
  readonly kubeSystemWrites?: boolean;
  /** TokenReview/SubjectAccessReview-style virtual resources: not sent to webhooks from 1.37. */
  readonly virtual?: boolean;
}

/** The control plane creates and updates these objects; DELETE is not what recovery needs. */
const WRITE: readonly Operation[] = ['CREATE', 'UPDATE'];
const request = (group: string, resource: string, subresource = '', operations: readonly Operation[] = subresource === '' ? WRITE : ['UPDATE']): TargetRequest => ({
  group,
  version: 'v1',
  resource,
  subresource,
  operations,
});

/**
 * The writes the control plane cannot do without: node registration and heartbeats, leader
 * election, the system add-ons' pods, authentication and authorization of the kubelet and of
 * aggregated API servers, kubelet certificates, API registration, the priority classes the API
 * server bootstraps, and the endpoints of the `kubernetes` Service in `default`.
 */
export const TARGETS: readonly Target[] = [
  { where: ' in kube-node-lease', why: 'node heartbeats', namespace: 'kube-node-lease', requests: [request('coordination.k8s.io', 'leases')] },
  { where: '', why: 'node registration and status', namespace: null, requests: [request('', 'nodes'), request('', 'nodes', 'status')] },
  { where: ' in kube-system', why: 'leader election', namespace: 'kube-system', requests: [request('coordination.k8s.io', 'leases')], kubeSystemWrites: true },
  {
    where: ' in kube-system',
    why: "the system add-ons' pods",
    namespace: 'kube-system',
    requests: [
      request('', 'pods'),
      request('', 'pods', 'status'),
      request('', 'pods', 'binding', ['CREATE']),
      ...['deployments', 'replicasets', 'daemonsets', 'statefulsets'].map((resource) => request('apps', resource)),
    ],
    kubeSystemWrites: true,
  },
  { where: '', why: 'authentication', namespace: null, requests: [request('authentication.k8s.io', 'tokenreviews', '', ['CREATE'])], virtual: true },
  {
    where: '',
    why: 'authorization',
    namespace: null,
    requests: ['subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews'].map((resource) => request('authorization.k8s.io', resource, '', ['CREATE'])),
    virtual: true,
  },
  // Namespaced: any namespace will do; default stands for them.
  { where: '', why: 'authorization', namespace: 'default', requests: [request('authorization.k8s.io', 'localsubjectaccessreviews', '', ['CREATE'])], virtual: true },
  {
    where: '',
    why: 'kubelet certificates',
    namespace: null,
    requests: [request('certificates.k8s.io', 'certificatesigningrequests'), request('certificates.k8s.io', 'certificatesigningrequests', 'approval'), request('certificates.k8s.io', 'certificatesigningrequests', 'status')],
  },
  { where: '', why: 'API aggregation', namespace: null, requests: [request('apiregistration.k8s.io', 'apiservices'), request('apiregistration.k8s.io', 'apiservices', 'status')] },
  {
    where: '',
    why: 'custom resource definitions',
    namespace: null,
    // CREATE too: admission runs before storage, so an add-on that creates its CRDs at every
    // start and ignores AlreadyExists (a CNI operator) fails on "failed calling webhook" instead.
    requests: [request('apiextensions.k8s.io', 'customresourcedefinitions'), request('apiextensions.k8s.io', 'customresourcedefinitions', 'status')],
  },
  { where: '', why: 'the system priority classes', namespace: null, requests: [request('scheduling.k8s.io', 'priorityclasses')] },
  // Not the kube-system Namespace, nor the default/kubernetes Service object: the API server
  // creates them only when missing (pkg/controlplane/controller/systemnamespaces, and
  // kubernetesservice, whose update path "is not executed since 1.17"), and NamespaceLifecycle
  // forbids deleting kube-system. Its endpoints are another matter: the endpoint reconciler
  // rewrites them whenever the set of live API servers changes.
  {
    where: ' of the default/kubernetes Service',
    why: 'the endpoints of the kubernetes Service, through which pods reach the API server',
    namespace: 'default',
    requests: [request('', 'endpoints'), request('discovery.k8s.io', 'endpointslices')],
  },
];

export function describe(request: TargetRequest): string {
  return request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
}

/** How the API server treats one operation of a system write: it calls the webhook through `rule`, or its matchConditions decide. */
export interface SystemWriteCall {
  readonly operation: Operation;
  readonly rule: number;
  readonly conditions: 'called' | 'unknown';
}

/**
 * For each operation of these system writes that reaches the webhook: whether it is called for
 * the system's own requesters (kubelet, scheduler, controller manager, API server), or its
 * matchConditions cannot be decided. Shared with `admission-lint report` (src/report/critical.ts).
 */
export function systemWriteCalls(webhook: Readonly<Webhook>, target: Target, request: TargetRequest, context: Pick<RunScope, 'namespaces' | 'kubeVersion' | 'discovery' | 'memo'>): SystemWriteCall[] {
  if (!rulesMayMatch(webhook.rules, request.group, request.resource, request.subresource ?? '')) return [];
  const nsLabels = target.namespace === null ? undefined : namespaceLabels(context, target.namespace);
  // An unlabelled system object, except for the system labels the objectSelector asks for.
  const objectLabels = systemObjectLabels(webhook.objectSelector);
  const calls: SystemWriteCall[] = [];
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
        ...objectLabelsFor(operation, objectLabels),
      },
      context.discovery,
    );
    if (outcome.called !== true) continue;
    let conditions: 'called' | 'unknown' | 'skipped' = 'called';
    if (outcome.dependsOnMatchConditions) {
      const requests = systemWritersOf(request.group).map((requester) => ({
        group: request.group,
        resource: request.resource,
        subresource: request.subresource ?? '',
        operation,
        namespace: target.namespace,
        requester,
        // Nodes carry labels their admins, kubelets and clouds give them: not only the system's (s39b 2).
        systemObject: target.namespace === 'kube-system',
      }));
      conditions = conditionsOutcome(context, webhook.matchConditions ?? [], requests);
    }
    if (conditions !== 'skipped') calls.push({ operation, rule: outcome.rule, conditions });
  }
  return calls;
}

/** The first rule that makes the API server call the webhook for these system writes, and for which operations; undefined when none does. */
export function intercepts(webhook: Readonly<Webhook>, target: Target, request: TargetRequest, context: RunScope): { rule: number; operations: Operation[] } | undefined {
  // matchConditions that cannot be decided (src/match/system-requests.ts) may call it: a risk, not a pass.
  const called = systemWriteCalls(webhook, target, request, context);
  if (called.length === 0) return undefined;
  return { rule: called.reduce((min, call) => Math.min(min, call.rule), Infinity), operations: called.map((call) => call.operation) };
}

/** The control-plane writes a webhook intercepts (see TARGETS), as critical-resources reports them. */
export interface CriticalWrites {
  /** "<resource>" per intercepted request, by the target's `where`. */
  readonly described: ReadonlyMap<string, readonly string[]>;
  /** The first rule that intercepts one; undefined when none is intercepted. */
  readonly firstRule: number | undefined;
  /** Whether one of them is cluster-scoped, where a namespaceSelector does not apply. */
  readonly clusterScoped: boolean;
}

/**
 * The control-plane writes the webhook intercepts. `kubeSystemWrites: false` leaves out the
 * writes in kube-system that matches-kube-system reports (pods, workloads, leases there).
 * Virtual resources (token and access reviews) are left out from 1.37, which no longer sends
 * them to webhooks.
 */
export function criticalWrites(webhook: Readonly<Webhook>, context: RunScope, options: { readonly kubeSystemWrites: boolean }): CriticalWrites {
  // Asked of one Ignore webhook by critical-resources, matches-kube-system and long-timeout alike: once per run.
  if (options.kubeSystemWrites) return context.memo.perObject(ALL_WRITES, webhook, () => writesOf(webhook, context, true));
  return writesOf(webhook, context, false);
}

const ALL_WRITES = memoKey<Map<Readonly<Webhook>, CriticalWrites>>("control-plane writes a webhook intercepts, kube-system's included");

function writesOf(webhook: Readonly<Webhook>, context: RunScope, kubeSystemWrites: boolean): CriticalWrites {
  const virtualExempt = isAtLeast(context.kubeVersion, 1, 37);
  const described = new Map<string, string[]>();
  let firstRule: number | undefined;
  let clusterScoped = false;
  for (const target of TARGETS) {
    if (target.virtual && virtualExempt) continue;
    if (target.kubeSystemWrites && !kubeSystemWrites) continue;
    for (const request of target.requests) {
      const hit = intercepts(webhook, target, request, context);
      if (hit === undefined) continue;
      const key = target.where;
      described.set(key, [...(described.get(key) ?? []), hit.operations.length < request.operations.length ? `${describe(request)} (${hit.operations.join(', ')})` : describe(request)]);
      if (firstRule === undefined || hit.rule < firstRule) firstRule = hit.rule;
      if (target.namespace === null) clusterScoped = true;
    }
  }
  return { described, firstRule, clusterScoped };
}

/**
 * Whether a webhook with failurePolicy Ignore has a timeout above IGNORE_TIMEOUT_SECONDS (and
 * within what the API server accepts): the one cause critical-resources reports for an Ignore
 * webhook, and which long-timeout and matches-kube-system then leave to it (one cause, one finding).
 */
export function ignoresWithLongTimeout(webhook: Readonly<Webhook>): boolean {
  const timeout = webhook.timeoutSeconds ?? 10;
  return webhook.failurePolicy === 'Ignore' && timeout > IGNORE_TIMEOUT_SECONDS && timeout <= MAX_TIMEOUT_SECONDS;
}

/**
 * Whether critical-resources reports this Ignore webhook for its long timeout: it intercepts a
 * control-plane write, kube-system's included (for an Ignore webhook, the timeout is one cause
 * wherever the writes are). The caller checks that critical-resources runs as designed and does
 * not defer to wildcard-rule.
 */
export function criticalForTimeout(webhook: Readonly<Webhook>, context: RunScope): boolean {
  return ignoresWithLongTimeout(webhook) && criticalWrites(webhook, context, { kubeSystemWrites: true }).firstRule !== undefined;
}
