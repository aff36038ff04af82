/**
 * Abstract evaluation of a matchCondition for the requests on which a variable is null:
 * `object` on DELETE, `oldObject` on CREATE and CONNECT, `namespaceObject` always for webhooks.
 *
 * Each condition is evaluated over its AST for one operation (a Scenario): the null variables
 * are null, `request.operation` is the operation, the other variables are present (not null)
 * with unknown content, and everything else is an unknown value. CEL's logical operators absorb
 * errors (`false && error` is false, `true || error` is true), the ternary takes one branch, and
 * `has(x.f)` and optional selection (`x.?f`) on null are false / none rather than errors (cel-go
 * interpreter/attributes.go refQualify with a presence test). Sub-expressions that only read
 * constants, `request.operation` and the null variables are evaluated exactly with cel-js, within
 * the run's budget. The library must be loaded first (src/cel/library.ts).
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { Meter } from './budget.js';
import { evaluateValue } from './evaluate.js';
import { celModule } from './library.js';
import { LIBRARY_NAMESPACES, ONE_VARIABLE_MACROS, TWO_VARIABLE_MACROS } from './names.js';

export type NullVariable = 'object' | 'oldObject' | 'namespaceObject';

/** A null that came from one of the variables (literal nulls are not tracked). */
class NullOf {
  constructor(readonly variable: NullVariable) {}
}
/** Some value that is certainly not null (object on CREATE, oldObject on UPDATE, request). */
const SOME = Symbol('some non-null value');
type Value = string | number | bigint | boolean | null | NullOf | typeof SOME;

export interface Abstract {
  /** The values it can have; undefined when it can be any value. Empty: it always errors. */
  readonly values: readonly Value[] | undefined;
  /** The null-variable field selections that can make it fail, with the first such node. */
  readonly errors: ReadonlyMap<NullVariable, ASTNode>;
}

export const ANY: Abstract = { values: undefined, errors: new Map() };
const NO_ERRORS: ReadonlyMap<NullVariable, ASTNode> = new Map();

export interface Scenario {
  readonly operation: string;
  readonly nulls: ReadonlySet<NullVariable>;
  /** Variables that are certainly not null for this operation. */
  readonly present: ReadonlySet<string>;
}

/** Type identifiers, constants in an expression (`type(object) == null_type`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

function mergeErrors(...parts: readonly Abstract[]): Map<NullVariable, ASTNode> {
  const errors = new Map<NullVariable, ASTNode>();
  for (const part of parts) {
    for (const [variable, node] of part.errors) {
      const known = errors.get(variable);
      if (known === undefined || node.start < known.start) errors.set(variable, node);
    }
  }
  return errors;
}

/** Strict operators and functions: an error in any operand is the result's error. */
function strict(parts: readonly Abstract[]): Abstract {
  return { values: parts.some((part) => part.values !== undefined && part.values.length === 0) ? [] : undefined, errors: mergeErrors(...parts) };
}

interface Outcomes {
  readonly t: boolean;
  readonly f: boolean;
  readonly e: boolean;
}

function outcomes(value: Abstract): Outcomes {
  return {
    t: value.values === undefined || value.values.includes(true) || value.values.includes(SOME),
    f: value.values === undefined || value.values.includes(false) || value.values.includes(SOME),
    e: value.errors.size > 0,
  };
}

function booleans(t: boolean, f: boolean): Value[] {
  return [...(t ? [true] : []), ...(f ? [false] : [])];
}

function plain(value: Value): Exclude<Value, NullOf> {
  return value instanceof NullOf ? null : value;
}

/** The possible results of a == b: a non-null value of unknown content equals null never, anything else maybe. */
function equal(a: Value, b: Value): boolean[] {
  const x = plain(a);
  const y = plain(b);
  if (x === SOME || y === SOME) return x === null || y === null ? [false] : [true, false];
  if ((typeof x === 'number' || typeof x === 'bigint') && (typeof y === 'number' || typeof y === 'bigint')) return [Number(x) === Number(y)];
  return [x === y];
}

/** False for every request of the scenario (and never an error). */
export function alwaysFalse(value: Abstract): boolean {
  return value.errors.size === 0 && value.values !== undefined && value.values.length > 0 && value.values.every((v) => v === false);
}

function fromConcrete(result: unknown): Abstract {
  if (result === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof result)) return { values: [result as Value], errors: NO_ERRORS };
  return ANY;
}

export class AbstractEvaluator {
  constructor(
    private readonly scenario: Scenario,
    /** The run's meter: the exact sub-evaluations come from a manifest. */
    private readonly meter: Meter,
  ) {}

