import { parseExpression } from '../src/cel/check/index.js';
import type { Expr } from '../src/cel/check/ast.js';
import { nodesOf } from '../src/cel/check/ast.js';
import type { PolicyObject } from '../src/model/objects.js';
import { bindingCanReject, policySpec } from '../src/model/policies.js';
import { policyIndexOf } from '../src/match/bindings.js';
import { onRequest, policySeesRequest, validatingWebhookSees } from '../src/match/subresource-request.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { memoKey } from '../src/run-scope.js';
import { elideMiddle, joinWords } from '../src/text/list.js';

/**
 * The resources whose objects hold a pod spec, by group: Pods, and the workloads with pod
 * templates that Pod Security also checks (k8s.io/pod-security-admission).
 */
const POD_SPEC_RESOURCES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['', new Set(['pods', 'replicationcontrollers', 'podtemplates'])],
  ['apps', new Set(['deployments', 'replicasets', 'statefulsets', 'daemonsets'])],
  ['batch', new Set(['jobs', 'cronjobs'])],
]);

/**
 * The container fields a check constrains that decide what a container may do: what it runs, and
 * with which privileges. An init container has them as any container does; a check of others
 * (probes, lifecycle, resources) is no security check that an init container gets round.
 */
const SHARED_FIELDS: ReadonlySet<string> = new Set(['image', 'securityContext']);

/** The pod-spec resources (`group/resource`) the policy's rules match on CREATE or UPDATE. */
function podSpecResources(object: PolicyObject): Set<string> {
  const out = new Set<string>();
  const rules = policySpec(object)?.matchConstraints?.resourceRules;
  if (!Array.isArray(rules)) return out;
  for (const rule of rules) {
    if (rule === null || typeof rule !== 'object') continue;
    const operations = rule.operations ?? [];
    if (!operations.some((operation) => operation === '*' || operation === 'CREATE' || operation === 'UPDATE')) continue;
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        if (typeof resource !== 'string' || (resource.includes('/') && resource !== '*/*')) continue;
        for (const [known, resources] of POD_SPEC_RESOURCES) {
          if (group !== '*' && group !== known) continue;
          for (const each of resources) if (resource === '*' || resource === '*/*' || resource === each) out.add(`${known}/${each}`);
        }
      }
    }
  }
  return out;
}

/**
 * What `kubectl debug` sends: an UPDATE of the pods/ephemeralcontainers subresource, whose object
 * is the whole Pod with the new container in spec.ephemeralContainers. A rule of `pods` does not
 * match it (only `pods/ephemeralcontainers`, `pods/*`, `*\/ephemeralcontainers` or `*\/*` do).
 */
const EPHEMERAL_REQUEST = { operation: 'UPDATE', group: '', version: 'v1', resource: 'pods', subresource: 'ephemeralcontainers', namespace: 'default' } as const;

/** Whether the policy sees the request that adds an ephemeral container (src/match/subresource-request.ts). */
function matchesEphemeralContainers(object: PolicyObject, run: RuleRun): boolean {
  return policySeesRequest(object, run, EPHEMERAL_REQUEST);
}

/** Whether the policy's rules match objects that hold a pod spec, on CREATE or UPDATE. */
function matchesPodSpecs(object: PolicyObject): boolean {
  return podSpecResources(object).size > 0;
}

/** Which pod-spec lists an expression names. */
type ListKind = 'containers' | 'initContainers' | 'ephemeralContainers';
const LIST_KINDS: ReadonlySet<string> = new Set<ListKind>(['containers', 'initContainers', 'ephemeralContainers']);

/** A field (or key) a selection names: `x.f`, `x.?f`, `x['f']`, `x[?'f']`. */
function selected(e: Expr): { readonly operand: Expr; readonly field: string } | undefined {
  if (e.kind === 'select' && !e.testOnly) return { operand: e.operand, field: e.field };
  if (e.kind === 'call' && (e.fn === '_?._' || e.fn === '_[_]' || e.fn === '_[?_]') && e.args.length === 2) {
    const key = e.args[1]!;
    if (key.kind === 'literal' && typeof key.value === 'string') return { operand: e.args[0]!, field: key.value };
  }
  return undefined;
}

