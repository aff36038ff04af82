/**
 * A matchCondition that selects a field of a variable that is null for some of the requests
 * the webhook matches: `object` on DELETE, `oldObject` on CREATE and CONNECT, and
 * `namespaceObject` always (webhooks are evaluated without it, facts §5 step 5). Selecting a
 * field of null is a CEL runtime error ("no such key"), and an erroring condition with no
 * false one rejects the request with 403 under failurePolicy Fail.
 *
 * Each condition is evaluated abstractly (src/cel/abstract.ts) for each such operation. Since
 * the API server skips a webhook when any condition is false, even if others errored
 * (matchconditions/matcher.go), a condition that is false for every such request protects all
 * the others.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { isEmptySelector } from '../src/match/selector.js';
import { isDefaulted, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { AbstractEvaluator, alwaysFalse, ANY, isNullFailure, type Abstract, type NullVariable, type Scenario } from '../src/cel/abstract.js';
import { celMeterOf } from '../src/cel/budget.js';
import { parseBounded } from '../src/cel/evaluate.js';
import { rememberedCompileError } from '../src/validate/webhook-api.js';
import { joinWords } from '../src/text/list.js';

type MessageId = NullVariable;

interface Failure {
  readonly node: ASTNode;
  readonly operations: string[];
  always: boolean;
}

/** Per run: each expression is checked and parsed once, and evaluated once per operation (webhooks share their matchConditions). */
interface RunCache {
  readonly asts: Map<string, ASTNode | undefined>;
  readonly results: Map<ASTNode, Map<string, Abstract>>;
}

/** The expression's AST as the API server parses it, or undefined when it does not compile (api-validation reports it). */
function compiledAst(expression: string, cache: RunCache): ASTNode | undefined {
  if (cache.asts.has(expression)) return cache.asts.get(expression);
  const ast = rememberedCompileError(expression) !== undefined ? undefined : parseBounded(expression);
  cache.asts.set(expression, ast);
  return ast;
}

/** evaluator.evaluate(ast), remembered per AST and scenario (a scenario is its operation; the evaluation is pure). */
function evaluated(evaluator: AbstractEvaluator, scenario: Scenario, ast: ASTNode, cache: RunCache): Abstract {
  let byOperation = cache.results.get(ast);
  if (byOperation === undefined) {
    byOperation = new Map();
    cache.results.set(ast, byOperation);
  }
  let value = byOperation.get(scenario.operation);
  if (value === undefined) {
    value = evaluator.evaluate(ast);
    byOperation.set(scenario.operation, value);
  }
  return value;
}

/** The operations a webhook's rules match and what is null for each (facts §4, §5). */
function scenarios(entry: WebhookEntry): Scenario[] {
  const operations = new Set((entry.webhook.rules ?? []).flatMap((rule) => rule?.operations ?? []));
  const all = operations.has('*');
  const has = (operation: string): boolean => all || operations.has(operation);
  const out: Scenario[] = [];
  if (has('CREATE')) out.push({ operation: 'CREATE', nulls: new Set(['oldObject', 'namespaceObject']), present: new Set(['object', 'request']) });
  if (has('UPDATE')) out.push({ operation: 'UPDATE', nulls: new Set(['namespaceObject']), present: new Set(['object', 'oldObject', 'request']) });
  if (has('DELETE')) out.push({ operation: 'DELETE', nulls: new Set(['object', 'namespaceObject']), present: new Set(['oldObject', 'request']) });
  // CONNECT sends the options as object and no old object; a non-empty objectSelector never matches it.
  if (has('CONNECT') && isEmptySelector(entry.webhook.objectSelector)) {
    out.push({ operation: 'CONNECT', nulls: new Set(['oldObject', 'namespaceObject']), present: new Set(['object', 'request']) });
  }
  return out;
}

function list(items: readonly string[]): string {
  return joinWords(items);
}