  /** Reads only literals, request.operation and the scenario's null variables. */
  private closed(node: ASTNode, bound: ReadonlySet<string>): boolean {
    switch (node.op) {
      case 'value':
        return true;
      case 'id':
        return !bound.has(node.args) && (this.scenario.nulls.has(node.args as NullVariable) || TYPE_NAMES.has(node.args));
      case '.':
      case '.?': {
        const [operand, field] = node.args;
        if (operand.op === 'id' && operand.args === 'request' && !bound.has('request')) return node.op === '.' && field === 'operation';
        return this.closed(operand, bound);
      }
      case 'call':
        return node.args[1].every((arg) => this.closed(arg, bound));
      case 'rcall': {
        const [name, receiver, args] = node.args;
        if (ONE_VARIABLE_MACROS.has(name) || TWO_VARIABLE_MACROS.has(name) || name === 'bind') return false;
        const namespace = receiver.op === 'id' && LIBRARY_NAMESPACES.has(receiver.args) && !bound.has(receiver.args);
        return (namespace || this.closed(receiver, bound)) && args.every((arg) => this.closed(arg, bound));
      }
      case 'list':
        return node.args.every((arg) => this.closed(arg, bound));
      case 'map':
        return node.args.every(([key, value]) => this.closed(key, bound) && this.closed(value, bound));
      case '!_':
      case '-_':
        return this.closed(node.args, bound);
      default:
        return (node.args as readonly ASTNode[]).every((arg) => this.closed(arg, bound));
    }
  }

  /** The exact value of a closed sub-expression, or undefined when it fails (then the abstract rules say why). */
  private evaluateExactly(node: ASTNode): Abstract | undefined {
    const module = celModule();
    const run: Record<string, unknown> = { request: { operation: this.scenario.operation } };
    for (const variable of this.scenario.nulls) run[variable] = null;
    // The expression comes from a manifest: evaluated within the budget (over it, the abstract rules answer).
    const result = evaluateValue(module.serialize(node), run, this.meter);
    return result.ok ? fromConcrete(result.value) : undefined;
  }

