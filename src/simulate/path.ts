/**
 * The admission path of one request, as the API server takes it (facts §5, §6):
 *
 * - mutating webhooks one after another, configurations sorted by metadata.name (Go string
 *   order, sort.SliceStable in configuration/mutating_webhook_manager.go), webhooks in list
 *   order inside each; a called webhook with reinvocationPolicy IfNeeded may be called once more
 *   (the reinvocation round, when a later plugin or webhook changed the object);
 * - then the validating phase: the built-in PodSecurity plugin (./pod-security.ts: it checks Pods
 *   and pod templates against their namespace's Pod Security level), the validating admission
 *   policies, evaluated in the API server, and the validating webhooks, all called in parallel
 *   (validating/dispatcher.go).
 *
 * Whether a webhook is called is the shared request matcher's answer (src/match/request.ts),
 * then its matchConditions (./conditions.ts).
 */
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import type { Discovery } from '../kube/discovery/discovery.js';
import { compareNames } from '../match/candidates.js';
import { matchPolicy } from '../match/policy.js';
import { matchWebhook, objectLabelsFor, type AdmissionRequest, type MatchOutcome } from '../match/request.js';
import type { Labels } from '../match/selector.js';
import type { NamespaceObject, PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { bindingSpec, PolicyIndex, policySpec } from '../model/policies.js';
import { webhooksOf } from '../model/webhooks.js';
import { evaluateConditions, type ConditionsResult } from './conditions.js';
import type { Meter } from '../cel/budget.js';
import { isWebhookConfigurationRequest, matchPolicyOnWebhookConfiguration } from './policy-webhook-kinds.js';
import { resolveNamespaceLabels, type ResolvedNamespaceLabels } from './namespace-labels.js';
import type { SimulatedRequest } from './request-flags.js';
import { podSecurityStep, type PodSecurityStep } from './pod-security.js';
import { evaluateValidations, type ValidationVerdict } from './validations.js';
import type { PodSecuritySettings } from '../model/pod-security.js';

/** One webhook or policy binding of the run, as the JSON contract lists it, plus what the other outputs show. */
export interface PathEntry {
  readonly configuration: string;
  readonly webhook: string | null;
  readonly called: boolean;
  readonly reason: string | null;
  readonly failurePolicy: string;
  readonly timeoutSeconds: number | null;
  readonly reinvoked: boolean;
  /** Not in the JSON contract. */
  readonly detail: {
    readonly file: string;
    readonly sideEffects?: string;
    /** matchConditions that decide the call and could not be evaluated. */
    readonly dependsOn: readonly string[];
    /** Bindings only: spec.validationActions. */
    readonly validationActions?: readonly string[];
    /** Called through another version of the resource (matchPolicy Equivalent): "group/version". */
    readonly equivalent?: string;
    /** Called policy bindings with --object: the policy's validations against the object. */
    readonly validation?: ValidationVerdict;
  };
}

export interface AdmissionPath {
  readonly request: SimulatedRequest;
  readonly namespaceLabels: ResolvedNamespaceLabels | null;
  readonly kubeVersion: KubeVersion;
  readonly mutating: readonly PathEntry[];
  /** The built-in PodSecurity plugin's step; null when it does not look at this resource. */
  readonly podSecurity: PodSecurityStep | null;
  readonly validating: readonly PathEntry[];
  readonly policies: readonly PathEntry[];
  /** Configurations that do not decode (wrong field types): the API server would not store them. */
  readonly notDecodable: readonly string[];
  /** Configurations of a kind and name that a later one in the run replaces (a cluster holds one object per name). */
  readonly replaced: readonly string[];
}

/** TokenReview-style virtual resources: never sent to CEL policies; from 1.37 not to webhooks either (facts §7). */
const VIRTUAL_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  'authentication.k8s.io': ['tokenreviews', 'selfsubjectreviews'],
  'authorization.k8s.io': ['subjectaccessreviews', 'selfsubjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'],
};

