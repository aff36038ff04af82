/**
 * Would a webhook's matchConditions let the system's own writes in kube-system through?
 * The conditions are evaluated (facts §5 step 5) for requests as the kubelet, the scheduler,
 * the controller manager's service accounts and the API server itself make them.
 *
 * Only what is known of those requests is given to CEL: the operation, namespace, group,
 * resource and subresource, the requester's name and groups, and the object's namespace. The
 * objects' other fields (their labels, spec, name) are not known: a read of one errors, and CEL's
 * `&&` and `||` absorb the error only where the known part decides. The `authorizer` is known for
 * members of system:masters alone (src/cel/authorizer.ts). A condition whose answer could come
 * from an unknown part (a presence test or an optional read of it, the whole object or map) is
 * not evaluated. Such a condition, an unknown `authorizer` call, or one over budget is "unknown": the
 * risk rules count it as "may be called", never as "skipped" (a system Pod's real labels and spec
 * are not the empty ones a made-up object would have).
 */
import type { BuiltinMatch } from '../kube/kube-system-resources.js';
import type { MatchCondition } from '../model/types.js';
import { budget, celMeterOf, RUNTIME_COST_BUDGET_MATCH_CONDITIONS, type Meter } from '../cel/budget.js';
import { evaluateCondition, evaluateValue } from '../cel/evaluate.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { parseExpression } from '../cel/check/index.js';
import { children, type Expr } from '../cel/check/ast.js';
import { DEFAULT_KUBE_VERSION } from '../kube/version.js';
import { PRIVILEGED_GROUP, privilegedAuthorizer } from '../cel/authorizer.js';
import { withForeignLabelGates } from './foreign-label-gates.js';

export interface Requester {
  readonly username: string;
  readonly groups: readonly string[];
}

export const SYSTEM_REQUESTERS: readonly Requester[] = [
  { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] },
  { username: 'system:kube-scheduler', groups: ['system:authenticated'] },
  { username: 'system:kube-controller-manager', groups: ['system:authenticated'] },
  {
    username: 'system:serviceaccount:kube-system:replicaset-controller',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  },
  { username: 'system:apiserver', groups: ['system:authenticated', PRIVILEGED_GROUP] },
];

/**
 * Who of SYSTEM_REQUESTERS writes a group's resources in kube-system. Roles and RoleBindings
 * there are the RBAC bootstrap policy, which kube-apiserver's `rbac/bootstrap-roles` post-start
 * hook reconciles over its loopback client (plugin/pkg/auth/authorizer/rbac/bootstrappolicy,
 * pkg/registry/rbac/rest/storage_rbac.go); no kubelet, scheduler or controller writes them.
 * Every other group: all of them.
 */
export function systemWritersOf(group: string): readonly Requester[] {
  return group === 'rbac.authorization.k8s.io' ? API_SERVER_ONLY : SYSTEM_REQUESTERS;
}

const API_SERVER_ONLY: readonly Requester[] = SYSTEM_REQUESTERS.filter((requester) => requester.username === 'system:apiserver');

export type ConditionsOutcome = 'called' | 'skipped' | 'unknown';

export interface CelRequest {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly operation: string;
  /** null for cluster-scoped objects. */
  readonly namespace: string | null;
  readonly requester: Requester;
  /**
   * The object is one of the system's own in kube-system: it carries no label the system does not
   * set (src/match/foreign-label-gates.ts). Not so for a webhook's own pods, nor for a Node (its
   * admins and cloud label it). `likely`: also none of the values of a label whose values are add-ons'
   * own names (src/match/kube-system.ts systemObjectsNeverCarry), for a lower severity.
   */
  readonly systemObject?: boolean | 'likely';
}

/**
 * The variables a matchCondition sees (object, oldObject, request) for such a request, with only
 * the fields that are known (see the top of this file): every other read errors.
 */