/** The variable a selection chain starts from (`object`, `oldObject`, `variables`, a macro's), or undefined. */
function rootName(e: Expr): string | undefined {
  for (;;) {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select') e = e.operand;
    else if (e.kind === 'call' && (e.fn === '_?._' || e.fn === '_[_]' || e.fn === '_[?_]') && e.args.length === 2) e = e.args[0]!;
    // (`oldObject.?spec.orValue({})`: the optional's value is still the old object's.)
    else if (e.kind === 'call' && (e.fn === 'orValue' || e.fn === 'value') && e.target !== undefined) e = e.target;
    else return undefined;
  }
}

/**
 * The container lists `e` names (of the new object: `oldObject`'s are what the pod had before,
 * not what the request asks for): `….containers` or `….initContainers` (also optionally selected,
 * `.orValue(…)` of one), a variable that names some, a concatenation (`a + b`), the branches of a
 * ternary, or a `filter()` of one (which keeps containers; `map()` does not).
 */
function listsOf(e: Expr, variables: ReadonlyMap<string, ReadonlySet<ListKind>>): Set<ListKind> {
  const one = selected(e);
  if (one !== undefined) {
    // (A variable first: `variables.containers` is what the variable holds.)
    if (one.operand.kind === 'ident' && one.operand.name === 'variables') return new Set(variables.get(one.field) ?? []);
    if (LIST_KINDS.has(one.field)) return rootName(one.operand) === 'oldObject' ? new Set() : new Set([one.field as ListKind]);
    return new Set();
  }
  if (e.kind === 'call' && e.fn === 'orValue' && e.target !== undefined) return listsOf(e.target, variables);
  if (e.kind === 'call' && e.fn === '_+_' && e.args.length === 2) return new Set([...listsOf(e.args[0]!, variables), ...listsOf(e.args[1]!, variables)]);
  // Either branch of a ternary (`kind == 'Pod' ? spec.containers + … : template.spec.containers + …`, `has(x) ? x : []`).
  if (e.kind === 'call' && e.fn === '_?_:_' && e.args.length === 3) return new Set([...listsOf(e.args[1]!, variables), ...listsOf(e.args[2]!, variables)]);
  if (e.kind === 'comprehension' && isFilter(e)) return listsOf(e.iterRange, variables);
  return new Set();
}

/** cel-go's expansion of `range.filter(x, predicate)`: it appends `[x]` itself, where `map()` appends what it computes. */
function isFilter(e: Extract<Expr, { kind: 'comprehension' }>): boolean {
  if (e.accuInit.kind !== 'list' || e.accuInit.elements.length !== 0) return false;
  for (const node of nodesOf(e.loopStep)) {
    if (node.kind === 'list' && node.elements.length === 1 && node.elements[0]!.kind === 'ident' && node.elements[0]!.name === e.iterVar) return true;
  }
  return false;
}

/** How deep below the element a read's path is kept (`securityContext.capabilities.add`). */
const MAX_PATH = 3;

/**
 * The shared fields a comprehension's body reads of its element (`c.image`, `c.?securityContext`,
 * `c['image']`; the element is the second variable of a two-variable macro over a list), each as
 * the longest path it reads, up to MAX_PATH fields: `image`, `securityContext.privileged`,
 * `securityContext.capabilities.add`.
 */
function fieldsRead(comprehension: Extract<Expr, { kind: 'comprehension' }>): Set<string> {
  const element = comprehension.iterVar2 ?? comprehension.iterVar;
  /** The path a selection reads from the element, or undefined. */
  const pathOf = (e: Expr): string[] | undefined => {
    // `has(c.securityContext)` reads the field too: `!has(…)` forbids all of it.
    const read = selected(e) ?? (e.kind === 'select' && e.testOnly ? { operand: e.operand, field: e.field } : undefined);
    if (read === undefined) return undefined;
    if (read.operand.kind === 'ident' && read.operand.name === element) return SHARED_FIELDS.has(read.field) ? [read.field] : undefined;
    const before = pathOf(read.operand);
    return before === undefined ? undefined : [...before, read.field];
  };
  const paths: string[][] = [];
  for (const body of [comprehension.loopCondition, comprehension.loopStep, comprehension.result]) {
    for (const node of nodesOf(body)) {
      const path = pathOf(node);
      if (path !== undefined) paths.push(path.slice(0, MAX_PATH));
    }
  }
  // The longest reads: a read of a prefix of another is part of it.
  const keys = [...new Set(paths.map((path) => path.join('.')))];
  return new Set(keys.filter((key) => !keys.some((other) => other !== key && other.startsWith(`${key}.`))));
}

