import { parseExpression } from '../src/cel/check/index.js';
import type { Expr } from '../src/cel/check/ast.js';
import { children } from '../src/cel/check/ast.js';
import type { PolicyObject } from '../src/model/objects.js';
import { describePolicyObject, policySpec } from '../src/model/policies.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { joinWords } from '../src/text/list.js';

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
 * The container fields a check constrains that an init container has too, and that decide what
 * it may do: what it runs, and with which privileges (an init container has no probes, no
 * lifecycle and, before it finishes, holds no ports: a check of those is no bypass).
 */
const SHARED_FIELDS: ReadonlySet<string> = new Set(['image', 'securityContext']);

/** Whether the policy's rules match objects that hold a pod spec, on CREATE or UPDATE. */
function matchesPodSpecs(object: PolicyObject): boolean {
  const rules = policySpec(object)?.matchConstraints?.resourceRules;
  if (!Array.isArray(rules)) return false;
  return rules.some((rule) => {
    if (rule === null || typeof rule !== 'object') return false;
    const operations = rule.operations ?? [];
    if (!operations.some((operation) => operation === '*' || operation === 'CREATE' || operation === 'UPDATE')) return false;
    return (rule.apiGroups ?? []).some((group) =>
      (rule.resources ?? []).some((resource) => {
        if (typeof resource !== 'string' || resource.includes('/')) return resource === '*/*';
        if (group === '*') return resource === '*' || [...POD_SPEC_RESOURCES.values()].some((set) => set.has(resource));
        const resources = POD_SPEC_RESOURCES.get(group);
        return resources !== undefined && (resource === '*' || resources.has(resource));
      }),
    );
  });
}

/** Every node of an expression (bounded by the parser's own limits). */
function* nodesOf(expr: Expr): Generator<Expr> {
  yield expr;
  for (const child of children(expr)) yield* nodesOf(child);
}

/**
 * Whether `e` names a list of containers: `….containers`, a variable whose expression does, or
 * a `filter()` of one (`variables.containers.filter(c, …)` keeps containers; `map()` does not).
 */
function isContainerList(e: Expr, containerVariables: ReadonlySet<string>): boolean {
  if (e.kind === 'select' && !e.testOnly) {
    if (e.field === 'containers') return true;
    return e.operand.kind === 'ident' && e.operand.name === 'variables' && containerVariables.has(e.field);
  }
  return e.kind === 'comprehension' && isFilter(e) && isContainerList(e.iterRange, containerVariables);
}

/** cel-go's expansion of `range.filter(x, predicate)`: it appends `[x]` itself, where `map()` appends what it computes. */
function isFilter(e: Extract<Expr, { kind: 'comprehension' }>): boolean {
  if (e.accuInit.kind !== 'list' || e.accuInit.elements.length !== 0) return false;
  for (const node of nodesOf(e.loopStep)) {
    if (node.kind === 'list' && node.elements.length === 1 && node.elements[0]!.kind === 'ident' && node.elements[0]!.name === e.iterVar) return true;
  }
  return false;
}

/** The shared fields a comprehension's body reads of its element (`c.image`, `c.securityContext.privileged`). */
function fieldsRead(comprehension: Extract<Expr, { kind: 'comprehension' }>): Set<string> {
  const out = new Set<string>();
  for (const body of [comprehension.loopCondition, comprehension.loopStep, comprehension.result]) {
    for (const node of nodesOf(body)) {
      if (node.kind === 'select' && node.operand.kind === 'ident' && node.operand.name === comprehension.iterVar && SHARED_FIELDS.has(node.field)) out.add(node.field);
    }
  }
  return out;
}

interface Expression {
  readonly path: (string | number)[];
  readonly label: string;
  readonly text: string;
}

function check(object: PolicyObject, run: RuleRun): Violation<'unchecked'>[] {
  if (object.kind !== 'ValidatingAdmissionPolicy' || !matchesPodSpecs(object)) return [];
  const spec = policySpec(object);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const validations: Expression[] = (Array.isArray(spec?.validations) ? spec.validations : []).map((validation, index) => ({
    path: ['spec', 'validations', index, 'expression'],
    label: `validations[${index}]`,
    text: text(validation?.expression),
  }));
  const variables = (Array.isArray(spec?.variables) ? spec.variables : []).map((variable) => ({ name: text(variable?.name), text: text(variable?.expression) }));
  // Whatever the policy says of init containers anywhere (a check, a variable that joins the
  // lists, a condition that leaves pods with them out) shows its author weighed them.
  const everything = [
    ...validations.map((each) => each.text),
    ...(Array.isArray(spec?.validations) ? spec.validations.map((validation) => text(validation?.messageExpression)) : []),
    ...variables.map((variable) => variable.text),
    ...(Array.isArray(spec?.matchConditions) ? spec.matchConditions.map((condition) => text(condition?.expression)) : []),
  ];
  if (everything.some((each) => each.includes('initContainers'))) return [];
  // Variables that name a list of containers (`object.spec.template.spec.containers`).
  const containerVariables = new Set<string>();
  for (const variable of variables) {
    const expr = variable.text.trim() === '' ? undefined : parseExpression(variable.text, 'validating.variable', run.kubeVersion);
    if (expr !== undefined && isContainerList(expr, containerVariables)) containerVariables.add(variable.name);
  }
  // One cause, one finding: the policy's first validation that checks its containers' shared fields.
  for (const validation of validations) {
    const expr = validation.text.trim() === '' ? undefined : parseExpression(validation.text, 'validating.validation', run.kubeVersion);
    if (expr === undefined) continue;
    const fields = new Set<string>();
    for (const node of nodesOf(expr)) if (node.kind === 'comprehension' && isContainerList(node.iterRange, containerVariables)) for (const field of fieldsRead(node)) fields.add(field);
    if (fields.size === 0) continue;
    return [{ messageId: 'unchecked', data: { site: validation.label, policy: describePolicyObject(object), fields: joinWords([...fields].sort()) }, path: validation.path }];
  }
  return [];
}

export const rule = defineObjectRule({
  meta: {
    id: 'init-containers-unchecked',
    title: "A policy checks its pods' containers but not their init containers",
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy'],
    messages: {
      unchecked: '{{site}} of {{policy}} checks the {{fields}} of containers, never of initContainers: a pod can run an unchecked one as an init container',
    },
    help: 'An init container runs the image it names with the security context it asks for, before the containers start (and, with restartPolicy: Always, beside them for the pod\'s whole life), so a check of spec.containers alone lets any image or privilege in through spec.initContainers. Check both lists: object.spec.containers + object.spec.?initContainers.orValue([]), in a variable that every validation reads.',
  },
  create(run) {
    return { policy: (object) => check(object, run) };
  },
});