export function celVariables(spec: CelRequest): Record<string, unknown> {
  const { group, resource, operation, requester } = spec;
  const object = { metadata: spec.namespace === null ? {} : { namespace: spec.namespace } };
  // The API server converts the AdmissionRequest with its JSON tags: subResource,
  // requestSubResource and namespace are omitempty, so a write to an object itself (or to a
  // cluster-scoped one) has no such field: reading it errors, and has() is false.
  // The kind of a subresource write is the subresource's own (serviceaccounts/token: a
  // TokenRequest of authentication.k8s.io): not known here. What the client asked for
  // (requestKind, requestResource) may be an equivalent resource of another group (core and
  // events.k8s.io events): not known either.
  const request = {
    ...(spec.subresource === '' ? { kind: { group } } : {}),
    resource: { group, resource },
    ...(spec.subresource === '' ? {} : { subResource: spec.subresource }),
    ...(spec.namespace === null || spec.namespace === '' ? {} : { namespace: spec.namespace }),
    operation,
    userInfo: { username: requester.username, groups: [...requester.groups] },
    dryRun: false,
  };
  const variables: Record<string, unknown> = {
    request,
    object: operation === 'DELETE' ? null : object,
    oldObject: operation === 'CREATE' ? null : object,
  };
  // The authorizer's answers are known for system:masters only (src/cel/authorizer.ts).
  if (requester.groups.includes(PRIVILEGED_GROUP)) variables['authorizer'] = privilegedAuthorizer();
  return variables;
}

/** The maps of celVariables (reading one whole, or testing a field of it, could see what is not known). */
const KNOWN_MAPS: ReadonlySet<string> = new Set(['request', 'request.kind', 'request.resource', 'request.userInfo', 'object', 'object.metadata', 'oldObject', 'oldObject.metadata']);
/** The known fields themselves. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'request.kind.group',
  'request.resource.group',
  'request.resource.resource',
  'request.subResource',
  'request.namespace',
  'request.operation',
  'request.userInfo.username',
  'request.userInfo.groups',
  'request.dryRun',
  'object.metadata.namespace',
  'oldObject.metadata.namespace',
]);
/** The variables of an admission expression (other names are a macro's loop variables). */
export const ADMISSION_VARIABLES: ReadonlySet<string> = new Set(['object', 'oldObject', 'request', 'authorizer', 'params', 'namespaceObject', 'variables']);

/**
 * Whether evaluating the expression over the known fields alone gives the answer it has on the
 * real request: every read of the variables is a known field, or a field past what is known read
 * plainly (it errors, and the error decides nothing); never a known map read whole, a presence
 * test or an optional read of a field that is not known. Unparsable: false.
 */
export function answersFromKnownFields(expression: string): boolean {
  const expr = parseExpression(expression, 'webhook.matchCondition', DEFAULT_KUBE_VERSION);
  if (expr === undefined) return false;
  let faithful = true;
  const visit = (e: Expr, bound: ReadonlySet<string>, parentSelects: boolean): void => {
    if (!faithful) return;
    if (e.kind === 'select' || e.kind === 'ident') {
      // The whole chain of selections down to a variable, read once (its outermost select).
      const path: string[] = [];
      let at: Expr = e;
      while (at.kind === 'select') {
        path.unshift(at.field);
        at = at.operand;
      }
      if (at.kind === 'ident' && ADMISSION_VARIABLES.has(at.name) && !bound.has(at.name)) {
        if (parentSelects) return;
        const name = [at.name, ...path].join('.');
        const testOnly = e.kind === 'select' && e.testOnly;
        // A known field; or a read past what is known, which errors (authorizer, params: not given).
        if (KNOWN_FIELDS.has(name)) return;
        // A known map read whole, or a presence test of what is not known: the unknown part could answer.
        if (KNOWN_MAPS.has(name) || testOnly) faithful = false;
        return;
      }
      if (e.kind === 'select') visit(e.operand, bound, true);
      return;
    }
    if (e.kind === 'call' && (e.fn === '_?._' || e.fn === '_[?_]')) {
      // An optional read of a known map's field, or of a variable (one not evaluated here is
      // absent, and its default would answer): absent here, maybe present for real.
      const target = e.args[0];
      if (target !== undefined && (readsKnownMap(target, bound) || (target.kind === 'ident' && target.name === 'variables' && !bound.has('variables')))) faithful = false;
    }
    if (e.kind === 'comprehension') {
      visit(e.iterRange, bound, false);
      const inner = new Set([...bound, e.iterVar, ...(e.iterVar2 !== undefined ? [e.iterVar2] : []), e.accuVar]);
      for (const child of [e.accuInit, e.loopCondition, e.loopStep, e.result]) visit(child, inner, false);
      return;
    }
    for (const child of children(e)) visit(child, bound, false);
  };
  visit(expr, new Set(), false);
  return faithful;
}