function consequence(object: WebhookConfigurationObject, entry: WebhookEntry): string {
  if (entry.webhook.failurePolicy === 'Ignore') return 'with failurePolicy Ignore the webhook is skipped for them';
  const defaulted = isDefaulted(object, [...entry.path, 'failurePolicy']) ? ' (the API default)' : '';
  return `with failurePolicy Fail${defaulted} the API server rejects each of them with 403 Forbidden before calling the webhook`;
}

export const rule = defineObjectRule({
  meta: {
    id: 'match-condition-null-object',
    title: 'A matchCondition dereferences object on DELETE (or oldObject on CREATE) without a null guard',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      object: 'matchCondition "{{condition}}" of webhook "{{webhook}}": {{access}} {{fails}} on {{operations}} (object is null)',
      oldObject: 'matchCondition "{{condition}}" of webhook "{{webhook}}": {{access}} {{fails}} on {{operations}} (oldObject is null)',
      namespaceObject: 'matchCondition "{{condition}}" of webhook "{{webhook}}": {{access}} {{fails}} on {{operations}} (null for webhooks)',
    },
    help: "When a matchCondition errors (and none is false), failurePolicy decides: Ignore skips the webhook for that request, Fail (the API default) rejects it with 403 Forbidden before the webhook is called. namespaceObject is always null in a webhook's matchConditions (only admission policies get the Namespace). Guard the access in the same expression (object != null && …, request.operation != 'DELETE' && …, or optional selection object.?spec.orValue(…)), or add a condition that is false for those requests, such as request.operation != 'DELETE'.",
  },
  create(run) {
    const cache: RunCache = { asts: new Map(), results: new Map() };
    const meter = celMeterOf(run);
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooksOf(object)) {
          const conditions = (entry.webhook.matchConditions ?? []).map((condition, index) => {
            const expression = condition?.expression?.trim() ?? '';
            // Empty or not compiling: api-validation reports it.
            const ast = expression === '' ? undefined : compiledAst(expression, cache);
            return { index, name: condition?.name || `matchConditions[${index}]`, ast };
          });
          if (!conditions.some((condition) => condition.ast !== undefined)) continue;
          // condition index → variable → the first failing node, the operations, whether it always fails there
          const failures = new Map<number, Map<NullVariable, Failure>>();
          for (const scenario of scenarios(entry)) {
            const evaluator = new AbstractEvaluator(scenario, meter);
            const results = conditions.map((condition) => ({ condition, value: condition.ast ? evaluated(evaluator, scenario, condition.ast, cache) : ANY }));
            // Any false condition skips the webhook, whatever the others do.
            if (results.some(({ value }) => alwaysFalse(value))) continue;
            for (const { condition, value } of results) {
              for (const [variable, node] of value.errors) {
                // Its scenarios give no kinds: every failure is a null variable's.
                if (!isNullFailure(variable)) continue;
                const byVariable = failures.get(condition.index) ?? new Map<NullVariable, Failure>();
                failures.set(condition.index, byVariable);
                const always = value.values !== undefined && value.values.length === 0;
                const known = byVariable.get(variable);
                if (known) {
                  known.operations.push(scenario.operation);
                  known.always &&= always;
                } else {
                  byVariable.set(variable, { node, operations: [scenario.operation], always });
                }
              }
            }
          }
          for (const [index, byVariable] of [...failures].sort(([a], [b]) => a - b)) {
            const condition = conditions[index]!;
            for (const [variable, { node, operations, always }] of byVariable) {
              violations.push({
                messageId: variable,
                data: {
                  webhook: entry.label,
                  condition: condition.name,
                  access: node.input.slice(node.start, node.end),
                  operations: list(operations),
                  fails: always ? 'fails' : 'can fail',
                  consequence: consequence(object, entry),
                },
                path: [...entry.path, 'matchConditions', index, 'expression'],
                // With Ignore, a condition that errors skips the webhook: what a false condition does.
                ...(entry.webhook.failurePolicy === 'Ignore' ? { severity: 'info' as const } : {}),
              });
            }
          }
        }
        return violations;
      },
    };
  },
});
