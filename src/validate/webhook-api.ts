/**
 * The API server's validation of webhook configurations on create
 * (pkg/apis/admissionregistration/validation/validation.go, facts §2): every check, in the
 * order the API server runs them, on the defaulted object. The checks that a dedicated rule
 * reports with more context (sideEffects → `side-effects`, timeoutSeconds →
 * `timeout-out-of-range`) are left to those rules, so one problem is reported once.
 */
import type { FieldPath } from '../field-path.js';
import { dns1035LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../kube/names.js';
import type { MatchCondition, ObjectMeta, RuleWithOperations, Webhook, WebhookConfiguration } from '../model/types.js';
import { admissionCompile, matchConditionCompileError } from '../cel/compile.js';
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../kube/version.js';
import { validateWebhookService, validateWebhookUrl } from './client-config.js';
import { duplicate, invalid, notSupported, required, tooLong, tooMany, type FieldError } from './field-error.js';
import { validateLabelSelector } from './label-selector.js';
import { BoundedCache } from '../cache.js';

const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
const SCOPES = ['Cluster', 'Namespaced', '*'];
const FAILURE_POLICIES = ['Ignore', 'Fail'];
const MATCH_POLICIES = ['Exact', 'Equivalent'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_MATCH_CONDITIONS = 64;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/**
 * apimachinery's maskTrailingDash, quirk included: a trailing '-' (the generated suffix follows
 * it) is allowed by dropping the LAST TWO characters and appending 'a', so `a..-` passes as
 * `a.a`. (Go panics on a lone "-"; we leave it as is, which fails the check.)
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** ValidateObjectMeta for a cluster-scoped object whose name must be a DNS subdomain. */
export function validateObjectMeta(meta: ObjectMeta | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const at: FieldPath = ['metadata'];
  const name = meta?.name ?? '';
  const generateName = meta?.generateName ?? '';
  if (generateName !== '') {
    for (const message of dns1123SubdomainErrors(maskTrailingDash(generateName))) errors.push(invalid([...at, 'generateName'], generateName, message));
  }
  if (name === '') {
    if (generateName === '') errors.push(required([...at, 'name'], 'name or generateName is required'));
  } else {
    for (const message of dns1123SubdomainErrors(name)) errors.push(invalid([...at, 'name'], name, message));
  }
  for (const [key, value] of Object.entries(meta?.labels ?? {})) {
    const locateAt = [...at, 'labels', key];
    for (const message of qualifiedNameErrors(key)) errors.push({ ...invalid([...at, 'labels'], key, message), locateAt });
    for (const message of labelValueErrors(value ?? '')) errors.push({ ...invalid([...at, 'labels'], value ?? '', message), locateAt });
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(meta?.annotations ?? {})) {
    for (const message of qualifiedNameErrors(key.toLowerCase())) errors.push({ ...invalid([...at, 'annotations'], key, message), locateAt: [...at, 'annotations', key] });
    annotationBytes += Buffer.byteLength(key) + Buffer.byteLength(value ?? '');
  }
  if (annotationBytes > MAX_ANNOTATIONS_BYTES) {
    errors.push(tooLong([...at, 'annotations'], MAX_ANNOTATIONS_BYTES));
  }
  return errors;
}

/**
 * utilvalidation.IsFullyQualifiedName. Unlike IsFullyQualifiedDomainName it does not strip a
 * trailing '.', so `webhook.example.com.` is rejected.
 */
function validateWebhookName(at: FieldPath, name: string): FieldError[] {
  if (name.length === 0) return [required(at)];
  const subdomain = dns1123SubdomainErrors(name);
  if (subdomain.length > 0) return [invalid(at, name, subdomain.join(','))];
  if (name.split('.').length < 3) return [invalid(at, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateAdmissionReviewVersions(at: FieldPath, versions: readonly string[] | undefined): FieldError[] {
  if (versions === undefined || versions.length === 0) return [required(at, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((version, i) => {
    const v = version ?? '';
    if (seen.has(v)) {
      errors.push(invalid([...at, i], v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const message of dns1035LabelErrors(v)) errors.push(invalid([...at, i], v, message));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (!hasAccepted) errors.push(invalid(at, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errors;
}

/**
 * validateResources: wildcard combinations are checked in list order, so `["pods/*",
 * "pods/log"]` fails while `["pods/log", "pods/*"]` passes, and the "plain resource" flag is
 * overwritten by each entry without a '/', so only the last such entry decides.
 */
function validateResources(at: FieldPath, resources: readonly string[] | undefined): FieldError[] {
  const list = resources ?? [];
  const errors: FieldError[] = [];
  if (list.length === 0) errors.push(required(at));
  const resourcesWithWildcardSub = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  list.forEach((entry, i) => {
    const resSub = entry ?? '';
    if (resSub === '') {
      errors.push(required([...at, i]));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resourcesWithWildcardSub.has(res)) errors.push(invalid([...at, i], resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub)) errors.push(invalid([...at, i], resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resourcesWithWildcardSub.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (list.length > 1 && hasDoubleWildcard) errors.push(invalid(at, list, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errors.push(invalid(at, list, "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

/** validateRuleWithOperations (webhook rules and admission policies' resource rules). */
export function validateRule(at: FieldPath, rule: RuleWithOperations): FieldError[] {
  const errors: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errors.push(required([...at, 'operations']));
  if (operations.length > 1 && operations.includes('*')) errors.push(invalid([...at, 'operations'], operations, "if '*' is present, must not specify other operations"));
  operations.forEach((operation, i) => {
    if (!OPERATIONS.includes(operation ?? '')) errors.push(notSupported([...at, 'operations', i], operation ?? '', OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errors.push(required([...at, 'apiGroups']));
  if (groups.length > 1 && groups.includes('*')) errors.push(invalid([...at, 'apiGroups'], groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errors.push(required([...at, 'apiVersions']));
  if (versions.length > 1 && versions.includes('*')) errors.push(invalid([...at, 'apiVersions'], versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((version, i) => {
    if (!version) errors.push(required([...at, 'apiVersions', i]));
  });
  errors.push(...validateResources([...at, 'resources'], rule.resources));
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(rule.scope)) errors.push(notSupported([...at, 'scope'], rule.scope, SCOPES));
  return errors;
}

/**
 * matchConditionCompileError by expression (syntax, variables and literal results, whatever the
 * version), for a webhook's matchConditions: webhooks share their conditions.
 */
const compiled = new BoundedCache<string, string | undefined>();

export function rememberedCompileError(expression: string): string | undefined {
  return compiled.get(expression, matchConditionCompileError);
}

/**
 * The compile check of a webhook matchCondition on a server of `kubeVersion`: the untyped check,
 * then the type checker with the environment of that version (src/cel/compile.ts admissionCompile).
 */
export function webhookMatchConditionCompileError(expression: string, kubeVersion: KubeVersion): string | undefined {
  return admissionCompile(expression, { kind: 'webhook.matchCondition', kubeVersion }).error;
}

/**
 * validateMatchConditions, shared by webhooks and admission policies; `compileError` is the CEL
 * check of the environment the conditions run in.
 */
export function validateMatchConditions(
  at: FieldPath,
  conditions: readonly MatchCondition[] | undefined,
  compileError: (expression: string) => string | undefined = (expression) => webhookMatchConditionCompileError(expression, DEFAULT_KUBE_VERSION),
): FieldError[] {
  const list = conditions ?? [];
  const errors: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errors.push(tooMany(at, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((condition, i) => {
    const path = [...at, i];
    const name = condition?.name ?? '';
    const expression = (condition?.expression ?? '').trim();
    if (expression.length === 0) {
      errors.push(required([...path, 'expression']));
    } else {
      const error = compileError(expression);
      if (error !== undefined) errors.push(invalid([...path, 'expression'], expression, error));
    }
    if (name.length === 0) errors.push(required([...path, 'name']));
    else for (const message of qualifiedNameErrors(name)) errors.push(invalid([...path, 'name'], name, message));
    // After the condition's own errors, and only for non-empty names (validateMatchConditions).
    if (name.length > 0) {
      if (names.has(name)) errors.push(duplicate([...path, 'name'], name));
      else names.add(name);
    }
  });
  return errors;
}

function validateWebhook(at: FieldPath, webhook: Webhook, mutating: boolean, kubeVersion: KubeVersion): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...validateWebhookName([...at, 'name'], webhook.name ?? ''));
  webhook.rules?.forEach((rule, j) => {
    if (rule !== null) errors.push(...validateRule([...at, 'rules', j], rule));
  });
  if (webhook.failurePolicy != null && !FAILURE_POLICIES.includes(webhook.failurePolicy)) errors.push(notSupported([...at, 'failurePolicy'], webhook.failurePolicy, FAILURE_POLICIES));
  if (webhook.matchPolicy != null && !MATCH_POLICIES.includes(webhook.matchPolicy)) errors.push(notSupported([...at, 'matchPolicy'], webhook.matchPolicy, MATCH_POLICIES));
  if (webhook.namespaceSelector != null) errors.push(...validateLabelSelector(webhook.namespaceSelector, [...at, 'namespaceSelector']));
  if (webhook.objectSelector != null) errors.push(...validateLabelSelector(webhook.objectSelector, [...at, 'objectSelector']));
  if (mutating && webhook.reinvocationPolicy != null && !REINVOCATION_POLICIES.includes(webhook.reinvocationPolicy)) {
    errors.push(notSupported([...at, 'reinvocationPolicy'], webhook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const clientConfig = webhook.clientConfig ?? {};
  const hasUrl = clientConfig.url != null;
  const hasService = clientConfig.service != null;
  if (hasUrl === hasService) errors.push(required([...at, 'clientConfig'], 'exactly one of url or service is required'));
  else if (hasUrl) errors.push(...validateWebhookUrl([...at, 'clientConfig', 'url'], clientConfig.url!));
  else errors.push(...validateWebhookService([...at, 'clientConfig', 'service'], clientConfig.service!));
  errors.push(...validateMatchConditions([...at, 'matchConditions'], webhook.matchConditions, (expression) => webhookMatchConditionCompileError(expression, kubeVersion)));
  return errors;
}

/** Every error the API server of `kubeVersion` (default: the CLI's default version) reports when the configuration is created. */
export function validateWebhookConfiguration(configuration: WebhookConfiguration, kubeVersion: KubeVersion = DEFAULT_KUBE_VERSION): FieldError[] {
  const errors = validateObjectMeta(configuration.metadata);
  const mutating = configuration.kind === 'MutatingWebhookConfiguration';
  const names = new Set<string>();
  configuration.webhooks?.forEach((webhook, i) => {
    if (webhook === null) return;
    const at: FieldPath = ['webhooks', i];
    errors.push(...validateWebhook(at, webhook, mutating, kubeVersion));
    errors.push(...validateAdmissionReviewVersions([...at, 'admissionReviewVersions'], webhook.admissionReviewVersions));
    const name = webhook.name ?? '';
    if (name.length > 0) {
      if (names.has(name)) errors.push(duplicate([...at, 'name'], name));
      else names.add(name);
    }
  });
  return errors;
}