function readsKnownMap(e: Expr, bound: ReadonlySet<string>): boolean {
  const path: string[] = [];
  let at: Expr = e;
  while (at.kind === 'select') {
    path.unshift(at.field);
    at = at.operand;
  }
  return at.kind === 'ident' && !bound.has(at.name) && KNOWN_MAPS.has([at.name, ...path].join('.'));
}

/**
 * The outcome over several requests: "called" when every condition is true for one of them,
 * "skipped" when some condition is false for each, "unknown" otherwise.
 */
export function conditionsOutcome(scope: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], requests: readonly CelRequest[]): ConditionsOutcome {
  const expressions = conditions.map((condition) => condition?.expression?.trim() ?? '').filter((e) => e !== '');
  if (expressions.length === 0) return 'called';
  // The outcome depends on the expressions and the requests (and the run's budget): many webhooks share both.
  const key = JSON.stringify([expressions, requests]);
  const outcomes = scope.memo.get(OUTCOMES, () => new Map<string, ConditionsOutcome>());
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    outcome = evaluateConditions(expressions, requests, celMeterOf(scope));
    outcomes.set(key, outcome);
  }
  return outcome;
}

/** Outcomes of conditionsOutcome in a run, by expressions and requests. */
const OUTCOMES = memoKey<Map<string, ConditionsOutcome>>('matchConditions outcomes by expressions and requests');

/** What a presence test of what is not known becomes: an identifier no context defines, so reading it errors. */
const UNKNOWN = '__admission_lint_unknown';
/** `has(a.b.c)`: the macro's argument is a field selection (CEL allows nothing else there). */
const PRESENCE_TEST = /\bhas\(\s*([A-Za-z_]\w*)((?:\s*(?:\.\s*[A-Za-z_]\w*|\[[^[\]()]*\]))*\s*\.\s*[A-Za-z_]\w*)\s*\)/g;

/**
 * The expression with each presence test of a field that is not known (`has(object.metadata.labels)`,
 * `has(object.spec.x)`) replaced by an identifier that errors when read. Its answer is then
 * either decided by what is known (CEL's `||` and `&&` absorb an error where the other side
 * decides: `true || has(…)`, `false && has(…)`), or not at all: never the answer that the made-up
 * object's absent field would give. String literals are left as they are.
 */
export function withUnknownPresenceTests(expression: string): string {
  if (!expression.includes('has(')) return expression;
  let out = '';
  let code = '';
  const flush = (): void => {
    out += code.replace(PRESENCE_TEST, (whole: string, root: string, rest: string) => {
      const path = `${root}${rest.replace(/\s+/g, '')}`;
      return ADMISSION_VARIABLES.has(root) && !KNOWN_FIELDS.has(path) ? UNKNOWN : whole;
    });
    code = '';
  };
  for (let at = 0; at < expression.length; ) {
    const c = expression[at]!;
    // A comment runs to the end of its line: left as it is (a quote in it is no string).
    if (c === '/' && expression[at + 1] === '/') {
      flush();
      const end = expression.indexOf('\n', at);
      const stop = end < 0 ? expression.length : end;
      out += expression.slice(at, stop);
      at = stop;
      continue;
    }
    if (c !== '"' && c !== "'") {
      code += c;
      at++;
      continue;
    }
    flush();
    const quote = expression.startsWith(c.repeat(3), at) ? c.repeat(3) : c;
    // A raw string (r'…') has no escapes; any other has backslash escapes.
    const raw = /[rR]$/.test(out) && !/[A-Za-z0-9_][rR]$/.test(out.slice(-2));
    let end = at + quote.length;
    while (end < expression.length && !expression.startsWith(quote, end)) end += !raw && expression[end] === '\\' ? 2 : 1;
    end = Math.min(expression.length, end + quote.length);
    out += expression.slice(at, end);
    at = end;
  }
  flush();
  return out;
}

