/**
 * A webhook matchCondition, or a policy's matchCondition, validation or mutation, that selects a
 * field the matched built-in kind does not have (`object.spec.template` on a Pod, a misspelt
 * `object.spec.replica`). The API server decodes built-in objects into their Go types, so no
 * other field ever reaches the object CEL reads: the selection is a "no such key" error on every
 * request that reaches it, decided by failurePolicy (Fail rejects, Ignore skips). The API server
 * type-checks a policy's expressions against the matched kinds only to write warnings in its
 * status (`undefined field`); the policy is created and runs.
 *
 * Each expression is evaluated abstractly (src/cel/abstract.ts) once per matched kind and
 * operation, with the object's fields from src/kube/fields.ts: `has()` of a field the kind lacks
 * is false, `object.kind` and `request.kind` are the matched kind's, `&&` and `||` absorb errors
 * as CEL does, and a matchCondition false for the kind means the expressions never run for it.
 * So `has(object.spec.template) ? object.spec.template.spec : object.spec` is fine for Pods and
 * Deployments alike, and a guard placed on another path is not.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { FailureSource } from '../src/cel/abstract.js';
import { celMeterOf } from '../src/cel/budget.js';
import { analysisBudget, boundRequests, kindScenarios, requests, scenarioFailures, type KindScenario, type Owner, type ScenarioFailure, type ScenarioSite } from '../src/match/kind-scenarios.js';
import { memoKey } from '../src/run-scope.js';
import type { ExpressionKind } from '../src/cel/check/index.js';
import { admissionCompile } from '../src/cel/compile.js';
import { parseBounded } from '../src/cel/evaluate.js';
import type { FieldPath } from '../src/field-path.js';
import { bindingCanReject, describePolicyObject, isBinding, policySpec } from '../src/model/policies.js';
import type { PolicyObject } from '../src/model/objects.js';
import type { RuleWithOperations } from '../src/model/types.js';
import { POLICY_KINDS } from '../src/model/types.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { rememberedCompileError } from '../src/validate/webhook-api.js';
import { elideMiddle, joinWords } from '../src/text/list.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Severity, type Violation } from '../src/rule.js';

type MessageId = 'webhook' | 'policy';

/** One expression: where it is, how the message names it, and its AST (an `audit` site's error denies under Fail whatever the binding's validationActions). */
interface Site extends ScenarioSite {
  readonly path: FieldPath;
  readonly label: string;
}

/** A failing read: the expression (its index among the sites), the first node, and the operations and resources where it fails. */
interface Failure {
  readonly site: number;
  readonly node: ASTNode;
  /** The requests it fails, as requests() keys them. */
  readonly keys: Set<string>;
  readonly where: Set<string>;
  readonly operations: Set<string>;
  always: boolean;
}


/**
 * The reads of fields a matched kind does not have that can fail an expression, by the path
 * read (`object.spec.template`): one cause, one finding, at the first expression that reads it.
 */
function failures(run: RuleRun, sites: readonly Site[], scenarios: readonly KindScenario[]): Map<FailureSource, Failure> {
  const found = new Map<FailureSource, Failure>();
  const meter = celMeterOf(run);
  const mention = (word: string): boolean => sites.some((site) => site.ast.input.includes(word));
  // On DELETE only oldObject has fields: without it, those requests fail no read reported here.
  const readsOldObject = mention('oldObject');
  // Without oldObject and request.operation, an UPDATE is evaluated as a CREATE of the same resource.
  const sameOnUpdate = !readsOldObject && !mention('operation');
  const byResource = new Map<string, ScenarioFailure[]>();
  // One budget for the whole analysis: once it runs out, nothing more is concluded.
  const budget = analysisBudget();
  for (const { key, scenario, resource } of scenarios) {
    if (scenario.operation === 'DELETE' && !readsOldObject) continue;
    let results = sameOnUpdate ? byResource.get(resource) : undefined;
    if (results === undefined) {
      results = scenarioFailures(sites, scenario, meter, budget);
      if (budget.approximated) break;
      if (sameOnUpdate) byResource.set(resource, results);
    }
    for (const { site, source, node, always } of results) {
      const known = found.get(source);
      if (known === undefined) {
        found.set(source, { site, node, keys: new Set([key]), where: new Set([resource]), operations: new Set([scenario.operation]), always });
      } else {
        known.keys.add(key);
        known.where.add(resource);
        known.operations.add(scenario.operation);
        known.always &&= always;
      }
    }
  }
  return found;
}

/** What the analysis of one webhook or policy found, remembered per run for others written alike (copies of one webhook, generated policies). */
const ANALYSES = memoKey<Map<string, Map<FailureSource, Failure>>>('undefined-field analyses by expressions and rules');

