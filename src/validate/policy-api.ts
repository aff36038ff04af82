/**
 * The API server's validation of admission policies and bindings on create
 * (pkg/apis/admissionregistration/validation/validation.go: validateValidatingAdmissionPolicy,
 * validateMutatingAdmissionPolicy and their bindings), in the order the API server runs the
 * checks, on the defaulted object, with its field paths and messages.
 *
 * Where the API server reports one problem twice (validations and auditAnnotations both
 * required; paramRef name and selector both forbidden; an unknown operation of a mutating policy
 * rejected by the general and by the mutating operation check) it is reported once, at the
 * first path.
 *
 * CEL expressions are compiled with the variables each one may use (plugin/cel compile.go
 * createEnvForOpts, composition.go): object, oldObject, request and namespaceObject always;
 * params only when spec.paramKind is set; authorizer except in messageExpression; variables
 * only with variable composition, that is in a ValidatingAdmissionPolicy with spec.variables
 * (its validations, messageExpressions, auditAnnotations and later variables) and in every
 * expression of a MutatingAdmissionPolicy but its matchConditions. `variables.<name>` must name a
 * variable compiled before (for a variable: an earlier one), and has the type that variable's
 * expression compiled to (dyn when it failed). From 1.28 each expression is type-checked in the
 * environment of the target version (src/cel/compile.ts admissionCompile), with the result type
 * of its field (bool, string, string or null, Object, list(JSONPatch)).
 */
import type { FieldPath } from '../field-path.js';
import { dns1035LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from '../kube/names.js';
import type {
  AdmissionPolicy,
  AdmissionPolicyBinding,
  AuditAnnotation,
  MatchCondition,
  MatchResources,
  Mutation,
  NamedRuleWithOperations,
  ParamKind,
  ParamRef,
  PolicyKind,
  Validation,
  Variable,
} from '../model/types.js';
import { admissionCompile, type AdmissionCompileResult } from '../cel/compile.js';
import type { CelType, ExpressionKind } from '../cel/check/index.js';
import { loadCelSync } from '../cel/library.js';
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../kube/version.js';
import { duplicate, forbidden, invalid, notSupported, required, type FieldError } from './field-error.js';
import { validateLabelSelector } from './label-selector.js';
import { validateMatchConditions as validateWebhookMatchConditions, validateObjectMeta, validateRule } from './webhook-api.js';

const FAILURE_POLICIES = ['Ignore', 'Fail'];
const MATCH_POLICIES = ['Exact', 'Equivalent'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];
const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
/** MutatingAdmissionPolicy does not support DELETE. */
const MUTATING_OPERATIONS = ['*', 'CREATE', 'UPDATE', 'CONNECT'];
const VALIDATION_ACTIONS = ['Deny', 'Warn', 'Audit'];
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
/** Not sorted: validateParamRef lists them in this order. */
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES = 5 * 1024;

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** content.IsPathSegmentName (path.ValidatePathSegmentName before 1.36): same messages. */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((illegal) => name.includes(illegal)).map((illegal) => `may not contain '${illegal}'`);
}

export function isCelIdentifier(name: string): boolean {
  return CEL_IDENTIFIER.test(name) && !CEL_RESERVED.has(name);
}