/** answersFromKnownFields, asked once per expression. */
function faithfulOnce(): (expression: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (expression) => {
    let verdict = verdicts.get(expression);
    if (verdict === undefined) verdicts.set(expression, (verdict = answersFromKnownFields(expression)));
    return verdict;
  };
}

/**
 * An expression as it is evaluated for a request: presence tests of what is not known made
 * unknown, and, for the system's own objects, tests of labels the system does not set made false
 * (src/match/foreign-label-gates.ts). Asked once per expression and kind of request.
 */
function preparedOnce(): (expression: string, request: CelRequest) => string {
  const prepared = new Map<string, string>();
  return (expression, request) => {
    // CONNECT's object is the connection's options (no metadata): no gate is known false there.
    const gated = request.systemObject !== undefined && request.systemObject !== false && ['CREATE', 'UPDATE', 'DELETE'].includes(request.operation);
    const likely = request.systemObject === 'likely';
    const key = `${gated ? request.operation : ''}\0${likely ? 'likely' : ''}\0${expression}`;
    let out = prepared.get(key);
    if (out === undefined) {
      const nonNull = new Set(request.operation === 'CREATE' ? ['object'] : request.operation === 'DELETE' ? ['oldObject'] : ['object', 'oldObject']);
      prepared.set(key, (out = withUnknownPresenceTests(gated ? withForeignLabelGates(expression, nonNull, likely) : expression)));
    }
    return out;
  };
}

function evaluateConditions(rawExpressions: readonly string[], requests: readonly CelRequest[], meter: Meter): ConditionsOutcome {
  const faithful = faithfulOnce();
  const prepare = preparedOnce();
  let unknown = false;
  for (const request of requests) {
    const expressions = rawExpressions.map((expression) => prepare(expression, request));
    const context = celVariables(request);
    // The webhook's conditions share one budget per request, as in the API server; one over
    // it is unknown (undefined), so the rules say less rather than guess.
    const shared = budget(RUNTIME_COST_BUDGET_MATCH_CONDITIONS);
    // A condition whose answer could come from what is not known of the request is not evaluated.
    const results = expressions.map((expression) => (faithful(expression) ? evaluateCondition(expression, context, meter, shared) : undefined));
    // Any false skips the webhook, even when another condition could not be evaluated.
    if (results.includes(false)) continue;
    if (results.includes(undefined)) {
      unknown = true;
      continue;
    }
    return 'called';
  }
  return unknown ? 'unknown' : 'skipped';
}

/** What a validating policy's validations do to such requests: one is false for one of them (`denies`), all are true for every one (`passes`), or neither is known. */
export type ValidationsOutcome = 'denies' | 'passes' | 'unknown';

/**
 * A validating policy's validations for the requests (the system's own writes), as its
 * matchConditions are (see the top of this file): its `variables` are evaluated in order where
 * they answer from the known fields (a variable that does not is left out, and reading it errors,
 * as reading an unknown field does). A validation that is false for one request is evidence the
 * policy rejects that write; true for every request, that it lets them all through.
 */
export function validationsOutcome(
  scope: Pick<RunScope, 'memo'>,
  validations: readonly string[],
  variables: readonly { readonly name: string; readonly expression: string }[],
  requests: readonly CelRequest[],
): ValidationsOutcome {
  if (validations.length === 0) return 'passes';
  const key = JSON.stringify([validations, variables, requests]);
  const outcomes = scope.memo.get(VALIDATION_OUTCOMES, () => new Map<string, ValidationsOutcome>());
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    const meter = celMeterOf(scope);
    outcome = evaluateValidations(validations, variables, requests, meter);
    // The requesters above are not all the control plane's: kubeadm runs each controller with its
    // own service account, and others write there too. They may decide that a validation is
    // false (it is, for them); to say it is true for the system, it must be for the others too.
    if (outcome === 'passes' && requests.length > 0) {
      const others = otherWritersOf(requests[0]!).map((requester) => ({ ...requests[0]!, requester }));
      if (others.length > 0 && evaluateValidations(validations, variables, others, meter) !== 'passes') outcome = 'unknown';
    }
    // cel-js gives a value where cel-go errors on overflow (int(9.3e18), the minimum int / -1,
    // double('1e400')): an expression that converts or divides is not taken as passing.
    if (outcome === 'passes' && [...validations, ...variables.map((variable) => variable.expression)].some(mayOverflow)) outcome = 'unknown';
    outcomes.set(key, outcome);
  }
  return outcome;
}