function analysed(run: RuleRun, sites: readonly Site[], rules: readonly unknown[], owner: Owner, exclusions: readonly unknown[] = []): Map<FailureSource, Failure> {
  const cache = run.memo.get(ANALYSES, () => new Map());
  const key = JSON.stringify([owner, rules, exclusions, sites.map((site) => [site.role, site.name ?? null, site.ast.input])]);
  let result = cache.get(key);
  if (result === undefined) {
    const excluded = new Set(requests(run, exclusions as readonly (Readonly<RuleWithOperations> | null)[]).keys());
    result = failures(run, sites, kindScenarios(run, rules as readonly (Readonly<RuleWithOperations> | null)[], owner, excluded));
    cache.set(key, result);
  }
  return result;
}

/** The type that lacks the field, from the path read: `object.spec.template` → the field "template". */
function fieldName(source: FailureSource): string {
  return source.slice(source.lastIndexOf('.') + 1);
}

function describe(failure: Failure, source: FailureSource, sites: readonly Site[]): Record<string, string> {
  return {
    site: sites[failure.site]!.label,
    access: elideMiddle(failure.node.input.slice(failure.node.start, failure.node.end), 60),
    field: fieldName(source),
    fails: failure.always ? 'fails' : 'can fail',
    requests: `${joinWords([...failure.operations], 'and')} of ${joinWords([...failure.where].slice(0, 3), 'and')}${failure.where.size > 3 ? ` and ${failure.where.size - 3} more` : ''}`,
  };
}

/** One finding per site: its first failing read, and how many other paths fail there. */
function perSite(found: Map<FailureSource, Failure>): { failure: Failure; source: FailureSource; more: number }[] {
  const bySite = new Map<number, { failure: Failure; source: FailureSource; more: number }>();
  for (const [source, failure] of found) {
    const first = bySite.get(failure.site);
    if (first === undefined) bySite.set(failure.site, { failure, source, more: 0 });
    else if (failure.node.start < first.failure.node.start) bySite.set(failure.site, { failure, source, more: first.more + 1 });
    else first.more += 1;
  }
  return [...bySite.values()];
}

const moreText = (more: number): string => (more === 0 ? '' : ` (+${more} more)`);

/**
 * Whether a binding of the policy in the run can reject one of these requests: a validating one
 * with Deny, or a mutating one, whose matchResources (when it has resourceRules) match one of
 * them (the API server runs a policy where both it and the binding match). For an error in an
 * auditAnnotation (`anyAction`), every binding can: the dispatcher denies it under Fail whatever
 * the binding's validationActions (k8s.io/apiserver plugin/policy/validating/dispatcher.go,
 * AuditAnnotationActionError).
 */
function enforcingBinding(run: RuleRun, policy: PolicyObject, keys: ReadonlySet<string>, anyAction: boolean): boolean {
  const bound = boundRequests(run, policy, (binding) => anyAction || bindingCanReject(binding));
  return bound !== undefined && [...keys].some(bound);
}

