/**
 * The requests a webhook's or policy's rules match, as scenarios for the abstract evaluator
 * (src/cel/abstract.ts): one per built-in kind and operation, with what is known of the request
 * (its kind, resource and subresource; the object variables null or of the kind's shape). And
 * the reads of absent fields that fail an expression in one of them. Shared by the rules that
 * ask how an expression behaves on each kind it is written for (undefined-field,
 * match-condition-missing-field).
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { ResourceInfo } from '../kube/discovery/discovery.js';
import { kindShape } from '../kube/fields.js';
import { policyIndexOf } from './bindings.js';
import { entryTargets, groupVersion, withAllGroups } from './targets.js';
import { bindingSpec } from '../model/policies.js';
import type { PolicyObject } from '../model/objects.js';
import type { RuleWithOperations } from '../model/types.js';
import type { RunScope } from '../run-scope.js';
import { AbstractEvaluator, alwaysFalse, EvaluationBudget, isNullFailure, type Abstract, type FailureSource, type Scenario } from '../cel/abstract.js';
import type { Meter } from '../cel/budget.js';

/** A kind and operation the expressions run for, as a scenario, with how a message names it. */
export interface KindScenario {
  /** The request, as requests() keys it. */
  readonly key: string;
  readonly scenario: Scenario;
  /** `pods`, `deployments (apps)`: what the message names. */
  readonly resource: string;
}

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE'] as const;

/** Whose expressions: a webhook's, a validating policy's or a mutating policy's (they admit different operations). */
export type Owner = 'webhook' | 'validating' | 'mutating';

/**
 * Built-in resources that take fewer writes than the rest (their REST storage): ComponentStatuses
 * are only read, Bindings only created (pods/binding is a subresource, left out here anyway).
 */
const CORE_WRITES: Readonly<Record<string, readonly string[]>> = { componentstatuses: [], bindings: ['CREATE'] };

/**
 * The built-in kinds the rules match, per operation (CONNECT objects are options kinds, and
 * subresources other than status carry other kinds: both are left out).
 */
export function kindScenarios(run: Pick<RunScope, 'discovery'>, rules: readonly (Readonly<RuleWithOperations> | null | undefined)[], owner: Owner, excluded: ReadonlySet<string> = new Set()): KindScenario[] {
  const out = new Map<string, KindScenario>();
  const policy = owner !== 'webhook';
  for (const [key, { info, subresource, operation }] of requests(run, rules)) {
    if (excluded.has(key)) continue;
    // The mutating policy plugin admits CREATE, UPDATE and CONNECT only (mutating/plugin.go Handles).
    if (owner === 'mutating' && operation === 'DELETE') continue;
    if (info.custom || !run.discovery.isKnownBuiltinGroup(info.group) || (subresource !== '' && subresource !== 'status')) continue;
    const shape = kindShape(info.group, info.version, info.kind);
    if (shape === undefined) continue;
    const apiVersion = groupVersion(info.group, info.version);
    const known = { shape, kind: info.kind, apiVersion };
    // namespaceObject: null for a webhook, and for a policy on a cluster-scoped resource.
    const namespaceNull = !policy || !info.namespaced;
    const objects = new Map<'object' | 'oldObject', typeof known>();
    if (operation !== 'DELETE') objects.set('object', known);
    if (operation !== 'CREATE') objects.set('oldObject', known);
    out.set(key, {
      key,
      resource: `${info.resource}${subresource === '' ? '' : `/${subresource}`}${info.group === '' ? '' : ` (${info.group})`}`,
      scenario: {
        operation,
        nulls: new Set([...(operation === 'DELETE' ? ['object' as const] : []), ...(operation === 'CREATE' ? ['oldObject' as const] : []), ...(namespaceNull ? ['namespaceObject' as const] : [])]),
        present: new Set(['request', ...objects.keys(), ...(namespaceNull ? [] : ['namespaceObject'])]),
        objects,
        request: {
          'kind.group': info.group,
          'kind.version': info.version,
          'kind.kind': info.kind,
          'resource.group': info.group,
          'resource.version': info.version,
          'resource.resource': info.resource,
          // Absent from a request for the resource itself (omitempty in AdmissionRequest).
          ...(subresource === '' ? {} : { subResource: subresource }),
        },
        ...(subresource === '' ? { requestAbsent: new Set(['subResource']) } : {}),
      },
    });
  }
  return [...out.values()];
}

/** The requests rules match, by group/version/resource/subresource/operation (CONNECT left out), within each rule's scope. */
export function requests(run: Pick<RunScope, 'discovery'>, rules: readonly (Readonly<RuleWithOperations & { scope?: string }> | null | undefined)[]): Map<string, { info: ResourceInfo; subresource: string; operation: string }> {
  const found = new Map<string, { info: ResourceInfo; subresource: string; operation: string }>();
  for (const rule of rules) {
    if (rule == null) continue;
    const operations = rule.operations ?? [];
    const spelled = withAllGroups(run.discovery, rule);
    for (const entry of rule.resources ?? []) {
      for (const { info, subresource } of entryTargets(run.discovery, spelled, entry ?? '')) {
        if ((rule.scope === 'Namespaced' && !info.namespaced) || (rule.scope === 'Cluster' && info.namespaced)) continue;
        for (const operation of OPERATIONS) {
          // A status subresource is only ever updated.
          if (subresource !== '' && operation !== 'UPDATE') continue;
          if (info.group === '' && subresource === '' && CORE_WRITES[info.resource] !== undefined && !CORE_WRITES[info.resource]!.includes(operation)) continue;
          if (operations.includes('*') || operations.includes(operation)) found.set(`${info.group}/${info.version}/${info.resource}/${subresource}/${operation}`, { info, subresource, operation });
        }
      }
    }
  }
  return found;
}

