/**
 * API defaults for webhook configurations, as `SetDefaults_*` in
 * pkg/apis/admissionregistration/{v1,v1beta1}/defaults.go apply them on decode: only fields
 * that are absent or null are filled, and only where the surrounding structure is an object
 * (a malformed tree is the `schema` rule's to report, not ours to repair).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { cloneData } from './clone.js';
import type { WebhookApiVersion, WebhookConfigurationKind } from '../model/types.js';

export interface Defaulted {
  /** A deep copy of the written object with defaults filled in. The written tree is untouched. */
  readonly effective: unknown;
  /** Field paths (API notation) that defaulting filled. */
  readonly defaulted: ReadonlySet<string>;
  /** The same fields as paths, in the order they were filled. */
  readonly defaultedPaths: readonly FieldPath[];
}

interface WebhookDefaults {
  readonly failurePolicy: string;
  readonly matchPolicy: string;
  readonly timeoutSeconds: number;
  /** v1 has no default: the field is required. */
  readonly sideEffects?: string;
  readonly admissionReviewVersions?: readonly string[];
}

/** facts §1.1 (v1/defaults.go) and §1.2 (v1beta1/defaults.go). */
export const WEBHOOK_DEFAULTS: Record<WebhookApiVersion, WebhookDefaults> = {
  'admissionregistration.k8s.io/v1': { failurePolicy: 'Fail', matchPolicy: 'Equivalent', timeoutSeconds: 10 },
  'admissionregistration.k8s.io/v1beta1': {
    failurePolicy: 'Ignore',
    matchPolicy: 'Exact',
    timeoutSeconds: 30,
    sideEffects: 'Unknown',
    admissionReviewVersions: ['v1beta1'],
  },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function defaultWebhookConfiguration(written: unknown, apiVersion: WebhookApiVersion, kind: WebhookConfigurationKind): Defaulted {
  const effective: unknown = cloneData(written);
  const defaulted = new Set<string>();
  const defaultedPaths: FieldPath[] = [];
  const table = WEBHOOK_DEFAULTS[apiVersion];
  const fill = (target: Json, key: string, value: unknown, path: FieldPath): void => {
    if (target[key] === undefined || target[key] === null) {
      target[key] = cloneData(value);
      defaulted.add(formatFieldPath([...path, key]));
      defaultedPaths.push([...path, key]);
    }
  };
  if (!isObject(effective) || !Array.isArray(effective.webhooks)) return { effective, defaulted, defaultedPaths };
  effective.webhooks.forEach((webhook: unknown, i: number) => {
    if (!isObject(webhook)) return;
    const at: FieldPath = ['webhooks', i];
    fill(webhook, 'failurePolicy', table.failurePolicy, at);
    fill(webhook, 'matchPolicy', table.matchPolicy, at);
    fill(webhook, 'namespaceSelector', {}, at);
    fill(webhook, 'objectSelector', {}, at);
    if (table.sideEffects !== undefined) fill(webhook, 'sideEffects', table.sideEffects, at);
    fill(webhook, 'timeoutSeconds', table.timeoutSeconds, at);
    if (table.admissionReviewVersions !== undefined) fill(webhook, 'admissionReviewVersions', table.admissionReviewVersions, at);
    if (kind === 'MutatingWebhookConfiguration') fill(webhook, 'reinvocationPolicy', 'Never', at);
    if (Array.isArray(webhook.rules)) {
      webhook.rules.forEach((rule: unknown, j: number) => {
        if (isObject(rule)) fill(rule, 'scope', '*', [...at, 'rules', j]);
      });
    }
    const clientConfig = webhook.clientConfig;
    if (isObject(clientConfig) && isObject(clientConfig.service)) {
      fill(clientConfig.service, 'port', 443, [...at, 'clientConfig', 'service']);
    }
  });
  return { effective, defaulted, defaultedPaths };
}