/** Whether checks of `covering` (init containers') cover a check of `path` (containers'): the same path, or a check of a field that holds it. */
function covers(covering: ReadonlySet<string>, path: string): boolean {
  const parts = path.split('.');
  return parts.some((_, index) => covering.has(parts.slice(0, index + 1).join('.')));
}

interface Expression {
  readonly path: (string | number)[];
  readonly label: string;
  readonly text: string;
}

interface PolicyChecks {
  /** The shared fields the policy checks of every element of each list. */
  readonly checked: Readonly<Record<ListKind, ReadonlySet<string>>>;
  /**
   * A validation fails on every request that adds an ephemeral container: it (or one of its `&&`
   * terms) is `false`, is false for that request's subresource or operation, or admits no
   * ephemeral container (`!has(object.spec.ephemeralContainers)`, `….size() == 0`).
   */
  readonly refusesEphemeral: boolean;
  /** Each field checked of containers, at the first validation that checks it. */
  readonly firstAt: ReadonlyMap<string, Expression>;
}

/** Each ValidatingAdmissionPolicy of the run over pod specs: the resources it matches and what it checks of init and ephemeral containers (per run). */
const OTHER_CHECKS = memoKey<readonly OtherChecks[]>('what the run\'s policies check of init and ephemeral containers');

interface OtherChecks {
  readonly policy: PolicyObject;
  readonly resources: ReadonlySet<string>;
  readonly initFields: ReadonlySet<string>;
  /** What it checks of ephemeral containers where they are added (nothing when it does not match pods/ephemeralcontainers); `whole`: all of them. */
  readonly ephemeral: ReadonlySet<string> | 'whole';
}

function otherChecks(run: RuleRun): readonly OtherChecks[] {
  return run.memo.get(OTHER_CHECKS, () =>
    run.policies.flatMap((policy) => {
      if (policy.kind !== 'ValidatingAdmissionPolicy') return [];
      const resources = podSpecResources(policy);
      const addsEphemeral = matchesEphemeralContainers(policy, run);
      if (resources.size === 0 && !addsEphemeral) return [];
      const checks = checksOf(policy, run);
      return [{ policy, resources, initFields: checks.checked.initContainers, ephemeral: !addsEphemeral ? new Set<string>() : checks.refusesEphemeral ? 'whole' : checks.checked.ephemeralContainers }];
    }),
  );
}

/**
 * What the run's other policies check of init containers, for this policy: those that match
 * every pod-spec resource it matches (a Pod Security library's `…-initcontainers` twin of its
 * `…-containers` policy), not one whose check reaches only some of its objects.
 */
function checkedElsewhere(object: PolicyObject, run: RuleRun): Set<string> {
  const mine = podSpecResources(object);
  const out = new Set<string>();
  for (const other of otherChecks(run)) {
    if (other.policy === object || ![...mine].every((resource) => other.resources.has(resource))) continue;
    for (const field of other.initFields) out.add(field);
  }
  return out;
}

const WEBHOOK_SEES_EPHEMERAL = memoKey<boolean>('a webhook of the run is called when kubectl debug adds an ephemeral container');

/**
 * Whether a policy of the run (this one too) checks `field` of ephemeral containers on the request
 * that adds them; or a webhook of the run is called on that request, whose checks are in code the
 * manifest does not show (not judged).
 */
function ephemeralChecked(run: RuleRun, field: string): boolean {
  if (otherChecks(run).some(({ ephemeral }) => ephemeral === 'whole' || covers(ephemeral, field))) return true;
  return run.memo.get(WEBHOOK_SEES_EPHEMERAL, () => validatingWebhookSees(run, EPHEMERAL_REQUEST));
}

/** A list of fields, short: two named (the second without the first's leading field, when they share it), then how many more. */
function fieldList(fields: readonly string[]): string {
  const [first, second] = fields;
  const head = first === undefined ? '' : first.slice(0, first.indexOf('.') + 1);
  const named = second === undefined ? [...fields] : [first!, head !== '' && second.startsWith(head) ? second.slice(head.length - 1) : second];
  return fields.length <= 2 ? joinWords(named) : `${named.join(', ')} and ${fields.length - 2} more`;
}

/**
 * A policy is judged with the run's others: a set of policies that checks each list in a policy
 * of its own leaves none of them unchecked. Of the cluster's other policies the file cannot tell.
 * Ephemeral containers matter where the policy matches Pods: only a Pod gets them, through the
 * pods/ephemeralcontainers subresource, which `pods` in a rule does not match.
 */