/** One expression of a webhook or policy, as the evaluator reads it. */
export interface ScenarioSite {
  /** `audit`: an auditAnnotation's valueExpression. */
  readonly role: 'condition' | 'variable' | 'check' | 'audit';
  /** A variable's name. */
  readonly name?: string;
  readonly ast: ASTNode;
}

/** A read that can fail an expression for one scenario. */
export interface ScenarioFailure {
  readonly site: number;
  readonly source: FailureSource;
  readonly node: ASTNode;
  readonly always: boolean;
}

/** The reads of absent fields that can fail the expressions for one scenario: none when a condition is false for it, or past the evaluator's budget. */
export function scenarioFailures(sites: readonly ScenarioSite[], scenario: Scenario, meter: Meter, budget: EvaluationBudget): ScenarioFailure[] {
  // Variables in order: each may read those before it; an error counts where one is read.
  const variables = new Map<string, Abstract>();
  const evaluatorOf = (): AbstractEvaluator => new AbstractEvaluator({ ...scenario, variables: new Map(variables) }, meter, budget);
  for (const site of sites) if (site.role === 'variable' && site.name !== undefined) variables.set(site.name, evaluatorOf().evaluate(site.ast));
  const evaluator = evaluatorOf();
  const evaluated = (role: ScenarioSite['role']) => sites.flatMap((site, index) => (site.role === role ? [{ index, value: evaluator.evaluate(site.ast) }] : []));
  const conditions = evaluated('condition');
  // Any false condition skips the webhook or policy, whatever the others do.
  if (conditions.some(({ value }) => alwaysFalse(value))) return [];
  const checks = [...evaluated('check'), ...evaluated('audit')];
  // Over the budget a failure may be one the expression absorbs: nothing is concluded.
  if (budget.approximated) return [];
  const out: ScenarioFailure[] = [];
  for (const { index, value } of [...conditions, ...checks]) {
    for (const [source, node] of value.errors) {
      if (!isNullFailure(source)) out.push({ site: index, source, node, always: value.values !== undefined && value.values.length === 0 });
    }
  }
  return out;
}


/**
 * What one analysis (a webhook's or policy's expressions over every kind and operation it
 * matches) may spend, in nodes visited: macros are unrolled up to the first, evaluation stops at
 * the second (a pathological policy: 64-element literal lists around 250-term chains, hundreds
 * of variables, over every resource). Real policies stay far below.
 */
export function analysisBudget(): EvaluationBudget {
  return new EvaluationBudget(30_000, 300_000);
}

/**
 * Whether the expression at `site` reads the optional field at `path` (`object.spec.template.spec.volumes`)
 * and fails where the object lacks it, for one of the scenarios whose kind has that field: the
 * field is taken as absent there, and the read counts only where the evaluation reaches it (a
 * condition false for the kind, a branch on `object.kind` not taken, or an error that `&&` or
 * `||` absorbs does not). Undefined when the budget runs out: nothing is concluded.
 */
export function failsWhereAbsent(sites: readonly ScenarioSite[], site: number, scenarios: readonly KindScenario[], path: string, meter: Meter, budget: EvaluationBudget): boolean | undefined {
  const absent = new Set([path]);
  for (const { scenario } of scenarios) {
    const failures = scenarioFailures(sites, { ...scenario, absent }, meter, budget);
    if (budget.approximated) return undefined;
    if (failures.some((failure) => failure.site === site && failure.source === path)) return true;
  }
  return false;
}

/**
 * The requests (as requests() keys them) that a policy's bindings in the run let it see: those
 * each binding's matchResources match (all, without resourceRules), less its exclusions without
 * resourceNames; undefined when no binding of the policy is in the run (what a binding written
 * elsewhere selects is not known). `counts` picks the bindings (those that can reject, say).
 */
export function boundRequests(
  run: Pick<RunScope, 'discovery' | 'policies' | 'memo' | 'kustomizations' | 'kustomizePatches'>,
  policy: PolicyObject,
  counts: (binding: PolicyObject) => boolean = () => true,
): ((key: string) => boolean) | undefined {
  const bindings = policyIndexOf(run)
    .bindingsOf(policy)
    .filter((binding) => binding.decodable && counts(binding));
  if (bindings.length === 0) return undefined;
  const covers = bindings.map((binding) => {
    const match = bindingSpec(binding)?.matchResources;
    const rules = match?.resourceRules ?? [];
    const excluded = new Set(requests(run, (match?.excludeResourceRules ?? []).filter((rule) => (rule?.resourceNames ?? []).length === 0)).keys());
    const matched = rules.length === 0 ? undefined : new Set(requests(run, rules).keys());
    return (key: string): boolean => (matched === undefined || matched.has(key)) && !excluded.has(key);
  });
  return (key) => covers.some((cover) => cover(key));
}
