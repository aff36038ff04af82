/**
 * The admission expression kinds, their variables and the result types the API server requires
 * (k8s.io/apiserver pkg/admission/plugin/cel/compile.go createEnvForOpts and the accessors'
 * ReturnTypes(): webhook/matchconditions/matcher.go, policy/validating/interface.go and
 * message.go, policy/mutating/patch/json_patch.go and smd.go), with the object types the
 * request, namespace and mutation variables are declared with.
 */
import { T, type CelType } from './types.js';

export type ExpressionKind =
  | 'webhook.matchCondition'
  | 'validating.validation'
  | 'validating.messageExpression'
  | 'validating.variable'
  | 'validating.auditAnnotation'
  | 'validating.matchCondition'
  | 'mutating.applyConfiguration'
  | 'mutating.jsonPatch'
  | 'mutating.variable'
  | 'mutating.matchCondition';

export const EXPRESSION_KINDS: readonly ExpressionKind[] = [
  'webhook.matchCondition',
  'validating.validation',
  'validating.messageExpression',
  'validating.variable',
  'validating.auditAnnotation',
  'validating.matchCondition',
  'mutating.applyConfiguration',
  'mutating.jsonPatch',
  'mutating.variable',
  'mutating.matchCondition',
];

/**
 * What the result must be: one of these types exactly (`IsExactType`), or anything when the list
 * holds `any` (variables). The API server's message prints them with Type.String().
 */
export function resultTypes(kind: ExpressionKind): readonly CelType[] {
  switch (kind) {
    case 'webhook.matchCondition':
    case 'validating.validation':
    case 'validating.matchCondition':
    case 'mutating.matchCondition':
      return [T.bool];
    case 'validating.messageExpression':
      return [T.string];
    case 'validating.auditAnnotation':
      return [T.string, T.null];
    case 'validating.variable':
    case 'mutating.variable':
      return [T.any, T.dyn];
    case 'mutating.applyConfiguration':
      return [T.struct('Object')];
    case 'mutating.jsonPatch':
      return [T.list(T.struct('JSONPatch'))];
  }
}

/** Mutation expressions compile with HasPatchTypes: Object{…}, JSONPatch{…} and jsonpatch.escapeKey. */
export function hasPatchTypes(kind: ExpressionKind): boolean {
  return kind === 'mutating.applyConfiguration' || kind === 'mutating.jsonPatch';
}

/**
 * Whether `variables` is declared. Validation of match conditions uses the stateless compiler
 * (no composition) for webhooks and policies alike (pkg/apis/admissionregistration/validation
 * validateMatchConditionsExpression); the other policy expressions use the composited one.
 */
export function hasComposition(kind: ExpressionKind): boolean {
  return !kind.endsWith('matchCondition');
}

/** A struct type's fields, or 'dynamic' when every field name is accepted as dyn (Object.*). */
export type StructFields = Readonly<Record<string, CelType>> | 'dynamic' | 'none';

const gvk = T.struct('kubernetes.GroupVersionKind');
const gvr = T.struct('kubernetes.GroupVersionResource');
const userInfo = T.struct('kubernetes.UserInfo');

/** BuildRequestType and BuildNamespaceType (compile.go). */
export const ADMISSION_STRUCTS: Readonly<Record<string, StructFields>> = {
  'kubernetes.GroupVersionKind': { group: T.string, version: T.string, kind: T.string },
  'kubernetes.GroupVersionResource': { group: T.string, version: T.string, resource: T.string },
  'kubernetes.UserInfo': { username: T.string, uid: T.string, groups: T.list(T.string), extra: T.map(T.string, T.list(T.string)) },
  'kubernetes.AdmissionRequest': {
    kind: gvk,
    resource: gvr,
    subResource: T.string,
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: T.string,
    name: T.string,
    namespace: T.string,
    operation: T.string,
    userInfo,
    dryRun: T.bool,
    options: T.dyn,
  },
  'kubernetes.NamespaceSpec': { finalizers: T.list(T.string) },
  'kubernetes.NamespaceCondition': { status: T.string, type: T.string, lastTransitionTime: T.timestamp, message: T.string, reason: T.string },
  'kubernetes.NamespaceStatus': { conditions: T.list(T.struct('kubernetes.NamespaceCondition')), phase: T.string },
  'kubernetes.NamespaceMetadata': {
    name: T.string,
    generateName: T.string,
    namespace: T.string,
    labels: T.map(T.string, T.string),
    annotations: T.map(T.string, T.string),
    UID: T.string,
    creationTimestamp: T.timestamp,
    deletionGracePeriodSeconds: T.int,
    deletionTimestamp: T.timestamp,
    generation: T.int,
    resourceVersion: T.string,
    finalizers: T.list(T.string),
  },
  'kubernetes.Namespace': {
    metadata: T.struct('kubernetes.NamespaceMetadata'),
    spec: T.struct('kubernetes.NamespaceSpec'),
    status: T.struct('kubernetes.NamespaceStatus'),
  },
};

/**
 * The mutation types (pkg/cel/mutation): JSONPatch has op, path and from (string) and value
 * (dyn); any other field name resolves with no type (JSONPatchType.Field returns found with a nil
 * type). Object and Object.<path> accept every field as dyn (dynamic.ObjectType).
 */
export const JSON_PATCH_FIELDS: Readonly<Record<string, CelType>> = { op: T.string, path: T.string, from: T.string, value: T.dyn };

export interface AdmissionVariables {
  /** `params` is declared (a policy with paramKind; for webhooks never). */
  readonly params?: boolean;
  /**
   * The policy's variables composed so far, with the types their expressions compiled to
   * (`variables.<name>`); see `composedVariableType`. Undefined without variable composition
   * (`variables` is then undeclared); ignored for match conditions.
   */
  readonly variables?: Readonly<Record<string, CelType>>;
}

/**
 * The variables of an admission expression (createEnvForOpts): HasAuthorizer is true everywhere
 * but in messageExpression (pkg/apis/admissionregistration/validation validateValidation and the
 * policy plugin compile it with HasAuthorizer: false).
 */
export function admissionVariables(kind: ExpressionKind, options: AdmissionVariables): Map<string, CelType> {
  const out = new Map<string, CelType>([
    ['object', T.dyn],
    ['oldObject', T.dyn],
    ['namespaceObject', T.struct('kubernetes.Namespace')],
    ['request', T.struct('kubernetes.AdmissionRequest')],
  ]);
  if (kind !== 'validating.messageExpression') {
    out.set('authorizer', T.struct('kubernetes.authorization.Authorizer'));
    out.set('authorizer.requestResource', T.struct('kubernetes.authorization.ResourceCheck'));
  }
  if (options.params) out.set('params', T.dyn);
  // Without composition (a ValidatingAdmissionPolicy without spec.variables: the stateless
  // compiler) `variables` is not declared at all.
  if (hasComposition(kind) && options.variables !== undefined) out.set('variables', T.struct('kubernetes.variables'));
  return out;
}

/**
 * The type a composed variable is declared with (composition.go convertCelTypeToDeclType):
 * primitives, durations and timestamps keep their type, lists and maps keep theirs recursively,
 * everything else (optional values, Quantity, IP…) becomes dyn.
 */
export function composedVariableType(t: CelType | undefined): CelType {
  if (t === undefined) return T.dyn;
  switch (t.kind) {
    case 'primitive':
    case 'null':
    case 'duration':
    case 'timestamp':
    case 'any':
      return t;
    case 'list':
      return T.list(composedVariableType(t.elem));
    case 'map':
      return T.map(composedVariableType(t.key), composedVariableType(t.value));
    default:
      return T.dyn;
  }
}