function check(object: PolicyObject, run: RuleRun): Violation<'unchecked' | 'ephemeral' | 'both' | 'each'>[] {
  if (object.kind !== 'ValidatingAdmissionPolicy' || !matchesPodSpecs(object)) return [];
  const { checked, firstAt } = checksOf(object, run);
  const elsewhere = checkedElsewhere(object, run);
  const candidates = [...checked.containers].filter((field) => firstAt.has(field)).sort();
  const init = candidates.filter((field) => !covers(checked.initContainers, field) && !covers(elsewhere, field));
  // A policy whose bindings in the run only warn or audit rejects nothing: that its check misses
  // the debug request is no news (its init-container gap is, as before).
  const bindings = policyIndexOf(run).bindingsOf(object).filter((binding) => binding.decodable);
  const rejects = bindings.length === 0 || bindings.some(bindingCanReject);
  const ephemeral = rejects && podSpecResources(object).has('/pods') ? candidates.filter((field) => !ephemeralChecked(run, field)) : [];
  const unchecked = [...new Set([...init, ...ephemeral])].sort();
  if (unchecked.length === 0) return [];
  // One cause, one finding: at the policy's first validation that checks such a field.
  const at = unchecked.map((field) => firstAt.get(field)!).sort((a, b) => (a.path[2] as number) - (b.path[2] as number))[0]!;
  const base = { site: at.label, policy: elideMiddle(object.name ?? '(unnamed)', 48) };
  const same = init.length === ephemeral.length && init.every((field, i) => field === ephemeral[i]);
  if (ephemeral.length === 0) return [{ messageId: 'unchecked', data: { ...base, fields: fieldList(init) }, path: at.path }];
  // A debug container that runs an image from elsewhere was chosen by someone the cluster lets
  // add one (no default role can): low consequence beside a privilege it could ask for.
  if (init.length === 0) return [{ messageId: 'ephemeral', data: { ...base, fields: fieldList(ephemeral) }, path: at.path, ...(ephemeral.every((field) => field === 'image') ? { severity: 'info' as const } : {}) }];
  if (same) return [{ messageId: 'both', data: { ...base, fields: fieldList(init) }, path: at.path }];
  return [
    {
      messageId: 'each',
      data: { ...base, fields: fieldList(unchecked) },
      path: at.path,
      help: `Init containers get past its check of ${joinWords(init)}; ephemeral containers, which kubectl debug adds through pods/ephemeralcontainers, past its check of ${joinWords(ephemeral)}. ${HELP}`,
    },
  ];
}

const POLICY_CHECKS = memoKey<Map<PolicyObject, PolicyChecks>>('what each policy checks of containers and init containers');

function checksOf(object: PolicyObject, run: RuleRun): PolicyChecks {
  return run.memo.perObject(POLICY_CHECKS, object, () => analyse(object, run));
}