export function isVirtualResource(group: string, resource: string): boolean {
  return VIRTUAL_RESOURCES[group]?.includes(resource) ?? false;
}

function requestObjectLabels(request: SimulatedRequest, namespaceLabels: Labels | undefined): Pick<AdmissionRequest, 'objectLabels' | 'oldObjectLabels'> {
  // A Namespace's labels are the object's labels; the matcher reads the incoming ones on CREATE/UPDATE.
  const labels = request.group === '' && request.resource === 'namespaces' ? (namespaceLabels ?? {}) : request.objectLabels;
  // UPDATE: the flags give one set of labels, taken for the old and the new object; --old-object gives the old one's.
  const both = objectLabelsFor(request.operation, labels);
  return request.operation === 'UPDATE' && request.oldObject !== undefined ? { ...both, oldObjectLabels: request.oldObject.labels } : both;
}

export function matcherRequest(request: SimulatedRequest, namespaceLabels: Labels | undefined): AdmissionRequest {
  return {
    operation: request.operation,
    group: request.group,
    version: request.version,
    resource: request.resource,
    subresource: request.subresource,
    namespace: request.namespace,
    ...(namespaceLabels === undefined ? {} : { namespaceLabels }),
    ...requestObjectLabels(request, namespaceLabels),
  };
}