  evaluate(node: ASTNode, env: ReadonlyMap<string, Abstract> = new Map()): Abstract {
    if (node.op !== 'value' && node.op !== 'id' && this.closed(node, new Set(env.keys()))) {
      const exact = this.evaluateExactly(node);
      if (exact !== undefined) return exact;
    }
    switch (node.op) {
      case 'value': {
        const value = node.args;
        return typeof value === 'object' && value !== null ? ANY : { values: [value as Value], errors: NO_ERRORS };
      }
      case 'id': {
        const bound = env.get(node.args);
        if (bound !== undefined) return bound;
        if (this.scenario.nulls.has(node.args as NullVariable)) return { values: [new NullOf(node.args as NullVariable)], errors: NO_ERRORS };
        if (this.scenario.present.has(node.args)) return { values: [SOME], errors: NO_ERRORS };
        return ANY;
      }
      case '.':
      case '[]': {
        const [operand, key] = node.args;
        if (node.op === '.' && operand.op === 'id' && operand.args === 'request' && key === 'operation' && !env.has('request')) {
          return { values: [this.scenario.operation], errors: NO_ERRORS };
        }
        const target = this.evaluate(operand, env);
        const index = node.op === '[]' ? this.evaluate(key as ASTNode, env) : ANY;
        const errors = mergeErrors(target, index);
        if (target.values === undefined) return { values: undefined, errors };
        for (const value of target.values) {
          if (value instanceof NullOf && !errors.has(value.variable)) errors.set(value.variable, node);
        }
        const reachable = target.values.some((value) => !(value instanceof NullOf));
        // A field of a value: any value (or a "no such key" error this rule does not track).
        return { values: reachable && !(index.values?.length === 0) ? undefined : [], errors };
      }
      case '.?':
        return { values: undefined, errors: this.evaluate(node.args[0], env).errors };
      case '[?]':
        return { values: undefined, errors: mergeErrors(this.evaluate(node.args[0], env), this.evaluate(node.args[1], env)) };
      case 'call': {
        const [name, args] = node.args;
        const selection = args[0];
        if (name === 'has' && args.length === 1 && selection?.op === '.') {
          // has(x.f) on a null x is false, not an error; x itself is evaluated normally.
          const target = this.evaluate(selection.args[0], env);
          const onlyNull = target.values !== undefined && target.values.length > 0 && target.values.every((value) => value instanceof NullOf);
          return { values: target.values?.length === 0 ? [] : onlyNull ? [false] : [true, false], errors: target.errors };
        }
        return strict(args.map((arg) => this.evaluate(arg, env)));
      }
      case 'rcall':
        return this.evaluateMethod(node, env);
      case 'list':
        return strict(node.args.map((arg) => this.evaluate(arg, env)));
      case 'map':
        return strict(node.args.flatMap(([key, value]) => [this.evaluate(key, env), this.evaluate(value, env)]));
      case '!_': {
        const operand = this.evaluate(node.args, env);
        return { values: operand.values?.map((value) => (typeof value === 'boolean' ? !value : value === SOME ? SOME : value)), errors: operand.errors };
      }
      case '-_':
        return strict([this.evaluate(node.args, env)]);
      case '&&':
      case '||': {
        const left = this.evaluate(node.args[0], env);
        const right = this.evaluate(node.args[1], env);
        const a = outcomes(left);
        const b = outcomes(right);
        // The absorbing value (false for &&, true for ||) wins over an error on either side.
        const and = node.op === '&&';
        const absorbA = and ? a.f : a.t;
        const absorbB = and ? b.f : b.t;
        const passA = and ? a.t : a.f;
        const passB = and ? b.t : b.f;
        const errorFromA = a.e && (passB || b.e);
        const errorFromB = b.e && (passA || a.e);
        const absorbing = absorbA || absorbB;
        const passing = passA && passB;
        return {
          values: and ? booleans(passing, absorbing) : booleans(absorbing, passing),
          errors: mergeErrors(...(errorFromA ? [left] : []), ...(errorFromB ? [right] : [])),
        };
      }
      case '?:': {
        const [condition, then, otherwise] = node.args;
        const test = this.evaluate(condition, env);
        const branch = outcomes(test);
        const taken = [...(branch.t ? [this.evaluate(then, env)] : []), ...(branch.f ? [this.evaluate(otherwise, env)] : [])];
        const values = taken.some((part) => part.values === undefined) ? undefined : taken.flatMap((part) => part.values ?? []);
        return { values, errors: mergeErrors(test, ...taken) };
      }
      case '==':
      case '!=': {
        const left = this.evaluate(node.args[0], env);
        const right = this.evaluate(node.args[1], env);
        const errors = mergeErrors(left, right);
        if (left.values?.length === 0 || right.values?.length === 0) return { values: [], errors };
        if (left.values === undefined || right.values === undefined) return { values: undefined, errors };
        const results = new Set<boolean>();
        for (const x of left.values) for (const y of right.values) for (const same of equal(x, y)) results.add(same === (node.op === '=='));
        return { values: [...results], errors };
      }
      case 'in': {
        const [element, list] = node.args;
        const needle = this.evaluate(element, env);
        if (list.op === 'list' && needle.values !== undefined && needle.values.length > 0) {
          const items = list.args.map((item) => this.evaluate(item, env));
          if (items.every((item) => item.values !== undefined && item.values.length === 1)) {
            const members = items.map((item) => item.values![0]!);
            const results = new Set<boolean>();
            for (const value of needle.values) {
              const matches = members.map((member) => equal(value, member));
              if (matches.some((possible) => possible.includes(true))) results.add(true);
              if (matches.every((possible) => possible.includes(false))) results.add(false);
            }
            return { values: [...results], errors: mergeErrors(needle, ...items) };
          }
        }
        return strict([needle, this.evaluate(list, env)]);
      }
      default:
        return strict((node.args as readonly ASTNode[]).map((arg) => this.evaluate(arg, env)));
    }
  }

  private evaluateMethod(node: Extract<ASTNode, { op: 'rcall' }>, env: ReadonlyMap<string, Abstract>): Abstract {
    const [name, receiver, args] = node.args;
    const namespace = receiver.op === 'id' && LIBRARY_NAMESPACES.has(receiver.args) && !env.has(receiver.args);
    if (namespace) {
      if (receiver.args === 'cel' && name === 'bind' && args.length === 3 && args[0]!.op === 'id') {
        // cel.bind(v, init, body): init is evaluated first, then body with v bound to it.
        const init = this.evaluate(args[1]!, env);
        const body = this.evaluate(args[2]!, new Map([...env, [args[0]!.args as string, init]]));
        return { values: body.values, errors: mergeErrors(init, body) };
      }
      return strict(args.map((arg) => this.evaluate(arg, env)));
    }
    const target = this.evaluate(receiver, env);
    let boundCount = 0;
    if (TWO_VARIABLE_MACROS.has(name) && args.length >= 3 && args[0]!.op === 'id' && args[1]!.op === 'id') boundCount = 2;
    else if (ONE_VARIABLE_MACROS.has(name) && args.length >= 2 && args[0]!.op === 'id') boundCount = 1;
    if (boundCount > 0) {
      const inner = new Map(env);
      for (const variable of args.slice(0, boundCount)) inner.set(variable.args as string, ANY);
      const body = args.slice(boundCount).map((arg) => this.evaluate(arg, inner));
      return { values: target.values?.length === 0 ? [] : undefined, errors: mergeErrors(target, ...body) };
    }
    return strict([target, ...args.map((arg) => this.evaluate(arg, env))]);
  }
}