function analyse(object: PolicyObject, run: RuleRun): PolicyChecks {
  const spec = policySpec(object);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const validations: Expression[] = (Array.isArray(spec?.validations) ? spec.validations : []).map((validation, index) => ({
    path: ['spec', 'validations', index, 'expression'],
    label: `validations[${index}]`,
    text: text(validation?.expression),
  }));
  // The lists each variable names, in order (a variable reads only those before it).
  const variables = new Map<string, ReadonlySet<ListKind>>();
  const variableExprs: { readonly name: string; readonly expr: Expr }[] = [];
  for (const variable of Array.isArray(spec?.variables) ? spec.variables : []) {
    const source = text(variable?.expression);
    const expr = source.trim() === '' ? undefined : parseExpression(source, 'validating.variable', run.kubeVersion);
    if (expr === undefined) continue;
    variableExprs.push({ name: text(variable?.name), expr });
    const lists = listsOf(expr, variables);
    if (lists.size > 0) variables.set(text(variable?.name), lists);
  }
  // Which shared fields the policy checks of every element of each list: only checks count (a
  // mention of initContainers in a message, a comment or a matchCondition that leaves pods with
  // them out checks none of them: s45c 1).
  const checked: Record<ListKind, Set<string>> = { containers: new Set(), initContainers: new Set(), ephemeralContainers: new Set() };
  const firstAt = new Map<string, Expression>();
  const parsedValidations = validations.map((validation) => ({ validation, expr: validation.text.trim() === '' ? undefined : parseExpression(validation.text, 'validating.validation', run.kubeVersion) }));
  /** The shared fields each variable checks of containers (`variables.ok` in a validation is that check). */
  const variableChecks = new Map<string, Set<string>>();
  const scan = (expr: Expr, validation: Expression | undefined, variable?: string): void => {
    for (const node of nodesOf(expr)) {
      const read = selected(node);
      if (validation !== undefined && read !== undefined && read.operand.kind === 'ident' && read.operand.name === 'variables') {
        for (const field of variableChecks.get(read.field) ?? []) if (!firstAt.has(field)) firstAt.set(field, validation);
      }
      if (node.kind !== 'comprehension') continue;
      const lists = listsOf(node.iterRange, variables);
      if (lists.size === 0) continue;
      for (const field of fieldsRead(node)) {
        for (const list of lists) checked[list].add(field);
        if (!lists.has('containers')) continue;
        if (validation !== undefined && !firstAt.has(field)) firstAt.set(field, validation);
        if (variable !== undefined) variableChecks.set(variable, new Set([...(variableChecks.get(variable) ?? []), field]));
      }
    }
  };
  // A variable's comprehension is a check where a validation reads it; its fields count for both.
  for (const { name, expr } of variableExprs) scan(expr, undefined, name);
  for (const { validation, expr } of parsedValidations) if (expr !== undefined) scan(expr, validation);
  /** Whether a list is spec.ephemeralContainers alone, or that it is empty. */
  const onlyEphemeral = (e: Expr): boolean => {
    const lists = listsOf(e, variables);
    return lists.size === 1 && lists.has('ephemeralContainers');
  };
  const isZero = (e: Expr): boolean => e.kind === 'literal' && (e.value === 0 || e.value === 0n);
  const sizeOfEphemeral = (e: Expr): boolean => e.kind === 'call' && e.fn === 'size' && ((e.target !== undefined && onlyEphemeral(e.target)) || (e.target === undefined && e.args.length === 1 && onlyEphemeral(e.args[0]!)));
  const refuses = (e: Expr): boolean => {
    if (e.kind !== 'call' && e.kind !== 'literal') return false;
    if (onRequest(e, EPHEMERAL_REQUEST) === false) return true;
    if (e.kind !== 'call') return false;
    const [a, b] = e.args;
    if (e.fn === '_&&_' && a !== undefined && b !== undefined) return refuses(a) || refuses(b);
    if (e.fn === '!_' && a !== undefined && a.kind === 'select' && a.testOnly && a.field === 'ephemeralContainers' && (rootName(a.operand) === 'object' || rootName(a.operand) === 'variables')) return true;
    if (e.fn === '_==_' && a !== undefined && b !== undefined) return (sizeOfEphemeral(a) && isZero(b)) || (sizeOfEphemeral(b) && isZero(a));
    if (e.fn === '_<_' && a !== undefined && b !== undefined) return sizeOfEphemeral(a) && b.kind === 'literal' && (b.value === 1 || b.value === 1n);
    return false;
  };
  const refusesEphemeral = parsedValidations.some(({ expr }) => expr !== undefined && refuses(expr));
  return { checked, refusesEphemeral, firstAt };
}

const HELP =
  'An init container runs the image it names with the security context it asks for, before the containers start (and, with restartPolicy: Always, beside them for the pod\'s whole life), so a check of spec.containers alone lets any image or privilege in through spec.initContainers. Check both lists: object.spec.containers + object.spec.?initContainers.orValue([]), in a variable that every validation reads. kubectl debug adds ephemeral containers through the pods/ephemeralcontainers subresource, which a rule of pods does not match: add it to the rules and object.spec.?ephemeralContainers.orValue([]) to the lists.';

export const rule = defineObjectRule({
  meta: {
    id: 'init-containers-unchecked',
    title: "A policy checks its pods' containers but not their init or ephemeral containers",
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy'],
    messages: {
      unchecked: '{{site}} of policy "{{policy}}" checks {{fields}} of containers, not of initContainers: init containers get past it',
      ephemeral: '{{site}} of policy "{{policy}}" checks {{fields}} of containers; kubectl debug adds ephemeral ones past it',
      both: '{{site}} of policy "{{policy}}" checks {{fields}} of containers; init and ephemeral (kubectl debug) ones get past it',
      each: '{{site}} of policy "{{policy}}" checks {{fields}} of containers; init and ephemeral ones get past some of it',
    },
    help: HELP,
  },
  create(run) {
    return { policy: (object) => check(object, run) };
  },
});