/** field.NotSupported with the supported values in the order given (the API server does not always sort them). */
function notSupportedInOrder(path: FieldPath, value: unknown, supported: readonly string[]): FieldError {
  return { type: 'NotSupported', path, value, detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` };
}

const isBlank = (text: string | undefined | null): boolean => (text ?? '').trim() === '';

/**
 * What a policy's expressions may use; `composed` is undefined without variable composition,
 * else the variables compiled so far with the types they are declared with (undefined where the
 * typed check is not sure of it).
 */
interface Environment {
  readonly celReady: boolean;
  readonly hasParams: boolean;
  readonly mutating: boolean;
  readonly kubeVersion: KubeVersion;
  composed: Map<string, CelType | undefined> | undefined;
}

const NOT_CHECKED: AdmissionCompileResult = { error: undefined, type: undefined };

/**
 * The compile check of one policy expression of `kind` (src/cel/compile.ts admissionCompile);
 * the answer depends on the expression and the environment only, and is cached there.
 */
function compile(env: Environment, expression: string, kind: ExpressionKind): AdmissionCompileResult {
  if (!env.celReady) return NOT_CHECKED;
  const composition = !kind.endsWith('matchCondition') && env.composed !== undefined;
  return admissionCompile(expression, {
    kind,
    kubeVersion: env.kubeVersion,
    params: env.hasParams,
    ...(composition ? { composed: new Map(env.composed) } : {}),
  });
}

/** validateRuleWithOperations, as for webhook rules; resourceNames are checked apart. */
function validateRuleWithOperations(at: FieldPath, rule: NamedRuleWithOperations): FieldError[] {
  const { resourceNames: _resourceNames, ...ruleWithOperations } = rule;
  return validateRule(at, ruleWithOperations);
}

function validateNamedRuleWithOperations(at: FieldPath, rule: NamedRuleWithOperations): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (rule.resourceNames ?? []).forEach((value, i) => {
    const name = value ?? '';
    for (const message of pathSegmentNameErrors(name)) errors.push(invalid([...at, 'resourceNames', i], name, message));
    if (names.has(name)) errors.push(duplicate([...at, 'resourceNames', i], name));
    else names.add(name);
  });
  errors.push(...validateRuleWithOperations(at, rule));
  return errors;
}

function validateMatchResources(at: FieldPath, match: MatchResources | undefined | null): FieldError[] {
  if (match == null) return [];
  const errors: FieldError[] = [];
  if (match.matchPolicy == null) errors.push(required([...at, 'matchPolicy']));
  else if (!MATCH_POLICIES.includes(match.matchPolicy)) errors.push(notSupported([...at, 'matchPolicy'], match.matchPolicy, MATCH_POLICIES));
  // Strict selector validation: these types came after kubernetes#99139 was fixed.
  if (match.namespaceSelector == null) errors.push(required([...at, 'namespaceSelector']));
  else errors.push(...validateLabelSelector(match.namespaceSelector, [...at, 'namespaceSelector']));
  if (match.objectSelector == null) errors.push(required([...at, 'objectSelector']));
  else errors.push(...validateLabelSelector(match.objectSelector, [...at, 'objectSelector']));
  for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
    // A null item decodes to an empty rule.
    match[list]?.forEach((rule, i) => errors.push(...validateNamedRuleWithOperations([...at, list, i], rule ?? {})));
  }
  return errors;
}

/**
 * The mutating policies' extra operation check. The API server reports it without the rule and
 * operation indexes; the finding points at the operation. An operation that is not an admission
 * operation at all was already reported by the general check.
 */
function validateMutatingOperations(at: FieldPath, match: MatchResources | undefined | null): FieldError[] {
  const errors: FieldError[] = [];
  match?.resourceRules?.forEach((rule, i) => {
    rule?.operations?.forEach((operation, k) => {
      const op = operation ?? '';
      if (MUTATING_OPERATIONS.includes(op) || !OPERATIONS.includes(op)) return;
      errors.push({ ...notSupported([...at, 'resourceRules', 'operations'], op, MUTATING_OPERATIONS), locateAt: [...at, 'resourceRules', i, 'operations', k] });
    });
  });
  return errors;
}

function parseGroupVersion(apiVersion: string): { group: string; version: string } | { error: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion };
  if (slashes === 1) {
    const i = apiVersion.indexOf('/');
    return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
  }
  return { error: `unexpected GroupVersion string: ${apiVersion}` };
}

function validateParamKind(at: FieldPath, paramKind: ParamKind): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = paramKind.apiVersion ?? '';
  if (apiVersion === '') {
    errors.push(required([...at, 'apiVersion']));
  } else {
    const gv = parseGroupVersion(apiVersion);
    if ('error' in gv) {
      errors.push(invalid([...at, 'apiVersion'], apiVersion, gv.error));
    } else {
      // As the APIService group and version fields are validated.
      if (gv.group !== '') {
        const groupErrors = dns1123SubdomainErrors(gv.group);
        if (groupErrors.length > 0) errors.push(invalid([...at, 'apiVersion'], gv.group, groupErrors.join(',')));
      }
      if (gv.version === '') {
        errors.push(invalid([...at, 'apiVersion'], apiVersion, 'version must be specified'));
      } else {
        const versionErrors = dns1035LabelErrors(gv.version);
        if (versionErrors.length > 0) errors.push(invalid([...at, 'apiVersion'], gv.version, versionErrors.join(',')));
      }
    }
  }
  const kind = paramKind.kind ?? '';
  if (kind === '') {
    errors.push(required([...at, 'kind']));
  } else {
    const kindErrors = dns1035LabelErrors(kind.toLowerCase());
    if (kindErrors.length > 0) errors.push(invalid([...at, 'kind'], kind, `may have mixed case, but should otherwise match: ${kindErrors.join(',')}`));
  }
  return errors;
}

function validateMatchConditions(at: FieldPath, conditions: readonly MatchCondition[] | undefined, env: Environment): FieldError[] {
  // Compiled without variable composition: matchConditions run before the variables.
  return validateWebhookMatchConditions(at, conditions, (expression) => compile(env, expression, env.mutating ? 'mutating.matchCondition' : 'validating.matchCondition').error);
}

function validateVariable(at: FieldPath, variable: Variable, env: Environment): FieldError[] {
  const errors: FieldError[] = [];
  const name = variable.name ?? '';
  if (isBlank(name)) errors.push(required([...at, 'name'], 'name is not specified'));
  else if (!isCelIdentifier(name)) errors.push(invalid([...at, 'name'], name, 'name is not a valid CEL identifier'));
  const expression = variable.expression ?? '';
  if (isBlank(expression)) {
    errors.push(required([...at, 'expression'], 'expression is not specified'));
  } else {
    const { error, type } = compile(env, expression, env.mutating ? 'mutating.variable' : 'validating.variable');
    if (error !== undefined) errors.push(invalid([...at, 'expression'], expression, error));
    // CompileAndStoreVariable: later expressions may select it, even when it failed to compile
    // (then as dyn), with the type its expression compiled to.
    env.composed?.set(name, type);
  }
  return errors;
}

function validateValidation(at: FieldPath, validation: Validation, env: Environment): FieldError[] {
  const errors: FieldError[] = [];
  const expression = validation.expression ?? '';
  if (isBlank(expression)) {
    errors.push(required([...at, 'expression'], 'expression is not specified'));
  } else {
    // The expression as written, not trimmed, so that columns match.
    const { error } = compile(env, expression, 'validating.validation');
    if (error !== undefined) errors.push(invalid([...at, 'expression'], expression, error));
  }
  const messageExpression = validation.messageExpression ?? '';
  if (messageExpression.length > 0 && isBlank(messageExpression)) {
    errors.push(invalid([...at, 'messageExpression'], messageExpression, 'must be non-empty if specified'));
  } else if (!isBlank(messageExpression)) {
    const { error } = compile(env, messageExpression, 'validating.messageExpression');
    if (error !== undefined) errors.push(invalid([...at, 'messageExpression'], messageExpression, error));
  }
  const message = validation.message ?? '';
  if (message.length > 0 && isBlank(message)) errors.push(invalid([...at, 'message'], message, 'must be non-empty if specified'));
  else if (/[\n\r]+/.test(message.trim())) errors.push(invalid([...at, 'message'], message, 'must not contain line breaks'));
  if (validation.reason != null && !VALIDATION_REASONS.includes(validation.reason)) errors.push(notSupported([...at, 'reason'], validation.reason, VALIDATION_REASONS));
  return errors;
}

function validateAuditAnnotation(at: FieldPath, policyName: string, annotation: AuditAnnotation, env: Environment): FieldError[] {
  const errors: FieldError[] = [];
  const key = annotation.key ?? '';
  if (policyName !== '') {
    // The key becomes "<policy name>/<key>" in the audit event.
    const combined = `${policyName}/${key}`;
    for (const message of qualifiedNameErrors(combined)) errors.push(invalid([...at, 'key'], combined, message));
  } else {
    errors.push(invalid([...at, 'key'], key, 'requires metadata.name be non-empty'));
  }
  const valueExpression = annotation.valueExpression ?? '';
  const trimmed = valueExpression.trim();
  if (trimmed === '') {
    errors.push(required([...at, 'valueExpression'], 'valueExpression is not specified'));
  } else if (Buffer.byteLength(trimmed) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES) {
    // Required (sic), as the API server reports it.
    errors.push(required([...at, 'valueExpression'], `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_BYTES} bytes in length`));
  } else {
    // Compiled trimmed; the value shown is the expression as written.
    const { error } = compile(env, trimmed, 'validating.auditAnnotation');
    if (error !== undefined) errors.push(invalid([...at, 'valueExpression'], valueExpression, error));
  }
  return errors;
}

function validatePatchExpression(at: FieldPath, expression: string | undefined, env: Environment, kind: 'mutating.applyConfiguration' | 'mutating.jsonPatch'): FieldError[] {
  const trimmed = (expression ?? '').trim();
  if (trimmed === '') return [required([...at, 'expression'])];
  const { error } = compile(env, trimmed, kind);
  return error === undefined ? [] : [invalid([...at, 'expression'], trimmed, error)];
}

function validateMutation(at: FieldPath, mutation: Mutation, env: Environment): FieldError[] {
  const errors: FieldError[] = [];
  const patchType = mutation.patchType ?? '';
  switch (patchType) {
    case '':
      errors.push(required([...at, 'patchType']));
      break;
    case 'JSONPatch':
      if (mutation.jsonPatch == null) errors.push(required([...at, 'jsonPatch'], 'must be specified when patchType is JSONPatch'));
      else errors.push(...validatePatchExpression([...at, 'jsonPatch'], mutation.jsonPatch.expression, env, 'mutating.jsonPatch'));
      if (mutation.applyConfiguration != null) errors.push(invalid([...at, 'applyConfiguration'], '{applyConfiguration}', 'must not be specified when patchType is JSONPatch'));
      break;
    case 'ApplyConfiguration':
      if (mutation.applyConfiguration == null) errors.push(required([...at, 'applyConfiguration'], 'must be specified when patchType is ApplyConfiguration'));
      else errors.push(...validatePatchExpression([...at, 'applyConfiguration'], mutation.applyConfiguration.expression, env, 'mutating.applyConfiguration'));
      if (mutation.jsonPatch != null) errors.push(invalid([...at, 'jsonPatch'], '{jsonPatch}', 'must not be specified when patchType is ApplyConfiguration'));
      break;
    default:
      errors.push(notSupported([...at, 'patchType'], patchType, PATCH_TYPES));
  }
  return errors;
}

function validatePolicySpec(policy: AdmissionPolicy, celReady: boolean, kubeVersion: KubeVersion): FieldError[] {
  const errors: FieldError[] = [];
  const spec = policy.spec ?? {};
  const at: FieldPath = ['spec'];
  const mutating = policy.kind === 'MutatingAdmissionPolicy';
  // The API server defaults failurePolicy to Fail before validating, also without a spec.
  if (spec.failurePolicy != null && !FAILURE_POLICIES.includes(spec.failurePolicy)) errors.push(notSupported([...at, 'failurePolicy'], spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind != null) errors.push(...validateParamKind([...at, 'paramKind'], spec.paramKind));
  if (spec.matchConstraints == null) {
    errors.push(required([...at, 'matchConstraints']));
  } else {
    errors.push(...validateMatchResources([...at, 'matchConstraints'], spec.matchConstraints));
    // At least one resource rule, to give the expressions type information.
    if ((spec.matchConstraints.resourceRules ?? []).length === 0) errors.push(required([...at, 'matchConstraints', 'resourceRules']));
    if (mutating) errors.push(...validateMutatingOperations([...at, 'matchConstraints'], spec.matchConstraints));
  }
  const variables = spec.variables ?? [];
  // A validating policy composes variables only when it has some; a mutating one always does.
  const env: Environment = { celReady, hasParams: spec.paramKind != null, mutating, kubeVersion, composed: mutating || variables.length > 0 ? new Map() : undefined };
  errors.push(...validateMatchConditions([...at, 'matchConditions'], spec.matchConditions, env));
  variables.forEach((variable, i) => errors.push(...validateVariable([...at, 'variables', i], variable ?? {}, env)));
  if (mutating) {
    const mutations = spec.mutations ?? [];
    if (mutations.length === 0) errors.push(required([...at, 'mutations'], 'mutations must contain at least one item'));
    else mutations.forEach((mutation, i) => errors.push(...validateMutation([...at, 'mutations', i], mutation ?? {}, env)));
    const reinvocationPolicy = spec.reinvocationPolicy ?? '';
    if (reinvocationPolicy === '') errors.push(required([...at, 'reinvocationPolicy']));
    else if (!REINVOCATION_POLICIES.includes(reinvocationPolicy)) errors.push(notSupported([...at, 'reinvocationPolicy'], reinvocationPolicy, REINVOCATION_POLICIES));
    return errors;
  }
  const validations = spec.validations ?? [];
  const auditAnnotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && auditAnnotations.length === 0) {
    // The API server repeats this error for spec.auditAnnotations; reported once.
    errors.push(required([...at, 'validations'], 'validations or auditAnnotations must contain at least one item'));
    return errors;
  }
  validations.forEach((validation, i) => errors.push(...validateValidation([...at, 'validations', i], validation ?? {}, env)));
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
    // The value is printed as the internal Go structs, which have no JSON tags.
    const value = auditAnnotations.map((a) => ({ Key: a?.key ?? '', ValueExpression: a?.valueExpression ?? '' }));
    errors.push(invalid([...at, 'auditAnnotations'], value, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  auditAnnotations.forEach((annotation, i) => {
    errors.push(...validateAuditAnnotation([...at, 'auditAnnotations', i], policy.metadata?.name ?? '', annotation ?? {}, env));
    const key = annotation?.key ?? '';
    if (keys.has(key)) errors.push(duplicate([...at, 'auditAnnotations', i, 'key'], key));
    keys.add(key);
  });
  return errors;
}

function validateParamRef(at: FieldPath, paramRef: ParamRef | undefined | null, apiVersion: string): FieldError[] {
  if (paramRef == null) return [];
  const errors: FieldError[] = [];
  const name = paramRef.name ?? '';
  if (name !== '') {
    for (const message of pathSegmentNameErrors(name)) errors.push(invalid([...at, 'name'], name, message));
    // The API server also reports this at paramRef.selector; reported once.
    if (paramRef.selector != null) errors.push(forbidden([...at, 'name'], 'name and selector are mutually exclusive'));
  }
  if (paramRef.selector != null) errors.push(...validateLabelSelector(paramRef.selector, [...at, 'selector']));
  if (name === '' && paramRef.selector == null) errors.push(required(at, 'one of name or selector must be specified'));
  // v1alpha1 defaults parameterNotFoundAction to Deny; v1beta1 and v1 require it.
  const action = paramRef.parameterNotFoundAction ?? (apiVersion.endsWith('/v1alpha1') ? 'Deny' : '');
  if (action === '') errors.push(required([...at, 'parameterNotFoundAction']));
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) errors.push(notSupportedInOrder([...at, 'parameterNotFoundAction'], action, PARAMETER_NOT_FOUND_ACTIONS));
  return errors;
}

function validateValidationActions(at: FieldPath, actions: readonly string[] | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const list = actions ?? [];
  list.forEach((value, i) => {
    const action = value ?? '';
    if (!VALIDATION_ACTIONS.includes(action)) errors.push(notSupported([...at, i], action, VALIDATION_ACTIONS));
    if (seen.has(action)) errors.push(duplicate([...at, i], action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errors.push(invalid(at, list, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errors.push(required(at, 'at least one validation action is required'));
  return errors;
}

function validateBindingSpec(binding: AdmissionPolicyBinding): FieldError[] {
  const errors: FieldError[] = [];
  const spec = binding.spec ?? {};
  const at: FieldPath = ['spec'];
  const policyName = spec.policyName ?? '';
  if (policyName === '') errors.push(required([...at, 'policyName']));
  else for (const message of dns1123SubdomainErrors(policyName)) errors.push(invalid([...at, 'policyName'], policyName, message));
  errors.push(...validateParamRef([...at, 'paramRef'], spec.paramRef, binding.apiVersion));
  // The path is spec.matchResources (the early v1alpha1 draft's typo "matchResouces" is long gone).
  errors.push(...validateMatchResources([...at, 'matchResources'], spec.matchResources));
  if (binding.kind === 'ValidatingAdmissionPolicyBinding') errors.push(...validateValidationActions([...at, 'validationActions'], spec.validationActions));
  else errors.push(...validateMutatingOperations([...at, 'matchResources'], spec.matchResources));
  return errors;
}

/**
 * Every error the API server of `kubeVersion` (default: the CLI's default version) reports when
 * the (defaulted) policy or binding is created. CEL expressions are checked only when the CEL
 * library can be loaded.
 */
export function validateAdmissionPolicyObject(kind: PolicyKind, object: AdmissionPolicy | AdmissionPolicyBinding, kubeVersion: KubeVersion = DEFAULT_KUBE_VERSION): FieldError[] {
  const errors = validateObjectMeta(object.metadata);
  if (kind === 'ValidatingAdmissionPolicy' || kind === 'MutatingAdmissionPolicy') {
    errors.push(...validatePolicySpec(object as AdmissionPolicy, loadCelSync(), kubeVersion));
  } else {
    errors.push(...validateBindingSpec(object as AdmissionPolicyBinding));
  }
  return errors;
}
