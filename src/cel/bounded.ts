/**
 * Evaluation of CEL from manifests with bounded work: cel-js runs every node through its
 * evaluator's `run`, so a meter there charges each node and the size of what it produces, and
 * stops the evaluation when the budget is spent (src/cel/budget.ts). `matches` is run by RE2
 * (src/cel/re2.ts) instead of cel-js's JS RegExp. ASTs deeper than MAX_AST_DEPTH are not
 * evaluated, so the interpreter's recursion stays within the stack.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { meter, OVER_BUDGET, OverBudget, PER_CALL_LIMIT, type Budget } from './budget.js';
import { collapseUnaryRuns, MAX_AST_DEPTH, measureDepth, RECURSION_LIMIT_MESSAGE } from './depth.js';
import { matchesCost, re2Matches } from './re2.js';

type CelModule = typeof import('@marcbachmann/cel-js');

export type Evaluation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

interface Evaluator {
  run(ast: RunNode, ctx: unknown): unknown;
}

interface RunNode {
  op: string;
  args: unknown;
  evaluate(ev: Evaluator, ast: RunNode, ctx: unknown): unknown;
}

/** The Evaluator instance of an environment: functions are called with it as `this`. */
function evaluatorOf(environment: Environment): Evaluator {
  let captured: Evaluator | undefined;
  environment.registerFunction('celBudgetProbe(): bool', function (this: Evaluator) {
    captured = this;
    return true;
  });
  environment.evaluate('celBudgetProbe()');
  if (captured === undefined) throw new Error('cel-js did not expose its evaluator');
  return captured;
}

/** `s.matches(p)` or `matches(s, p)`: the receiver and pattern nodes. */
function matchesOperands(node: RunNode): [RunNode, RunNode] | undefined {
  if (node.op === 'rcall') {
    const [name, receiver, args] = node.args as [string, RunNode, RunNode[]];
    if (name === 'matches' && args.length === 1) return [receiver, args[0]!];
  } else if (node.op === 'call') {
    const [name, args] = node.args as [string, RunNode[]];
    if (name === 'matches' && args.length === 2) return [args[0]!, args[1]!];
  }
  return undefined;
}

function instrument(evaluator: Evaluator): void {
  evaluator.run = function run(this: Evaluator, ast: RunNode, ctx: unknown): unknown {
    meter.charge(1);
    const matches = matchesOperands(ast);
    if (matches !== undefined) {
      const s = this.run(matches[0], ctx);
      const pattern = this.run(matches[1], ctx);
      if (typeof s !== 'string' || typeof pattern !== 'string') throw new Error('no such overload: matches');
      meter.charge(matchesCost(s, pattern));
      return re2Matches(s, pattern);
    }
    const value = ast.evaluate(this, ast, ctx);
    meter.chargeValue(value);
    return value;
  };
}

export interface BoundedCel {
  /** Parses as the API server reads it (unary runs collapsed); undefined on a syntax error or an AST too deep to walk. */
  parse(expression: string): ASTNode | undefined;
  /** Evaluates within `limit` (PerCallLimit by default) and the shared budget, if any. */
  evaluate(expression: string, context: Record<string, unknown>, shared?: Budget): Evaluation;
}

type Program = ((context: Record<string, unknown>) => unknown) & { ast: ASTNode };

export function boundedCel(module: CelModule): BoundedCel {
  const environment = new module.Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });
  instrument(evaluatorOf(environment));
  // Parsed programs, or why there is none (bounded: cleared when full).
  const programs = new Map<string, Program | string>();
  const ast = new WeakMap<Program, ASTNode>();
  // Expressions that ran out of budget once: evaluating them again for another request would
  // spend the budget again for an answer that is likely the same (unknown is the safe side).
  const overBudget = new Set<string>();
  const MAX_REMEMBERED = 10_000;

  const program = (expression: string): Program | string => {
    let entry = programs.get(expression);
    if (entry === undefined) {
      try {
        const text = collapseUnaryRuns(expression);
        // cel-js evaluates the root node itself, not through `run`: a list around it puts it under the meter.
        const parsed = environment.parse(`[${text}\n][0]`) as unknown as Program;
        const depth = measureDepth(parsed.ast);
        // Past cel-go's recursion limit the API server rejects it: it never runs.
        entry = depth.overRecursionLimit ? RECURSION_LIMIT_MESSAGE : depth.depth > MAX_AST_DEPTH ? OVER_BUDGET : parsed;
        // The AST callers walk is the expression's own.
        ast.set(parsed, environment.parse(text).ast);
      } catch {
        entry = 'syntax error';
      }
      if (programs.size >= MAX_REMEMBERED) programs.clear();
      programs.set(expression, entry);
    }
    return entry;
  };

  return {
    parse(expression) {
      const entry = program(expression);
      return typeof entry === 'string' ? undefined : ast.get(entry);
    },
    evaluate(expression, context, shared) {
      const entry = program(expression);
      if (typeof entry === 'string') return { ok: false, reason: entry };
      if (overBudget.has(expression) || (shared !== undefined && shared.remaining <= 0)) return { ok: false, reason: OVER_BUDGET };
      meter.start(Math.min(PER_CALL_LIMIT, shared?.remaining ?? PER_CALL_LIMIT));
      let result: Evaluation;
      try {
        result = { ok: true, value: entry(context) };
      } catch (error) {
        result = { ok: false, reason: error instanceof OverBudget ? OVER_BUDGET : error instanceof RangeError ? OVER_BUDGET : 'evaluation error' };
      }
      const used = meter.stop();
      if (shared !== undefined) shared.remaining -= used;
      // cel-js absorbs errors in `||`, `&&` and quantifiers: a result reached past the budget does not count.
      if (meter.exceeded) {
        if (overBudget.size >= MAX_REMEMBERED) overBudget.clear();
        overBudget.add(expression);
        return { ok: false, reason: OVER_BUDGET };
      }
      return result;
    },
  };
}