/**
 * Writers in kube-system besides SYSTEM_REQUESTERS, for the question "is it true for all of
 * them": the controllers' own service accounts (kube-controller-manager's
 * --use-service-account-credentials, kubeadm's default), another node, and a service account the
 * linter does not know by name.
 */
const KUBE_SYSTEM_SERVICE_ACCOUNT_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'];
/** EKS's scheduler for Fargate pods (Amazon EKS user guide, "Default Amazon EKS created Kubernetes identities"). */
export const FARGATE_SCHEDULER: Requester = { username: 'eks:fargate-scheduler', groups: ['system:authenticated'] };
const OTHER_SYSTEM_REQUESTERS: readonly Requester[] = [
  ...['daemon-set-controller', 'statefulset-controller', 'job-controller', 'deployment-controller', 'endpointslice-controller', 'endpoint-controller', 'node-controller', 'generic-garbage-collector', 'namespace-controller', 'an-unnamed-component'].map(
    (name): Requester => ({ username: `system:serviceaccount:kube-system:${name}`, groups: KUBE_SYSTEM_SERVICE_ACCOUNT_GROUPS }),
  ),
  { username: 'system:node:node-2', groups: ['system:nodes', 'system:authenticated'] },
  // Node names are often hostnames with dots (a cloud's ip-10-0-1-23.ec2.internal).
  { username: 'system:node:ip-10-0-1-23.ec2.internal', groups: ['system:nodes', 'system:authenticated'] },
  // Groups are not only kubeadm's: a managed cluster's authenticator may add its own (EKS maps its
  // kubelets to system:bootstrappers and system:nodes).
  { username: 'system:node:ip-10-0-1-24.ec2.internal', groups: ['system:bootstrappers', 'system:nodes', 'system:authenticated'] },
  // The API server's loopback user had system:masters alone before kubernetes#127902 (1.32, and
  // patch releases of 1.29-1.31 from November 2024).
  { username: 'system:apiserver', groups: ['system:masters'] },
  // Not every writer of the system's is named system:…: EKS's Fargate scheduler binds the pods of
  // Fargate profiles (CoreDNS in kube-system among them) as eks:fargate-scheduler.
  FARGATE_SCHEDULER,
];

/**
 * Whether matchConditions that skip every one of `requests` may let in another of the control
 * plane's writers in kube-system (OTHER_SYSTEM_REQUESTERS) for the same writes: the conclusion
 * "the system is skipped" needs them skipped too.
 */
export function othersMayBeCalled(scope: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], requests: readonly CelRequest[]): boolean {
  const writes = new Map(requests.map((request) => [`${request.group}/${request.resource}/${request.subresource}/${request.operation}/${request.namespace ?? ''}`, request]));
  const others = [...writes.values()].flatMap((request) => otherWritersOf(request).map((requester) => ({ ...request, requester })));
  return others.length > 0 && conditionsOutcome(scope, conditions, others) !== 'skipped';
}

/** OTHER_SYSTEM_REQUESTERS that write a resource in kube-system: none for RBAC (systemWritersOf); EKS's Fargate scheduler binds pods (pods/binding) and is known to write nothing else. */
function otherWritersOf(write: Pick<CelRequest, 'group' | 'resource' | 'subresource'>): readonly Requester[] {
  if (write.group === 'rbac.authorization.k8s.io') return OTHER_SYSTEM_REQUESTERS.filter((requester) => requester.username === 'system:apiserver');
  const binds = write.group === '' && write.resource === 'pods' && write.subresource === 'binding';
  return binds ? OTHER_SYSTEM_REQUESTERS : OTHER_SYSTEM_REQUESTERS.filter((requester) => requester !== FARGATE_SCHEDULER);
}

