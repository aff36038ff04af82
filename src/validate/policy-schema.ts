/**
 * Decoding-level checks of admission policies and bindings (ValidatingAdmissionPolicy,
 * ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding):
 * field types and unknown fields, as schema.ts checks webhook configurations. The JSON Schemas
 * follow the v1 API types (k8s.io/api admissionregistration/v1 types.go: VAP v0.35, MAP
 * v0.36); v1beta1 and v1alpha1 have the same fields. Required fields and allowed values are
 * the API server's validation (policy-api.ts).
 *
 * JSON `null` decodes to the zero value in Go for every field, so every field accepts null.
 * ajv is loaded and each kind's schema compiled on first use only.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { ADMISSION_GROUP, type PolicyKind } from '../model/types.js';
import type { SchemaProblem } from './schema.js';
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

function schemaFor(kind: PolicyKind): Schema {
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

const validators = new Map<PolicyKind, ValidateFunction>();

function validatorFor(kind: PolicyKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate === undefined) {
    // ajv ships CommonJS; createRequire keeps the import synchronous and lazy.
    const require = createRequire(import.meta.url);
    const Ajv = require('ajv') as typeof import('ajv').default;
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    validate = ajv.compile(schemaFor(kind));
    validators.set(kind, validate);
  }
  return validate;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

function valueAt(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the number ${value} (not a whole number)`;
  return `${typeof value} ${String(value)}`;
}

const TYPE_NAMES: Record<string, string> = { string: 'a string', integer: 'a whole number', array: 'a list', object: 'an object' };

/** Fields that exist on the sibling kind: say where they belong. */
const MISPLACED: Readonly<Record<string, string>> = {
  validationActions: 'only ValidatingAdmissionPolicyBinding has validationActions',
  reinvocationPolicy: 'only MutatingAdmissionPolicy has reinvocationPolicy',
  mutations: 'only MutatingAdmissionPolicy has mutations',
  validations: 'only ValidatingAdmissionPolicy has validations',
  auditAnnotations: 'only ValidatingAdmissionPolicy has auditAnnotations',
};

function toProblem(error: ErrorObject, root: unknown): SchemaProblem {
  const path = pointerToPath(error.instancePath);
  const where = formatFieldPath(path) || 'the object';
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      const field = [...path, name];
      const hint = path.length === 1 && path[0] === 'spec' ? MISPLACED[name] : undefined;
      const note = hint ? ` (${hint})` : '';
      return { path: field, part: 'key', blocking: false, message: `unknown field "${formatFieldPath(field)}"${note}: the API server rejects it (kubectl validates strictly) or drops it` };
    }
    case 'type': {
      const expected = String(error.params.type).split(',').filter((t) => t !== 'null');
      const names = expected.map((t) => TYPE_NAMES[t] ?? t).join(' or ');
      const actual = valueAt(root, path);
      // YAML 1.1 (what kubectl reads) turns unquoted yes/no/on/off and numbers into non-strings.
      const hint = expected.includes('string') && (typeof actual === 'boolean' || typeof actual === 'number') ? ': quote the value' : '';
      return { path, part: 'pair', blocking: true, message: `${where} must be ${names}, but is ${describe(actual)}${hint}` };
    }
    default:
      return { path, part: 'pair', blocking: true, message: `${where} ${error.message ?? 'is malformed'}` };
  }
}

export function checkPolicySchema(kind: PolicyKind, written: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const apiVersion = typeof written === 'object' && written !== null ? (written as Record<string, unknown>).apiVersion : undefined;
  const version = typeof apiVersion === 'string' && apiVersion.startsWith(`${ADMISSION_GROUP}/`) ? apiVersion.slice(ADMISSION_GROUP.length + 1) : undefined;
  if (version !== undefined && !(POLICY_API_VERSIONS as readonly string[]).includes(version)) {
    // No Kubernetes version ever served the policy kinds there.
    problems.push({ path: ['apiVersion'], part: 'pair', blocking: true, message: `no API serves ${kind} in ${String(apiVersion)}: use ${ADMISSION_GROUP}/v1` });
  }
  const validate = validatorFor(kind);
  if (validate(written)) return problems;
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = toProblem(error, written);
    const key = `${formatFieldPath(problem.path)}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
