/**
 * Decoding-level checks of admission policies and bindings (ValidatingAdmissionPolicy,
 * ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding):
 * field types and unknown fields, as schema.ts checks webhook configurations. The JSON Schemas
 * follow the v1 API types (k8s.io/api admissionregistration/v1 types.go: VAP v0.35, MAP
 * v0.36); v1beta1 and v1alpha1 have the same fields. Required fields and allowed values are
 * the API server's validation (policy-api.ts).
 *
 * JSON `null` decodes to the zero value in Go for every field, so every field accepts null.
 * The validators are precompiled at build time (see schema.ts).
 */
import type { FieldPath } from '../field-path.js';
import { ADMISSION_GROUP, type PolicyKind } from '../model/types.js';
import { schemaChecker, type SchemaProblem } from './schema.js';
import { webhookConfigurationSchema } from './webhook-schema.js';

type Schema = Record<string, unknown>;

/** The versions of admissionregistration.k8s.io that have (or had) the policy kinds. */
export const POLICY_API_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;

const nullable = (type: string): Schema => ({ type: [type, 'null'] });
const INT64 = nullable('integer');
const STRING = nullable('string');
const STRING_LIST = { ...nullable('array'), items: STRING };

const strictObject = (properties: Record<string, Schema>): Schema => ({
  ...nullable('object'),
  properties,
  additionalProperties: false,
});
const listOf = (items: Schema): Schema => ({ ...nullable('array'), items });

/** A sub-schema of the webhook configuration schema, so ObjectMeta and LabelSelector stay one definition. */
function webhookSubschema(...path: string[]): Schema {
  let node: unknown = webhookConfigurationSchema('ValidatingWebhookConfiguration');
  for (const key of path) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'object' || node === null) throw new Error(`no webhook schema at ${path.join('.')}`);
  return node as Schema;
}

/** The JSON Schema of a policy or binding kind (also compiled at build time: src/build/validators.ts). */
export function policySchema(kind: PolicyKind): Schema {
  const objectMeta = webhookSubschema('properties', 'metadata');
  const labelSelector = webhookSubschema('properties', 'webhooks', 'items', 'properties', 'namespaceSelector');
  const matchCondition = webhookSubschema('properties', 'webhooks', 'items', 'properties', 'matchConditions', 'items');
  const namedRule = strictObject({
    resourceNames: STRING_LIST,
    operations: STRING_LIST,
    apiGroups: STRING_LIST,
    apiVersions: STRING_LIST,
    resources: STRING_LIST,
    scope: STRING,
  });
  const matchResources = strictObject({
    namespaceSelector: labelSelector,
    objectSelector: labelSelector,
    resourceRules: listOf(namedRule),
    excludeResourceRules: listOf(namedRule),
    matchPolicy: STRING,
  });
  const paramKind = strictObject({ apiVersion: STRING, kind: STRING });
  const variable = strictObject({ name: STRING, expression: STRING });
  const expression = strictObject({ expression: STRING });
  const paramRef = strictObject({ name: STRING, namespace: STRING, selector: labelSelector, parameterNotFoundAction: STRING });

  let spec: Schema;
  const extra: Record<string, Schema> = {};
  switch (kind) {
    case 'ValidatingAdmissionPolicy':
      spec = strictObject({
        paramKind,
        matchConstraints: matchResources,
        validations: listOf(strictObject({ expression: STRING, message: STRING, reason: STRING, messageExpression: STRING })),
        failurePolicy: STRING,
        auditAnnotations: listOf(strictObject({ key: STRING, valueExpression: STRING })),
        matchConditions: listOf(matchCondition),
        variables: listOf(variable),
      });
      // Written by `kubectl get -o yaml`; the API server resets it on create.
      extra.status = strictObject({
        observedGeneration: INT64,
        typeChecking: strictObject({ expressionWarnings: listOf(strictObject({ fieldRef: STRING, warning: STRING })) }),
        conditions: listOf(nullable('object')),
      });
      break;
    case 'MutatingAdmissionPolicy':
      spec = strictObject({
        paramKind,
        matchConstraints: matchResources,
        variables: listOf(variable),
        mutations: listOf(strictObject({ patchType: STRING, applyConfiguration: expression, jsonPatch: expression })),
        failurePolicy: STRING,
        matchConditions: listOf(matchCondition),
        reinvocationPolicy: STRING,
      });
      break;
    case 'ValidatingAdmissionPolicyBinding':
      spec = strictObject({ policyName: STRING, paramRef, matchResources, validationActions: STRING_LIST });
      break;
    case 'MutatingAdmissionPolicyBinding':
      spec = strictObject({ policyName: STRING, paramRef, matchResources });
      break;
  }
  return {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: objectMeta, spec, ...extra },
    additionalProperties: false,
  };
}

/** Fields that exist on the sibling kind: say where they belong. */
const MISPLACED: Readonly<Record<string, string>> = {
  validationActions: 'only ValidatingAdmissionPolicyBinding has validationActions',
  reinvocationPolicy: 'only MutatingAdmissionPolicy has reinvocationPolicy',
  mutations: 'only MutatingAdmissionPolicy has mutations',
  validations: 'only ValidatingAdmissionPolicy has validations',
  auditAnnotations: 'only ValidatingAdmissionPolicy has auditAnnotations',
};

export const policyUnknownFieldNote = (parent: FieldPath, name: string): string | undefined => (parent.length === 1 && parent[0] === 'spec' ? MISPLACED[name] : undefined);

const decode = schemaChecker<PolicyKind>(policySchema, policyUnknownFieldNote);

export function checkPolicySchema(kind: PolicyKind, written: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const apiVersion = typeof written === 'object' && written !== null ? (written as Record<string, unknown>).apiVersion : undefined;
  const version = typeof apiVersion === 'string' && apiVersion.startsWith(`${ADMISSION_GROUP}/`) ? apiVersion.slice(ADMISSION_GROUP.length + 1) : undefined;
  if (version !== undefined && !(POLICY_API_VERSIONS as readonly string[]).includes(version)) {
    // No Kubernetes version ever served the policy kinds there.
    problems.push({ path: ['apiVersion'], part: 'pair', blocking: true, message: `no API serves ${kind} in ${String(apiVersion)}: use ${ADMISSION_GROUP}/v1` });
  }
  return [...problems, ...decode(kind, written)];
}
