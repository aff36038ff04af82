/**
 * Who guards a Namespace label. A namespaceSelector that reads a label is only as strong as the
 * control over that label: under default RBAC only cluster-level users can update a Namespace
 * (bootstrappolicy's view/edit/admin roles grant get/list/watch on namespaces only), and a project
 * can go further with a validating webhook or policy on Namespaces that rejects the label where
 * it is not allowed (a policy engine's check of its own ignore label, a tenancy tool's namespace validator).
 *
 * Whether such a guard rejects this particular label cannot be read from the files; that it sees
 * every Namespace create and update that carries the label, and can reject it, can. A guard here
 * is a validating webhook of the run with failurePolicy Fail, served by the same backend as the
 * webhook whose selector reads the label (the same Service, or the same URL host: the project
 * that defined the label), or a ValidatingAdmissionPolicy bound with Deny (in-process, written
 * by the cluster's admins), that is called for both a CREATE and an UPDATE of a Namespace
 * carrying the label (so a guard whose own selectors let that label through does not count).
 */
import type { PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { bindingSpec, policySpec } from '../model/policies.js';
import { NAMESPACE_NAME_LABEL, type Webhook } from '../model/types.js';
import { isFragment, webhooksOf } from '../model/webhooks.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { policyIndexOf } from './bindings.js';
import { matchPolicy } from './policy.js';
import { matchWebhook, objectLabelsFor, rulesMayMatch, type AdmissionRequest, type Operation } from './request.js';

/** A namespace name no selector is likely to single out: any tenant's namespace. */
const SOME_NAMESPACE = 'tenant-namespace';

function namespaceWrite(operation: Operation, key: string): AdmissionRequest {
  const labels = { [NAMESPACE_NAME_LABEL]: SOME_NAMESPACE, [key]: 'true' };
  return {
    operation,
    group: '',
    version: 'v1',
    resource: 'namespaces',
    subresource: '',
    namespace: SOME_NAMESPACE,
    namespaceLabels: labels,
    ...objectLabelsFor(operation, labels),
  };
}

const WRITES: readonly Operation[] = ['CREATE', 'UPDATE'];

/** Who serves a webhook: its Service (namespace/name) or its URL's host; undefined when neither is known. */
export function backendOf(webhook: Readonly<Webhook>): string | undefined {
  const { service, url } = webhook.clientConfig ?? {};
  if (service?.name && service.namespace) return `service ${service.namespace}/${service.name}`;
  if (typeof url !== 'string') return undefined;
  try {
    return `host ${new URL(url).host}`;
  } catch {
    return undefined;
  }
}

/**
 * A webhook of the same validating configuration as `self`, served by the same backend, that
 * checks what `self` checks (the same rules, objectSelector and matchConditions), fails closed,
 * and selects namespaces by values of `key` alone (one `In` requirement or one matchLabels pair,
 * none of them `exempt`): `self`'s `NotIn [exempt]` on that key is then a level the checks are
 * chosen by per namespace, as Pod Security's enforce label is (a baseline check that skips
 * `privileged` beside a restricted one for `restricted`: hold-out 34). Its label, or undefined.
 * Not where a kustomize patch of the run may change the configuration (it may remove the sibling:
 * s47e 16). Each condition closes a way round it that attack s47e found.
 */
export function levelSibling(object: WebhookConfigurationObject, self: Readonly<Webhook>, key: string, exempt: string, patched: boolean): string | undefined {
  if (object.kind !== 'ValidatingWebhookConfiguration' || isFragment(object) || patched) return undefined;
  const backend = backendOf(self);
  if (backend === undefined) return undefined;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const entry of webhooksOf(object)) {
    const webhook = entry.webhook;
    if (webhook === self || backendOf(webhook) !== backend || webhook.failurePolicy !== 'Fail') continue;
    if (!same(webhook.rules, self.rules) || !same(webhook.objectSelector, self.objectSelector) || !same(webhook.matchConditions, self.matchConditions)) continue;
    const { matchLabels, matchExpressions } = webhook.namespaceSelector ?? {};
    const labels = Object.entries(matchLabels ?? {});
    const expressions = matchExpressions ?? [];
    const byValue =
      (labels.length === 1 && expressions.length === 0 && labels[0]![0] === key && typeof labels[0]![1] === 'string' && labels[0]![1] !== exempt) ||
      (labels.length === 0 &&
        expressions.length === 1 &&
        expressions[0]?.key === key &&
        expressions[0].operator === 'In' &&
        Array.isArray(expressions[0].values) &&
        expressions[0].values.length > 0 &&
        !expressions[0].values.includes(exempt));
    if (byValue) return entry.label;
  }
  return undefined;
}

