/** Small read-only helpers that rules share for walking a webhook configuration. */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import type { WebhookConfigurationObject } from './objects.js';
import type { Webhook } from './types.js';
import { ObjectMemo } from '../cache.js';

export interface WebhookEntry {
  readonly webhook: Readonly<Webhook>;
  readonly index: number;
  /** ['webhooks', index] */
  readonly path: FieldPath;
  /** The webhook's name for messages ("webhooks[2]" when it has none). */
  readonly label: string;
  readonly mutating: boolean;
}

/** webhooksOf per object (the model is read-only): every rule walks the same entries. */
const entriesOf = new ObjectMemo<WebhookConfigurationObject, readonly WebhookEntry[]>();

export function webhooksOf(object: WebhookConfigurationObject): readonly WebhookEntry[] {
  return entriesOf.get(object, entriesFor);
}

function entriesFor(object: WebhookConfigurationObject): readonly WebhookEntry[] {
  const entries: WebhookEntry[] = [];
  object.effective.webhooks?.forEach((webhook, index) => {
    if (webhook === null || typeof webhook !== 'object') return;
    const path = ['webhooks', index];
    entries.push({ webhook, index, path, label: webhook.name ? webhook.name : formatFieldPath(path), mutating: object.kind === 'MutatingWebhookConfiguration' });
  });
  return Object.freeze(entries);
}

export function isDefaulted(object: WebhookConfigurationObject, path: FieldPath): boolean {
  return object.defaulted.has(formatFieldPath(path));
}

export function isV1beta1(object: WebhookConfigurationObject): boolean {
  return object.apiVersion === 'admissionregistration.k8s.io/v1beta1';
}

/**
 * Whether the object is a fragment rather than a configuration: it has webhooks, and either none
 * of them has a clientConfig or rules (a kustomize strategic-merge patch that only adds selectors
 * to webhooks named in a base), or, in v1, none sets sideEffects or admissionReviewVersions
 * (required, with no default: every generator writes them) and some also lacks its rules or
 * clientConfig (a patch that sets a Service and selectors, say). The API server would reject it
 * for each missing field of each webhook; that is one cause, said once.
 */
export function isFragment(object: WebhookConfigurationObject): boolean {
  const entries = webhooksOf(object);
  if (entries.length === 0) return false;
  if (entries.every(({ webhook }) => webhook.clientConfig == null && webhook.rules == null)) return true;
  return (
    !isV1beta1(object) &&
    entries.every(({ webhook }) => webhook.sideEffects == null && webhook.admissionReviewVersions == null) &&
    entries.some(({ webhook }) => webhook.clientConfig == null || webhook.rules == null)
  );
}
