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
import { matchWebhook, objectLabelsFor, type AdmissionRequest, type Operation } from './request.js';

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

function webhookGuards(object: WebhookConfigurationObject, key: string, backend: string | undefined, scope: RunScope): string | undefined {
  if (backend === undefined || object.kind !== 'ValidatingWebhookConfiguration' || !object.decodable || isFragment(object)) return undefined;
  for (const { webhook, label } of webhooksOf(object)) {
    if (webhook.failurePolicy === 'Ignore' || backendOf(webhook) !== backend) continue;
    if (WRITES.every((operation) => matchWebhook(webhook, namespaceWrite(operation, key), scope.discovery).called === true)) return `webhook "${label}"`;
  }
  return undefined;
}

function policyGuards(policy: PolicyObject, key: string, scope: RunScope): string | undefined {
  if (policy.kind !== 'ValidatingAdmissionPolicy' || !policy.decodable) return undefined;
  const spec = policySpec(policy);
  if (spec === undefined) return undefined;
  const denying = policyIndexOf(scope)
    .bindingsOf(policy)
    .filter((binding) => binding.decodable && (bindingSpec(binding)?.validationActions ?? []).includes('Deny'));
  for (const binding of denying) {
    if (WRITES.every((operation) => matchPolicy(spec, bindingSpec(binding), namespaceWrite(operation, key), scope.discovery).called === true)) {
      return `ValidatingAdmissionPolicy "${policy.name ?? '(unnamed)'}"`;
    }
  }
  return undefined;
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
    guard = null;
    for (const object of scope.webhookConfigurations) {
      guard = webhookGuards(object, key, backend, scope) ?? null;
      if (guard !== null) break;
    }
    if (guard === null) {
      for (const policy of scope.policies) {
        guard = policyGuards(policy, key, scope) ?? null;
        if (guard !== null) break;
      }
    }
    guards.set(memo, guard);
  }
  return guard ?? undefined;
}