interface GuardCandidate {
  readonly name: string;
  /** A policy guards for any selector; a webhook only for those of webhooks with the same backend (see backendOf). */
  readonly policy: boolean;
  readonly backend: string | undefined;
  /** Whether it is called for this Namespace write. */
  readonly calls: (request: AdmissionRequest) => boolean;
}

const CANDIDATES = memoKey<readonly GuardCandidate[]>('webhooks and policies that may guard Namespace labels');

/**
 * Once per run: the validating webhooks (Fail) and Deny-bound ValidatingAdmissionPolicies whose
 * rules name Namespaces, the few that can be guards; which key each guards is asked per key.
 */
function guardCandidates(scope: RunScope): readonly GuardCandidate[] {
  return scope.memo.get(CANDIDATES, () => {
    const found: GuardCandidate[] = [];
    for (const object of scope.webhookConfigurations) {
      if (object.kind !== 'ValidatingWebhookConfiguration' || !object.decodable || isFragment(object)) continue;
      for (const { webhook, label } of webhooksOf(object)) {
        if (webhook.failurePolicy === 'Ignore' || !rulesMayMatch(webhook.rules, '', 'namespaces', '')) continue;
        found.push({ name: `webhook "${label}"`, policy: false, backend: backendOf(webhook), calls: (request) => matchWebhook(webhook, request, scope.discovery).called === true });
      }
    }
    for (const policy of scope.policies) found.push(...policyCandidates(policy, scope));
    return found;
  });
}

function policyCandidates(policy: PolicyObject, scope: RunScope): GuardCandidate[] {
  if (policy.kind !== 'ValidatingAdmissionPolicy' || !policy.decodable) return [];
  const spec = policySpec(policy);
  if (spec === undefined || !rulesMayMatch(spec.matchConstraints?.resourceRules, '', 'namespaces', '')) return [];
  return policyIndexOf(scope)
    .bindingsOf(policy)
    .filter((binding) => binding.decodable && (bindingSpec(binding)?.validationActions ?? []).includes('Deny'))
    .map((binding) => ({
      name: `ValidatingAdmissionPolicy "${policy.name ?? '(unnamed)'}"`,
      policy: true,
      backend: undefined,
      calls: (request: AdmissionRequest) => matchPolicy(spec, bindingSpec(binding), request, scope.discovery).called === true,
    }));
}

const GUARDS = memoKey<Map<string, string | null>>('namespace label guards by key and backend');

/**
 * The webhook (served by `backend`, see backendOf) or policy of the run that guards Namespace
 * writes carrying `key` ('webhook "x"', 'ValidatingAdmissionPolicy "y"'), or undefined when
 * none does. Without a backend (a policy's selector) only policies count.
 */
export function namespaceLabelGuard(scope: RunScope, key: string, backend: string | undefined): string | undefined {
  const guards = scope.memo.get(GUARDS, () => new Map<string, string | null>());
  const memo = JSON.stringify([key, backend ?? null]);
  let guard = guards.get(memo);
  if (guard === undefined) {
    const writes = WRITES.map((operation) => namespaceWrite(operation, key));
    const found = guardCandidates(scope).find((candidate) => (candidate.policy || (backend !== undefined && candidate.backend === backend)) && writes.every((request) => candidate.calls(request)));
    guard = found?.name ?? null;
    guards.set(memo, guard);
  }
  return guard ?? undefined;
}