function describeResource(request: SimulatedRequest): string {
  return `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
}

/** The reason a webhook is not called, in words (the JSON's "reason"), or null when it is called. */
function notCalledReason(outcome: MatchOutcome | { called: false; reason: 'excluded' | 'virtual' }, request: SimulatedRequest): string | null {
  if (outcome.called !== false) return null;
  switch (outcome.reason) {
    case 'exempt-kind':
      return isWebhookConfigurationRequest(request)
        ? `resource exempt: ${describeResource(request)} are never sent to webhooks (admission policies can check them)`
        : `resource exempt: ${describeResource(request)} are never sent to webhooks or admission policies`;
    case 'virtual':
      return `resource exempt: ${request.resource} is a virtual resource; admission policies are not evaluated for it`;
    case 'no-rule':
      return 'no rule matches';
    case 'namespace-selector':
      return `namespaceSelector does not select namespace ${request.namespace}`;
    case 'object-selector':
      return request.operation === 'CONNECT' ? 'objectSelector: a CONNECT request has no object labels, so a non-empty objectSelector never matches' : 'objectSelector does not select the object';
    case 'excluded':
      return 'excludeResourceRules exclude the request';
  }
}

interface Decision {
  readonly called: boolean;
  readonly reason: string | null;
  readonly dependsOn: readonly string[];
  readonly equivalent?: string;
}

function equivalentOf(outcome: MatchOutcome | { called: false; reason: 'excluded' | 'virtual' }): { equivalent?: string } {
  if (outcome.called !== true || outcome.equivalent === null) return {};
  const { group, version } = outcome.equivalent;
  return { equivalent: group === '' ? version : `${group}/${version}` };
}

function decide(outcome: MatchOutcome | { called: false; reason: 'excluded' | 'virtual' }, conditions: () => ConditionsResult, request: SimulatedRequest): Decision {
  if (outcome.called === false) return { called: false, reason: notCalledReason(outcome, request), dependsOn: [] };
  if (outcome.called === 'unknown') {
    // The simulation always knows the labels; kept for completeness (worst case: called).
    const what = outcome.unknown === 'namespace-labels' ? 'the namespace labels' : 'the object labels';
    return { called: true, reason: `depends on: ${what}`, dependsOn: [] };
  }
  const result = conditions();
  if (result.outcome === 'false') return { called: false, reason: `matchCondition "${result.condition}" is false`, dependsOn: [] };
  if (result.outcome === 'depends') return { called: true, reason: `depends on: ${result.expressions.join(' && ')}`, dependsOn: result.expressions, ...equivalentOf(outcome) };
  return { called: true, reason: null, dependsOn: [], ...equivalentOf(outcome) };
}

/** Called entries first in execution order, then the others in configuration order (both: the order given). */
function calledFirst(entries: readonly PathEntry[]): PathEntry[] {
  return [...entries.filter((entry) => entry.called), ...entries.filter((entry) => !entry.called)];
}

function webhookEntries(objects: readonly WebhookConfigurationObject[], request: SimulatedRequest, admission: AdmissionRequest, discovery: Discovery, kubeVersion: KubeVersion, meter: Meter): { mutating: PathEntry[]; validating: PathEntry[] } {
  // sort.SliceStable by name: equal names keep the run's order.
  const sorted = objects.map((object, i) => ({ object, i })).sort((a, b) => compareNames(a.object.name ?? '', b.object.name ?? '') || a.i - b.i);
  const mutating: PathEntry[] = [];
  const validating: PathEntry[] = [];
  const virtualExempt = isAtLeast(kubeVersion, 1, 37) && isVirtualResource(request.group, request.resource);
  for (const { object } of sorted) {
    for (const entry of webhooksOf(object)) {
      const { webhook } = entry;
      const outcome = virtualExempt ? ({ called: false, reason: 'virtual' } as const) : matchWebhook(webhook, admission, discovery);
      const decision = decide(outcome, () => evaluateConditions(webhook.matchConditions, request, meter), request);
      const reinvoked = entry.mutating && decision.called && webhook.reinvocationPolicy === 'IfNeeded';
      const pathEntry: PathEntry = {
        configuration: object.name ?? '(no name)',
        webhook: entry.label,
        called: decision.called,
        reason: virtualExempt && !decision.called ? `resource exempt: from Kubernetes 1.37 webhooks are not called for the virtual resource ${request.resource}` : decision.reason,
        failurePolicy: webhook.failurePolicy ?? 'Fail',
        timeoutSeconds: webhook.timeoutSeconds ?? 10,
        reinvoked,
        detail: {
          file: object.manifest.file.path,
          ...(webhook.sideEffects !== undefined ? { sideEffects: webhook.sideEffects } : {}),
          dependsOn: decision.dependsOn,
          ...(decision.equivalent !== undefined ? { equivalent: decision.equivalent } : {}),
        },
      };
      (entry.mutating ? mutating : validating).push(pathEntry);
    }
  }
  return { mutating: calledFirst(mutating), validating: calledFirst(validating) };
}

function policyEntries(objects: readonly PolicyObject[], request: SimulatedRequest, admission: AdmissionRequest, discovery: Discovery, meter: Meter, namespace: NamespaceObject | undefined): PathEntry[] {
  const decodable = objects.filter((object) => object.decodable);
  const index = new PolicyIndex(decodable);
  const policies = decodable.filter((object) => object.kind === 'ValidatingAdmissionPolicy').sort((a, b) => compareNames(a.name ?? '', b.name ?? ''));
  const entries: PathEntry[] = [];
  for (const policy of policies) {
    const spec = policySpec(policy);
    const failurePolicy = spec?.failurePolicy ?? 'Fail';
    const bindings = index.bindingsOf(policy).sort((a, b) => compareNames(a.name ?? '', b.name ?? ''));
    if (bindings.length === 0) {
      entries.push({ configuration: policy.name ?? '(no name)', webhook: null, called: false, reason: 'no ValidatingAdmissionPolicyBinding in the run binds it', failurePolicy, timeoutSeconds: null, reinvoked: false, detail: { file: policy.manifest.file.path, dependsOn: [] } });
      continue;
    }
    for (const binding of bindings) {
      const outcome = isVirtualResource(request.group, request.resource)
        ? ({ called: false, reason: 'virtual' } as const)
        : isWebhookConfigurationRequest(request)
          ? matchPolicyOnWebhookConfiguration(spec, bindingSpec(binding), admission, discovery)
          : matchPolicy(spec, bindingSpec(binding), admission, discovery);
      const decision = decide(outcome, () => evaluateConditions(spec?.matchConditions, request, meter), request);
      const validation = decision.called ? evaluateValidations(spec, request, namespace, meter) : undefined;
      entries.push({
        configuration: policy.name ?? '(no name)',
        webhook: binding.name ?? '(no name)',
        called: decision.called,
        reason: decision.reason,
        failurePolicy,
        timeoutSeconds: null,
        reinvoked: false,
        detail: {
          file: binding.manifest.file.path,
          dependsOn: decision.dependsOn,
          validationActions: bindingSpec(binding)?.validationActions ?? [],
          ...(decision.equivalent !== undefined ? { equivalent: decision.equivalent } : {}),
          ...(validation !== undefined ? { validation } : {}),
        },
      });
    }
  }
  // Bindings whose policy is not in the run: listed, never evaluated.
  for (const binding of decodable.filter((object) => object.kind === 'ValidatingAdmissionPolicyBinding' && index.policiesOf(object).length === 0)) {
    entries.push({
      configuration: bindingSpec(binding)?.policyName ?? '(no policyName)',
      webhook: binding.name ?? '(no name)',
      called: false,
      reason: 'its ValidatingAdmissionPolicy is not in the run',
      failurePolicy: 'Fail',
      timeoutSeconds: null,
      reinvoked: false,
      detail: { file: binding.manifest.file.path, dependsOn: [], validationActions: bindingSpec(binding)?.validationActions ?? [] },
    });
  }
  return calledFirst(entries);
}

export interface PathInput {
  readonly webhookConfigurations: readonly WebhookConfigurationObject[];
  readonly namespaces: readonly NamespaceObject[];
  readonly policies: readonly PolicyObject[];
  readonly discovery: Discovery;
  readonly kubeVersion: KubeVersion;
  /** The simulation's CEL evaluation meter (src/cel/budget.ts). */
  readonly celMeter: Meter;
  /** The cluster's PodSecurity configuration (`--pod-security-config`); default: the built-in one. */
  readonly podSecurity: PodSecuritySettings;
}

/** The admission path of `request` through the run's webhooks and policies. */
export function admissionPath(request: SimulatedRequest, input: PathInput): AdmissionPath {
  const namespaceLabels = request.namespace === null ? null : resolveNamespaceLabels(request.namespace, request.namespaceLabelsFlag, input.namespaces, input.kubeVersion);
  const admission = matcherRequest(request, namespaceLabels?.labels);
  const decodable = input.webhookConfigurations.filter((object) => object.decodable);
  // One object per kind and name: applying the run leaves the last one.
  const last = new Map<string, WebhookConfigurationObject>();
  for (const object of decodable) last.set(`${object.kind}/${object.name ?? ''}`, object);
  const kept = decodable.filter((object) => last.get(`${object.kind}/${object.name ?? ''}`) === object);
  const replaced = decodable
    .filter((object) => !kept.includes(object))
    .map((object) => `${object.kind} ${object.name ?? '(no name)'} in ${object.manifest.file.path} (replaced by the one in ${last.get(`${object.kind}/${object.name ?? ''}`)!.manifest.file.path})`);
  const { mutating, validating } = webhookEntries(kept, request, admission, input.discovery, input.kubeVersion, input.celMeter);
  return {
    request,
    namespaceLabels,
    kubeVersion: input.kubeVersion,
    mutating,
    podSecurity: podSecurityStep(request, { settings: input.podSecurity, kubeVersion: input.kubeVersion, namespaceLabels, namespaces: input.namespaces }),
    validating,
    policies: policyEntries(input.policies, request, admission, input.discovery, input.celMeter, request.namespace === null ? undefined : input.namespaces.find((namespace) => namespace.name === request.namespace)),
    notDecodable: input.webhookConfigurations.filter((object) => !object.decodable).map((object) => `${object.kind} ${object.name ?? '(no name)'} (${object.manifest.file.path})`),
    replaced,
  };
}