/** Calls where cel-go errors and cel-js may not: numeric conversions, division, remainder, negation, timestamps and durations (their arithmetic overflows). */
const OVERFLOWING_CALLS: ReadonlySet<string> = new Set(['int', 'uint', 'double', '_/_', '_%_', '-_', 'timestamp', 'duration']);

function mayOverflow(expression: string): boolean {
  const expr = parseExpression(expression, 'webhook.matchCondition', DEFAULT_KUBE_VERSION);
  if (expr === undefined) return true;
  const calls = (e: Expr): boolean => (e.kind === 'call' && OVERFLOWING_CALLS.has(e.fn)) || children(e).some(calls);
  return calls(expr);
}

const VALIDATION_OUTCOMES = memoKey<Map<string, ValidationsOutcome>>('validating policies\' validations for the system\'s writes');

function evaluateValidations(rawValidations: readonly string[], rawVariables: readonly { readonly name: string; readonly expression: string }[], requests: readonly CelRequest[], meter: Meter): ValidationsOutcome {
  const faithful = faithfulOnce();
  const prepare = preparedOnce();
  // The API server does not refuse two variables of one name (the composition keeps the last
  // definition): such a name is not evaluated here, so reading it is not known.
  const names = rawVariables.map((variable) => variable.name);
  const twice = new Set(names.filter((name, index) => names.indexOf(name) !== index));
  let unknown = false;
  for (const request of requests) {
    const validations = rawValidations.map((expression) => prepare(expression, request));
    const variables = rawVariables.map((variable) => ({ name: variable.name, expression: prepare(variable.expression, request) }));
    const known: Record<string, unknown> = {};
    const context = { ...celVariables(request), variables: known };
    for (const variable of variables) {
      if (twice.has(variable.name) || !faithful(variable.expression)) continue;
      const result = evaluateValue(variable.expression, context, meter);
      if (result.ok) known[variable.name] = result.value;
    }
    const shared = budget(RUNTIME_COST_BUDGET_MATCH_CONDITIONS);
    const results = validations.map((expression) => (faithful(expression) ? evaluateCondition(expression, context, meter, shared) : undefined));
    if (results.includes(false)) return 'denies';
    if (results.includes(undefined)) unknown = true;
  }
  return unknown ? 'unknown' : 'passes';
}

/**
 * Outcome for the system's own writes of `match` in kube-system, for every operation the rule
 * lists: called for one requester and operation wins (a lease is created once, renewed often).
 */
export function systemRequestOutcome(scope: Pick<RunScope, 'memo'>, conditions: readonly (MatchCondition | null)[], match: BuiltinMatch, operations: readonly string[]): ConditionsOutcome {
  if (conditions.length === 0) return 'called';
  const listed = operations.includes('*') ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE', 'UPDATE', 'DELETE'].filter((op) => operations.includes(op));
  const resource = match.resource === '*' ? 'pods' : match.resource;
  const subresource = match.subresource === '*' ? '' : match.subresource;
  // The requests follow from the group, resource, subresource and operations: a short key for the outcome.
  const key = JSON.stringify([conditions.map((condition) => condition?.expression ?? null), match.group, resource, subresource, listed]);
  const outcomes = scope.memo.get(SYSTEM_OUTCOMES, () => new Map<string, ConditionsOutcome>());
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    const requests = listed.flatMap((operation) => systemWritersOf(match.group).map((requester) => ({ group: match.group, resource, subresource, operation, namespace: 'kube-system', requester, systemObject: true })));
    outcome = conditionsOutcome(scope, conditions, requests);
    // Skipped for the requesters modelled is not skipped for the control plane: the others there
    // (the controllers' own service accounts, another node) may be let in.
    if (outcome === 'skipped' && othersMayBeCalled(scope, conditions, requests)) outcome = 'unknown';
    outcomes.set(key, outcome);
  }
  return outcome;
}

/** Outcomes of systemRequestOutcome in a run, by conditions and write. */
const SYSTEM_OUTCOMES = memoKey<Map<string, ConditionsOutcome>>('matchConditions outcomes for the system\'s writes');
