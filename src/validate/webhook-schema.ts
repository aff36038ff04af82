/**
 * JSON Schemas of the webhook configuration types (k8s.io/api admissionregistration/v1
 * types.go, v0.35). They check what decoding checks: field types and unknown fields (kubectl
 * sends `fieldValidation=Strict`). Required fields and allowed values are the API server's
 * validation and live in `api-validation`, with its messages.
 *
 * JSON `null` decodes to the zero value in Go for every field, so every field accepts null.
 */
import type { WebhookConfigurationKind } from '../model/types.js';

type Schema = Record<string, unknown>;

const nullable = (type: string | string[]): Schema => ({ type: [...(Array.isArray(type) ? type : [type]), 'null'] });
const INT32 = { ...nullable('integer'), minimum: -2147483648, maximum: 2147483647 };
const INT64 = nullable('integer');
const STRING = nullable('string');
const STRING_LIST = { ...nullable('array'), items: STRING };
const STRING_MAP = { ...nullable('object'), additionalProperties: STRING };

const strictObject = (properties: Record<string, Schema>): Schema => ({
  ...nullable('object'),
  properties,
  additionalProperties: false,
});

/** ownerReferences and managedFields are written by tools; their inner shape is not ours to police. */
const LOOSE_OBJECT_LIST = { ...nullable('array'), items: nullable('object') };

const OBJECT_META = strictObject({
  name: STRING,
  generateName: STRING,
  namespace: STRING,
  selfLink: STRING,
  uid: STRING,
  resourceVersion: STRING,
  generation: INT64,
  creationTimestamp: STRING,
  deletionTimestamp: STRING,
  deletionGracePeriodSeconds: INT64,
  labels: STRING_MAP,
  annotations: STRING_MAP,
  ownerReferences: LOOSE_OBJECT_LIST,
  finalizers: STRING_LIST,
  managedFields: LOOSE_OBJECT_LIST,
});

const LABEL_SELECTOR = strictObject({
  matchLabels: STRING_MAP,
  matchExpressions: {
    ...nullable('array'),
    items: strictObject({ key: STRING, operator: STRING, values: STRING_LIST }),
  },
});

const RULE_WITH_OPERATIONS = strictObject({
  operations: STRING_LIST,
  apiGroups: STRING_LIST,
  apiVersions: STRING_LIST,
  resources: STRING_LIST,
  scope: STRING,
});

const CLIENT_CONFIG = strictObject({
  url: STRING,
  service: strictObject({ namespace: STRING, name: STRING, path: STRING, port: INT32 }),
  caBundle: { ...STRING, format: 'base64' },
});

function webhookSchema(kind: WebhookConfigurationKind): Schema {
  const properties: Record<string, Schema> = {
    name: STRING,
    clientConfig: CLIENT_CONFIG,
    rules: { ...nullable('array'), items: RULE_WITH_OPERATIONS },
    failurePolicy: STRING,
    matchPolicy: STRING,
    namespaceSelector: LABEL_SELECTOR,
    objectSelector: LABEL_SELECTOR,
    sideEffects: STRING,
    timeoutSeconds: INT32,
    admissionReviewVersions: STRING_LIST,
    matchConditions: { ...nullable('array'), items: strictObject({ name: STRING, expression: STRING }) },
  };
  if (kind === 'MutatingWebhookConfiguration') properties.reinvocationPolicy = STRING;
  return strictObject(properties);
}

export function webhookConfigurationSchema(kind: WebhookConfigurationKind): Schema {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: OBJECT_META,
      webhooks: { ...nullable('array'), items: webhookSchema(kind) },
    },
    additionalProperties: false,
  };
}

/**
 * Go decodes []byte from standard base64 and skips CR/LF; anything else (a PEM block pasted
 * as is, a URL-safe alphabet, missing padding) fails to decode.
 */
export function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, '');
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact);
}
