import { isAtLeast } from '../src/kube/version.js';
import { systemObjectLabels } from '../src/match/kube-system.js';
import { namespaceLabels } from '../src/match/namespaces.js';
import { matchWebhook, objectLabelsFor, rulesMayMatch, type Operation } from '../src/match/request.js';
import { conditionsOutcome, SYSTEM_REQUESTERS } from '../src/match/system-requests.js';
import type { Webhook } from '../src/model/types.js';
import { isDefaulted, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleContext } from '../src/rule.js';
import { kubeSystemInterceptions } from '../src/match/kube-system-webhooks.js';
import { MAX_TIMEOUT_SECONDS } from '../src/model/types.js';

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
  /** What breaks when these writes are rejected, for the message. */
  readonly why: string;
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
 * aggregated API servers, kubelet certificates, API registration, the priority classes and
 * namespaces the API server bootstraps, and the `kubernetes` Service in `default`.
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
    requests: [request('apiextensions.k8s.io', 'customresourcedefinitions'), request('apiextensions.k8s.io', 'customresourcedefinitions', 'status')],
  },
  { where: '', why: 'the system priority classes', namespace: null, requests: [request('scheduling.k8s.io', 'priorityclasses')] },
  { where: '', why: 'the kube-system Namespace', namespace: 'kube-system', requests: [request('', 'namespaces')], namespaceObject: true },
  {
    where: ' in default',
    why: 'the kubernetes Service, through which pods reach the API server',
    namespace: 'default',
    requests: [request('', 'services'), request('', 'endpoints'), request('discovery.k8s.io', 'endpointslices')],
  },
];

function describe(request: TargetRequest): string {
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
export function systemWriteCalls(webhook: Readonly<Webhook>, target: Target, request: TargetRequest, context: Pick<RuleContext, 'namespaces' | 'kubeVersion' | 'discovery'>): SystemWriteCall[] {
  if (!rulesMayMatch(webhook.rules, request.group, request.resource, request.subresource ?? '')) return [];
  const nsLabels = target.namespace === null ? undefined : namespaceLabels(context, target.namespace);
  // An unlabelled system object, except for the system labels the objectSelector asks for.
  const objectLabels = target.namespaceObject ? nsLabels! : systemObjectLabels(webhook.objectSelector);
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
      const requests = SYSTEM_REQUESTERS.map((requester) => ({
        group: request.group,
        resource: request.resource,
        subresource: request.subresource ?? '',
        operation,
        namespace: target.namespace,
        requester,
      }));
      conditions = conditionsOutcome(webhook.matchConditions ?? [], requests);
    }
    if (conditions !== 'skipped') calls.push({ operation, rule: outcome.rule, conditions });
  }
  return calls;
}

/** The first rule that makes the API server call the webhook for these system writes, and for which operations; undefined when none does. */
function intercepts(webhook: Readonly<Webhook>, target: Target, request: TargetRequest, context: RuleContext): { rule: number; operations: Operation[] } | undefined {
  const called = systemWriteCalls(webhook, target, request, context).filter((call) => call.conditions === 'called');
  if (called.length === 0) return undefined;
  return { rule: called.reduce((min, call) => Math.min(min, call.rule), Infinity), operations: called.map((call) => call.operation) };
}

/** The rule that reports the kube-system writes of these webhooks, when it runs. */
const MATCHES_KUBE_SYSTEM = 'matches-kube-system';

export const rule = defineObjectRule({
  meta: {
    id: 'critical-resources',
    title: 'The webhook can intercept resources the control plane needs to recover',
    aboutCalls: true,
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      fail: 'webhook "{{webhook}}" has failurePolicy Fail{{defaulted}} and intercepts writes the control plane needs, which are all rejected while it is down: {{resources}}',
      ignore:
        'webhook "{{webhook}}" has failurePolicy Ignore{{defaulted}} but timeoutSeconds {{timeout}}{{timeoutDefaulted}}, and intercepts writes the control plane needs, each of which waits {{timeout}}s while it is unreachable (heartbeats, lease renewals and token reviews have shorter deadlines): {{resources}}',
    },
    help: 'Narrow the rules to the resources the webhook needs (no wildcards over the control plane\'s resources), exclude kube-system and kube-node-lease by kubernetes.io/metadata.name, or use failurePolicy Ignore with a short timeout.',
  },
  check(object, context) {
    const virtualExempt = isAtLeast(context.kubeVersion, 1, 37);
    // One cause, one finding: when matches-kube-system runs, it reports these webhooks for the
    // system's writes in kube-system; when it is off, this rule reports them itself.
    const reportedForKubeSystem = new Set(context.isEnabled(MATCHES_KUBE_SYSTEM) ? kubeSystemInterceptions(object, context).map(({ entry }) => entry.index) : []);
    return webhooksOf(object).flatMap((entry) => {
      const { webhook } = entry;
      const ignore = webhook.failurePolicy === 'Ignore';
      const timeout = webhook.timeoutSeconds ?? 10;
      // Above 30s the API server rejects the object; timeout-out-of-range reports that.
      if (ignore && !(timeout > IGNORE_TIMEOUT_SECONDS && timeout <= MAX_TIMEOUT_SECONDS)) return [];
      // "<resources><where> (<why>)", targets with the same place and purpose merged.
      const described = new Map<string, string[]>();
      let firstRule: number | undefined;
      for (const target of TARGETS) {
        if (target.virtual && virtualExempt) continue;
        if (target.kubeSystemWrites && reportedForKubeSystem.has(entry.index)) continue;
        for (const request of target.requests) {
          const hit = intercepts(webhook, target, request, context);
          if (hit === undefined) continue;
          const key = `${target.where} (${target.why})`;
          described.set(key, [...(described.get(key) ?? []), hit.operations.length < request.operations.length ? `${describe(request)} (${hit.operations.join(', ')})` : describe(request)]);
          if (firstRule === undefined || hit.rule < firstRule) firstRule = hit.rule;
        }
      }
      if (firstRule === undefined) return [];
      return [
        {
          messageId: ignore ? ('ignore' as const) : ('fail' as const),
          data: {
            webhook: entry.label,
            resources: [...described].map(([key, names]) => `${names.join(', ')}${key}`).join('; '),
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
