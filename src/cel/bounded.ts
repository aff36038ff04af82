/**
 * Evaluation of CEL from manifests with bounded work: cel-js runs every node through its
 * evaluator's `run`, so a meter there charges each node and the size of what it produces, and
 * stops the evaluation when the budget is spent (src/cel/budget.ts). `matches` is run by RE2
 * (src/cel/re2.ts) instead of cel-js's JS RegExp. ASTs deeper than MAX_AST_DEPTH are not
 * evaluated, so the interpreter's recursion stays within the stack.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { BoundedCache } from '../cache.js';
import { registerAuthorizerLibrary } from './authorizer.js';
import { OVER_BUDGET, OverBudget, PER_CALL_LIMIT, type Budget, type Meter } from './budget.js';
import { collapseUnaryRuns, MAX_AST_DEPTH, measureDepth, RECURSION_LIMIT_MESSAGE } from './depth.js';
import { sizeLimitExceeded } from './check/parser.js';
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

/** Charges every node the evaluator runs to the meter of the evaluation in progress. */
function instrument(evaluator: Evaluator, activeMeter: () => Meter): void {
  evaluator.run = function run(this: Evaluator, ast: RunNode, ctx: unknown): unknown {
    const meter = activeMeter();
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
  /** Evaluates within PerCallLimit, the run's meter and the shared budget, if any. */
  evaluate(expression: string, context: Record<string, unknown>, meter: Meter, shared?: Budget): Evaluation;
}

type Program = ((context: Record<string, unknown>) => unknown) & { ast: ASTNode };

export function boundedCel(module: CelModule): BoundedCel {
  const environment = new module.Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });
  // `authorizer` is given only where its answers are known (src/cel/authorizer.ts).
  registerAuthorizerLibrary(environment);
  // The meter of the evaluation in progress: set for the length of one synchronous evaluation.
  let active: Meter | undefined;
  instrument(evaluatorOf(environment), () => {
    if (active === undefined) throw new Error('a CEL node ran outside a metered evaluation');
    return active;
  });
  // Parsed programs, or why there is none: they depend on the expression only.
  const programs = new BoundedCache<string, Program | string>();
  const ast = new WeakMap<Program, ASTNode>();

  const program = (expression: string): Program | string =>
    programs.get(expression, () => {
      let entry: Program | string;
      // Past cel-go's size limit the API server rejects it unread (src/cel/check/parser.ts).
      if (sizeLimitExceeded(expression) !== undefined) return 'over the size limit';
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
      return entry;
    });

  return {
    parse(expression) {
      const entry = program(expression);
      return typeof entry === 'string' ? undefined : ast.get(entry);
    },
    evaluate(expression, context, meter, shared) {
      const entry = program(expression);
      if (typeof entry === 'string') return { ok: false, reason: entry };
      if (meter.overBudget.has(expression) || (shared !== undefined && shared.remaining <= 0)) return { ok: false, reason: OVER_BUDGET };
      meter.start(Math.min(PER_CALL_LIMIT, shared?.remaining ?? PER_CALL_LIMIT));
      let result: Evaluation;
      active = meter;
      // cel-js throws an error for every "no such key" that `||`, `&&` and quantifiers then absorb,
      // and V8 captures a stack for each: none is ever read (an error becomes a reason below), and
      // on expressions that absorb thousands of them the capture was most of the run (s41c H5).
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        result = { ok: true, value: entry(context) };
      } catch (error) {
        result = { ok: false, reason: error instanceof OverBudget ? OVER_BUDGET : error instanceof RangeError ? OVER_BUDGET : 'evaluation error' };
      } finally {
        active = undefined;
        Error.stackTraceLimit = stackTraceLimit;
      }
      const used = meter.stop();
      if (shared !== undefined) shared.remaining -= used;
      // cel-js absorbs errors in `||`, `&&` and quantifiers: a result reached past the budget does not count.
      if (meter.exceeded) {
        meter.overBudget.add(expression);
        return { ok: false, reason: OVER_BUDGET };
      }
      return result;
    },
  };
}