export const rule = defineObjectRule({
  meta: {
    id: 'undefined-field',
    title: 'A matchCondition or policy expression selects a field the matched built-in kind does not have',
    severity: 'error',
    aboutCalls: true,
    appliesTo: [...ALL_WEBHOOK_KINDS, ...POLICY_KINDS],
    messages: {
      webhook: '{{site}} of webhook "{{webhook}}": {{access}} {{fails}} on {{requests}}: they have no field "{{field}}"{{more}}',
      policy: '{{site}} of {{policy}}: {{access}} {{fails}} on {{requests}}: they have no field "{{field}}"{{more}}',
    },
    help: "A built-in object has only the fields of its type: selecting any other is a CEL error on every request that reaches it, and failurePolicy decides (Fail, the API default, rejects; Ignore skips the webhook or policy). Select the field where the kind has it (a Pod's containers are object.spec.containers, a Deployment's object.spec.template.spec.containers), test for it with has() before reading it, or split the expression with a ternary on has() or object.kind.",
  },
  create(run) {
    const compiles = (expression: string, kind: ExpressionKind, params: boolean, composed: ReadonlyMap<string, undefined> | undefined): boolean =>
      admissionCompile(expression, { kind, kubeVersion: run.kubeVersion, params, ...(composed === undefined ? {} : { composed }) }).error === undefined;
    const parsed = (expression: string): ASTNode | undefined => (expression.trim() === '' ? undefined : parseBounded(expression));

    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooksOf(object)) {
          const sites: Site[] = [];
          (entry.webhook.matchConditions ?? []).forEach((condition, index) => {
            const expression = condition?.expression?.trim() ?? '';
            // Empty or not compiling: api-validation reports it.
            const ast = expression === '' || rememberedCompileError(expression) !== undefined ? undefined : parsed(expression);
            if (ast !== undefined) sites.push({ path: [...entry.path, 'matchConditions', index, 'expression'], label: `matchCondition "${condition?.name || `matchConditions[${index}]`}"`, role: 'condition', ast });
          });
          if (sites.length === 0) continue;
          for (const { failure, source, more } of perSite(analysed(run, sites, entry.webhook.rules ?? [], 'webhook'))) {
            violations.push({
              messageId: 'webhook',
              data: { ...describe(failure, source, sites), webhook: elideMiddle(entry.label, 48), more: moreText(more) },
              path: sites[failure.site]!.path,
              // With Ignore, the webhook is skipped for those requests: it never sees them.
              ...(entry.webhook.failurePolicy === 'Ignore' ? { severity: 'warning' as Severity } : {}),
            });
          }
        }
        return violations;
      },
      policy(object) {
        if (isBinding(object)) return [];
        const spec = policySpec(object);
        if (spec === undefined) return [];
        const mutating = object.kind === 'MutatingAdmissionPolicy';
        const prefix = mutating ? 'mutating' : 'validating';
        const params = spec.paramKind != null;
        const sites: Site[] = [];
        // Variables compose in order (a validating policy composes only when it has some); their
        // types are left to the API server's checker, as unknown.
        const composition = mutating || (spec.variables ?? []).length > 0;
        const composed = new Map<string, undefined>();
        const add = (path: FieldPath, label: string, role: Site['role'], kind: ExpressionKind, expression: string | undefined, name?: string): void => {
          const text = expression ?? '';
          const withComposition = composition && role !== 'condition' ? new Map(composed) : undefined;
          const ast = text.trim() === '' || !compiles(text, kind, params, withComposition) ? undefined : parsed(text);
          if (ast !== undefined) sites.push({ path, label, role, ast, ...(name === undefined ? {} : { name }) });
        };
        (spec.matchConditions ?? []).forEach((condition, index) =>
          add(['spec', 'matchConditions', index, 'expression'], `matchCondition "${condition?.name || `matchConditions[${index}]`}"`, 'condition', `${prefix}.matchCondition` as ExpressionKind, condition?.expression),
        );
        (spec.variables ?? []).forEach((variable, index) => {
          add(['spec', 'variables', index, 'expression'], `variable "${variable?.name ?? ''}"`, 'variable', `${prefix}.variable` as ExpressionKind, variable?.expression, variable?.name ?? '');
          composed.set(variable?.name ?? '', undefined);
        });
        if (mutating) {
          (spec.mutations ?? []).forEach((mutation, index) => {
            const field = mutation?.patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration';
            const patch = mutation?.patchType === 'JSONPatch' ? mutation.jsonPatch : mutation?.applyConfiguration;
            add(['spec', 'mutations', index, field, 'expression'], `mutations[${index}]`, 'check', `mutating.${field}` as ExpressionKind, patch?.expression);
          });
        } else {
          const validations = (spec as { validations?: readonly ({ expression?: string } | null)[] }).validations ?? [];
          validations.forEach((validation, index) => add(['spec', 'validations', index, 'expression'], `validations[${index}]`, 'check', 'validating.validation', validation?.expression));
          // An auditAnnotation that errors fails the request under Fail, as a validation does (a
          // messageExpression that errors only falls back to the message).
          const auditAnnotations = (spec as { auditAnnotations?: readonly ({ key?: string; valueExpression?: string } | null)[] }).auditAnnotations ?? [];
          auditAnnotations.forEach((annotation, index) =>
            add(['spec', 'auditAnnotations', index, 'valueExpression'], `auditAnnotation "${annotation?.key || `auditAnnotations[${index}]`}"`, 'audit', 'validating.auditAnnotation', annotation?.valueExpression),
          );
        }
        if (!sites.some((site) => site.role !== 'variable')) return [];
        // Requests an exclusion takes away for every object (no resourceNames) are not evaluated.
        const exclusions = (spec.matchConstraints?.excludeResourceRules ?? []).filter((excluded) => (excluded?.resourceNames ?? []).length === 0);
        const found = perSite(analysed(run, sites, spec.matchConstraints?.resourceRules ?? [], mutating ? 'mutating' : 'validating', exclusions));
        if (found.length === 0) return [];
        // An error when a binding of the run can reject those requests with it; without one the policy's effect is not known here.
        return found.map(({ failure, source, more }) => {
          const severity: Severity | undefined = spec.failurePolicy === 'Ignore' || !enforcingBinding(run, object, failure.keys, sites[failure.site]!.role === 'audit') ? 'warning' : undefined;
          return {
            messageId: 'policy' as MessageId,
            data: { ...describe(failure, source, sites), policy: describePolicyObject(object), more: moreText(more) },
            path: sites[failure.site]!.path,
            ...(severity === undefined ? {} : { severity }),
          };
        });
      },
    };
  },
});
