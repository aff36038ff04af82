/**
 * Abstract evaluation of a matchCondition for the requests on which a variable is null:
 * `object` on DELETE, `oldObject` on CREATE and CONNECT, `namespaceObject` always for webhooks;
 * and, when the scenario gives the object's kind (`objects`), for the fields that kind never has
 * (src/kube/fields.ts): selecting one is an error, and `has()` of it is false.
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
import { fieldShape, type FieldShape } from '../kube/fields.js';

export type NullVariable = 'object' | 'oldObject' | 'namespaceObject';

/**
 * What can make a value fail: a null variable's field selected (its name), or a field the
 * object's kind never has (its path from the variable, `object.spec.template`).
 */
export type FailureSource = NullVariable | `${'object' | 'oldObject'}.${string}`;

export function isNullFailure(source: FailureSource): source is NullVariable {
  return !source.includes('.');
}

/** A null that came from one of the variables (literal nulls are not tracked). */
class NullOf {
  constructor(readonly variable: NullVariable) {}
}
/** Some value that is certainly not null (object on CREATE, oldObject on UPDATE, request). */
const SOME = Symbol('some non-null value');
/** A part of an object whose kind is known: a struct, list or map of known fields, with its path from the variable. */
class Shaped {
  constructor(
    readonly path: string,
    readonly shape: FieldShape,
    /** It may be null: a nil pointer, list or map that its type writes without omitempty. */
    readonly nullable = false,
  ) {}
}
/**
 * An optional (`x.?f`) over a shaped struct: whether it holds a value (undefined: it may or may
 * not), and what it holds when that is known here.
 */
class OptionalOf {
  constructor(
    readonly present: boolean | undefined,
    readonly inner: Shaped | string | undefined,
  ) {}
}
/** A list of known scalars, or a map's keys (a literal, or a variable holding one): `in` and macros over it are evaluated element by element. */
class KnownList {
  constructor(readonly items: readonly (string | number | bigint | boolean | null)[]) {}
}
type Value = string | number | bigint | boolean | null | NullOf | typeof SOME | Shaped | OptionalOf | KnownList;

export interface Abstract {
  /** The values it can have; undefined when it can be any value. Empty: it always errors. */
  readonly values: readonly Value[] | undefined;
  /** What can make it fail, with the first such node. */
  readonly errors: ReadonlyMap<FailureSource, ASTNode>;
}

export const ANY: Abstract = { values: undefined, errors: new Map() };
const NO_ERRORS: ReadonlyMap<FailureSource, ASTNode> = new Map();

export interface Scenario {
  readonly operation: string;
  readonly nulls: ReadonlySet<NullVariable>;
  /** Variables that are certainly not null for this operation. */
  readonly present: ReadonlySet<string>;
  /** Object variables of a known kind (present ones), with their shape, kind and apiVersion. */
  readonly objects?: ReadonlyMap<'object' | 'oldObject', { readonly shape: FieldShape; readonly kind: string; readonly apiVersion: string }>;
  /** Fields of `request` known for the scenario besides `operation`, by path (`kind.kind`, `resource.resource`). */
  readonly request?: Readonly<Record<string, string>>;
  /** Fields of `request` known to be absent (`subResource` on a request for the resource itself). */
  readonly requestAbsent?: ReadonlySet<string>;
  /** The policy's variables, evaluated for the scenario (an error counts where one is read). */
  readonly variables?: ReadonlyMap<string, Abstract>;
  /**
   * Fields taken as absent from this object (`object.spec.template.spec.volumes`: an optional one
   * that it lacks), as a field the kind never has is: selecting one is an error of that source,
   * `has()` of it false. Lets a rule ask whether an expression reads an optional field where the
   * object may lack it (src/match/kind-scenarios.ts).
   */
  readonly absent?: ReadonlySet<string>;
}

/** Type identifiers, constants in an expression (`type(object) == null_type`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

function mergeErrors(...parts: readonly Abstract[]): Map<FailureSource, ASTNode> {
  const errors = new Map<FailureSource, ASTNode>();
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

/** A value of unknown content: any boolean as far as the logic is concerned. */
const unknownContent = (value: Value): boolean => value === SOME || value instanceof Shaped || value instanceof OptionalOf || value instanceof KnownList;

function outcomes(value: Abstract): Outcomes {
  return {
    t: value.values === undefined || value.values.includes(true) || value.values.some(unknownContent),
    f: value.values === undefined || value.values.includes(false) || value.values.some(unknownContent),
    e: value.errors.size > 0,
  };
}

function booleans(t: boolean, f: boolean): Value[] {
  return [...(t ? [true] : []), ...(f ? [false] : [])];
}

function plain(value: Value): Exclude<Value, NullOf | Shaped | OptionalOf | KnownList> {
  return value instanceof NullOf ? null : value instanceof Shaped || value instanceof OptionalOf || value instanceof KnownList ? SOME : value;
}

/** The possible results of a == b: a non-null value of unknown content equals null never, anything else maybe. */
function equal(a: Value, b: Value): boolean[] {
  // A part of an object may be null when its type writes it without omitempty and it is unset.
  if (a instanceof OptionalOf && b instanceof OptionalOf) {
    // optional.none() equals only an empty optional; two that hold values may differ.
    if (a.present === false && b.present === false) return [true];
    if ((a.present === false && b.present === true) || (a.present === true && b.present === false)) return [false];
    return [true, false];
  }
  // An optional equals no value of another type (cel-go Optional.Equal); a value of unknown content may be an optional.
  if (a instanceof OptionalOf || b instanceof OptionalOf) return plain(a) === SOME && plain(b) === SOME && !(a instanceof Shaped) && !(b instanceof Shaped) ? [true, false] : [false];
  if ((a instanceof Shaped && a.nullable) || (b instanceof Shaped && b.nullable)) return [true, false];
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

/** `left && right` (and) or `left || right`: the absorbing value (false for &&, true for ||) wins over an error on either side. */
function logical(and: boolean, left: Abstract, right: Abstract): Abstract {
  const a = outcomes(left);
  const b = outcomes(right);
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

/** The most elements of a literal list that `all` and `exists` are evaluated over one by one. */
const UNROLLED_ELEMENTS = 64;
/**
 * What evaluations may spend, shared by the evaluators of one analysis. Past `unrollVisits` nodes
 * visited, macros are no longer evaluated element by element (nested macros over literal lists
 * would otherwise multiply: seven `.all()` over 20 elements are 20^7 visits), and the result is
 * approximated; past `maxVisits`, evaluation stops (every value is unknown).
 */
export class EvaluationBudget {
  visits = 0;
  /** A macro was left unknown, or evaluation stopped: an error found may be one the expression absorbs. */
  approximated = false;

  constructor(
    readonly unrollVisits = 5_000,
    readonly maxVisits = Number.POSITIVE_INFINITY,
  ) {}
}

const isScalar = (value: unknown): value is string | number | bigint | boolean | null => value === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof value);

function fromConcrete(result: unknown): Abstract {
  if (isScalar(result)) return { values: [result], errors: NO_ERRORS };
  // A small list of scalars stays known, also through a variable (`variables.kinds = ['Deployment', …]`).
  if (Array.isArray(result) && result.length > 0 && result.length <= UNROLLED_ELEMENTS && result.every(isScalar)) return { values: [new KnownList(result)], errors: NO_ERRORS };
  // A map's keys, for `in` and the macros, which range over them.
  if (result instanceof Map && result.size > 0 && result.size <= UNROLLED_ELEMENTS && [...result.keys()].every(isScalar)) return { values: [new KnownList([...result.keys()])], errors: NO_ERRORS };
  // cel-js gives a map with string keys as a plain object.
  if (result !== null && typeof result === 'object' && Object.getPrototypeOf(result) === Object.prototype) {
    const keys = Object.keys(result);
    if (keys.length > 0 && keys.length <= UNROLLED_ELEMENTS) return { values: [new KnownList(keys)], errors: NO_ERRORS };
  }
  return ANY;
}

export class AbstractEvaluator {
  /** closed() of nodes, by the names bound where asked: asked at every node, so remembered. */
  private readonly closedCache = new WeakMap<ASTNode, Map<string, boolean>>();

  constructor(
    private readonly scenario: Scenario,
    /** The run's meter: the exact sub-evaluations come from a manifest. */
    private readonly meter: Meter,
    /** Shared by the evaluators of one analysis; by default this evaluator's own. */
    private readonly budget: EvaluationBudget = new EvaluationBudget(),
  ) {}

  /** Whether the unroll budget ran out (an unrolled macro was left unknown) or evaluation stopped. */
  private get overUnrollBudget(): boolean {
    if (this.budget.visits < this.budget.unrollVisits) return false;
    this.budget.approximated = true;
    return true;
  }

  /** The value of a known field of `request` that `node` selects (`request.kind.kind`), or undefined. */
  private requestField(node: ASTNode, bound: ReadonlySet<string> | ReadonlyMap<string, unknown>): string | undefined {
    const path: string[] = [];
    let at = node;
    while (at.op === '.') {
      path.unshift(at.args[1]);
      at = at.args[0];
    }
    if (at.op !== 'id' || at.args !== 'request' || bound.has('request') || path.length === 0) return undefined;
    const joined = path.join('.');
    return joined === 'operation' ? this.scenario.operation : this.scenario.request?.[joined];
  }

  /** Whether `node` selects a field of `request` that the scenario's requests lack. */
  private requestAbsent(node: ASTNode, bound: ReadonlySet<string> | ReadonlyMap<string, unknown>): boolean {
    const path: string[] = [];
    let at = node;
    while (at.op === '.') {
      path.unshift(at.args[1]);
      at = at.args[0];
    }
    return at.op === 'id' && at.args === 'request' && !bound.has('request') && this.scenario.requestAbsent?.has(path.join('.')) === true;
  }

  /** Reads only literals, known fields of request and the scenario's null variables. */
  private closed(node: ASTNode, bound: ReadonlySet<string>): boolean {
    const key = bound.size === 0 ? '' : [...bound].sort().join(' ');
    let byBound = this.closedCache.get(node);
    if (byBound === undefined) {
      byBound = new Map();
      this.closedCache.set(node, byBound);
    }
    let known = byBound.get(key);
    if (known === undefined) {
      known = this.closedUncached(node, bound);
      byBound.set(key, known);
    }
    return known;
  }

  private closedUncached(node: ASTNode, bound: ReadonlySet<string>): boolean {
    switch (node.op) {
      case 'value':
        return true;
      case 'id':
        return !bound.has(node.args) && (this.scenario.nulls.has(node.args as NullVariable) || TYPE_NAMES.has(node.args));
      case '.':
      case '.?': {
        if (node.op === '.' && this.requestField(node, bound) !== undefined) return true;
        // The matched kind's object.kind and object.apiVersion are known (see evaluateExactly).
        if (node.op === '.' && node.args[0].op === 'id' && !bound.has(node.args[0].args) && (node.args[1] === 'kind' || node.args[1] === 'apiVersion') && this.scenario.objects?.has(node.args[0].args as 'object' | 'oldObject')) return true;
        // A field of a null variable is an error, which the abstract rules give the same way,
        // without cel-js building the error (at every such node of a long expression).
        if (node.op === '.' && node.args[0].op === 'id' && !bound.has(node.args[0].args) && this.scenario.nulls.has(node.args[0].args as NullVariable)) return false;
        let root = node.args[0];
        while (root.op === '.' || root.op === '.?') root = root.args[0];
        if (root.op === 'id' && root.args === 'request' && !bound.has('request')) return false;
        return this.closed(node.args[0], bound);
      }
      case 'call':
        return node.args[1].every((arg) => this.closed(arg, bound));
      case 'rcall': {
        const [name, receiver, args] = node.args;
        if (ONE_VARIABLE_MACROS.has(name) || TWO_VARIABLE_MACROS.has(name) || name === 'bind') return false;
        // Optionals are followed by the abstract rules (their presence), not as cel-js values.
        if (receiver.op === 'id' && receiver.args === 'optional' && !bound.has('optional')) return false;
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
    const request: Record<string, unknown> = { operation: this.scenario.operation };
    for (const [path, value] of Object.entries(this.scenario.request ?? {})) {
      const steps = path.split('.');
      let at = request;
      for (const step of steps.slice(0, -1)) at = (at[step] ??= {}) as Record<string, unknown>;
      at[steps[steps.length - 1]!] = value;
    }
    const run: Record<string, unknown> = { request };
    for (const [variable, { kind, apiVersion }] of this.scenario.objects ?? []) run[variable] = { kind, apiVersion };
    for (const variable of this.scenario.nulls) run[variable] = null;
    // The expression comes from a manifest: evaluated within the budget (over it, the abstract rules answer).
    const result = evaluateValue(module.serialize(node), run, this.meter);
    return result.ok ? fromConcrete(result.value) : undefined;
  }

  evaluate(node: ASTNode, env: ReadonlyMap<string, Abstract> = new Map()): Abstract {
    if (++this.budget.visits > this.budget.maxVisits) {
      this.budget.approximated = true;
      return ANY;
    }
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
        const known = this.scenario.objects?.get(node.args as 'object' | 'oldObject');
        if (known !== undefined) return { values: [new Shaped(node.args, known.shape)], errors: NO_ERRORS };
        if (this.scenario.present.has(node.args)) return { values: [SOME], errors: NO_ERRORS };
        return ANY;
      }
      case '.':
      case '[]': {
        const [operand, key] = node.args;
        if (node.op === '.') {
          const known = this.requestField(node, env);
          if (known !== undefined) return { values: [known], errors: NO_ERRORS };
          if (operand.op === 'id' && operand.args === 'variables' && !env.has('variables')) {
            const variable = this.scenario.variables?.get(key as string);
            if (variable !== undefined) return variable;
          }
        }
        const target = this.evaluate(operand, env);
        const index = node.op === '[]' ? this.evaluate(key as ASTNode, env) : ANY;
        const errors = mergeErrors(target, index);
        if (target.values === undefined) return { values: undefined, errors };
        // The field's name, when it is one: `.f`, or an index by a single string.
        const name = node.op === '.' ? (key as string) : index.values?.length === 1 && typeof index.values[0] === 'string' ? index.values[0] : undefined;
        const values: Value[] = [];
        let unknown = false;
        for (const value of target.values) {
          if (value instanceof NullOf) {
            if (!errors.has(value.variable)) errors.set(value.variable, node);
          } else if (value instanceof OptionalOf && name !== undefined) {
            // After `.?`, a plain selection chains the optional: none where the field is not there.
            const selected = this.optionalSelect(value, name);
            if (selected === undefined) unknown = true;
            else values.push(selected);
          } else if (value instanceof Shaped) {
            const selected = this.select(value, node.op === '.' ? name : undefined, name);
            if (selected === 'absent') {
              const source = `${value.path}.${name!}` as FailureSource;
              if (!errors.has(source)) errors.set(source, node);
            } else if (selected === undefined) unknown = true;
            else values.push(selected);
          } else {
            unknown = true;
          }
        }
        if (index.values?.length === 0) return { values: [], errors };
        // A field of a value: any value (or a "no such key" error this rule does not track).
        return { values: unknown ? undefined : values, errors };
      }
      case '.?': {
        const target = this.evaluate(node.args[0], env);
        const field = node.args[1];
        const selected = target.values !== undefined && target.values.length > 0 ? target.values.map((value) => this.optionalSelect(value, field)) : [];
        return { values: selected.length > 0 && selected.every((value) => value !== undefined) ? (selected as OptionalOf[]) : undefined, errors: target.errors };
      }
      case '[?]': {
        const target = this.evaluate(node.args[0], env);
        const index = this.evaluate(node.args[1], env);
        const errors = mergeErrors(target, index);
        // `x[?'f']` by a known string is `x.?f`.
        const field = index.values?.length === 1 && typeof index.values[0] === 'string' ? index.values[0] : undefined;
        const selected = field !== undefined && target.values !== undefined && target.values.length > 0 ? target.values.map((value) => this.optionalSelect(value, field)) : [];
        return { values: selected.length > 0 && selected.every((value) => value !== undefined) ? (selected as OptionalOf[]) : undefined, errors };
      }
      case 'call': {
        const [name, args] = node.args;
        const selection = args[0];
        if (name === 'has' && args.length === 1 && selection?.op === '.') {
          // has(x.f) on a null x is false, not an error; x itself is evaluated normally. So is
          // has() of a field x's kind never has; of one it always has, true.
          if (this.requestField(selection, env) !== undefined) return { values: [true], errors: NO_ERRORS };
          if (this.requestAbsent(selection, env)) return { values: [false], errors: NO_ERRORS };
          const target = this.evaluate(selection.args[0], env);
          const field = selection.args[1];
          if (target.values === undefined) return { values: [true, false], errors: target.errors };
          // has(x.?f.g) tests as has(x.f.g) does (cel-go plans the test-only selection on the optional chain).
          const presenceOf = (value: Value): boolean | undefined => (value instanceof NullOf ? false : value instanceof OptionalOf ? this.optionalSelect(value, field)?.present : this.presence(value, field));
          const results = new Set(target.values.map(presenceOf));
          const values = results.has(undefined) ? [true, false] : [...results].filter((r): r is boolean => r !== undefined);
          return { values: target.values.length === 0 ? [] : values, errors: target.errors };
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
      case '||':
        return logical(node.op === '&&', this.evaluate(node.args[0], env), this.evaluate(node.args[1], env));
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
        const container = this.evaluate(list, env);
        const known = container.values?.length === 1 && container.values[0] instanceof KnownList ? container.values[0] : undefined;
        if (known !== undefined && needle.values !== undefined && needle.values.length > 0) {
          const results = new Set<boolean>();
          for (const value of needle.values) {
            const matches = known.items.map((member) => equal(value, member));
            if (matches.some((possible) => possible.includes(true))) results.add(true);
            if (matches.every((possible) => possible.includes(false))) results.add(false);
          }
          return { values: [...results], errors: mergeErrors(needle, container) };
        }
        // `'f' in object.spec`: a presence test, answered as has(object.spec.f) is.
        const name = needle.values?.length === 1 && typeof needle.values[0] === 'string' ? needle.values[0] : undefined;
        if (name !== undefined && container.values !== undefined && container.values.length > 0 && container.errors.size === 0 && needle.errors.size === 0) {
          const presence = new Set(container.values.map((value) => this.presence(value, name)));
          if (!presence.has(undefined)) return { values: [...presence] as boolean[], errors: NO_ERRORS };
        }
        return strict([needle, container]);
      }
      default:
        return strict((node.args as readonly ASTNode[]).map((arg) => this.evaluate(arg, env)));
    }
  }

  /** Whether a shaped struct has the field: false when its kind never has it, true when it always does, else undefined. */
  private presence(value: Value, field: string): boolean | undefined {
    if (!(value instanceof Shaped) || value.shape.kind !== 'struct' || /^__.*__$/.test(field)) return undefined;
    const root = this.scenario.objects?.get(value.path as 'object' | 'oldObject');
    if (root !== undefined && (field === 'kind' || field === 'apiVersion')) return true;
    const found = fieldShape(value.shape, field);
    if (found.declared && !found.required && this.scenario.absent?.has(`${value.path}.${field}`) === true) return false;
    return !found.declared ? false : found.required ? true : undefined;
  }

  /** `value.?field` over a shaped struct or an optional of one, or undefined when not known here. */
  private optionalSelect(value: Value, field: string): OptionalOf | undefined {
    if (value instanceof OptionalOf && value.present === false) return value;
    const base = value instanceof OptionalOf ? (value.inner instanceof Shaped ? value.inner : undefined) : value instanceof Shaped ? value : undefined;
    const basePresent = value instanceof OptionalOf ? value.present : true;
    if (base === undefined || base.shape.kind !== 'struct' || /^__.*__$/.test(field)) return undefined;
    const known = this.presence(base, field);
    if (known === false) return new OptionalOf(false, undefined);
    // The root's kind and apiVersion: known values (`object.?kind.orValue('')`).
    const root = this.scenario.objects?.get(base.path as 'object' | 'oldObject');
    if (root !== undefined && (field === 'kind' || field === 'apiVersion')) return new OptionalOf(basePresent === true ? true : undefined, root[field]);
    const found = fieldShape(base.shape, field);
    const present = known === true && basePresent === true ? true : undefined;
    return new OptionalOf(present, found.shape === undefined ? undefined : new Shaped(`${base.path}.${field}`, found.shape, found.nullable === true));
  }

  /**
   * What selecting `field` (or indexing by `key`) of a shaped value gives: 'absent' for a field
   * its struct never has, the shape of the value, or undefined when not known here. The root's
   * kind and apiVersion are known.
   */
  private select(value: Shaped, field: string | undefined, key: string | undefined): Value | 'absent' | undefined {
    const { shape } = value;
    if (shape.kind === 'struct') {
      if (key === undefined) return undefined;
      const root = this.scenario.objects?.get(value.path as 'object' | 'oldObject');
      if (root !== undefined && (key === 'kind' || key === 'apiVersion')) return root[key];
      // An escaped name (`__namespace__`) is left alone: how it maps to a field is not modelled.
      if (/^__.*__$/.test(key)) return undefined;
      const found = fieldShape(shape, key);
      if (!found.declared) return 'absent';
      if (!found.required && this.scenario.absent?.has(`${value.path}.${key}`) === true) return 'absent';
      return found.shape === undefined ? undefined : new Shaped(`${value.path}.${key}`, found.shape, found.nullable === true);
    }
    // A list element or a map value: its shape (a missing index or key is not tracked here).
    if (field !== undefined && shape.kind === 'list') return undefined;
    return shape.element === undefined ? undefined : new Shaped(`${value.path}${shape.kind === 'list' ? '[]' : `.${key ?? '*'}`}`, shape.element);
  }

  /** What a macro's variables hold for the values it iterates: the element of a shaped list, the values of a shaped map. */
  private iterated(target: Abstract, variables: number): Abstract[] {
    const shaped = target.values !== undefined && target.values.length === 1 && target.values[0] instanceof Shaped ? target.values[0] : undefined;
    const element = shaped && shaped.shape.kind !== 'struct' ? shaped.shape.element : undefined;
    const elementValue: Abstract = shaped && element ? { values: [new Shaped(`${shaped.path}[]`, element)], errors: NO_ERRORS } : ANY;
    if (shaped?.shape.kind === 'list') return variables === 2 ? [ANY, elementValue] : [elementValue];
    if (shaped?.shape.kind === 'map') return variables === 2 ? [ANY, elementValue] : [ANY];
    return variables === 2 ? [ANY, ANY] : [ANY];
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
      if (receiver.args === 'optional' && name === 'none' && args.length === 0) return { values: [new OptionalOf(false, undefined)], errors: NO_ERRORS };
      if (receiver.args === 'optional' && name === 'of' && args.length === 1) {
        const held = this.evaluate(args[0]!, env);
        const values = held.values?.map((value) => new OptionalOf(true, value instanceof Shaped ? value : undefined));
        return { values: values === undefined || values.length === 0 ? (held.values?.length === 0 ? [] : undefined) : values, errors: held.errors };
      }
      return strict(args.map((arg) => this.evaluate(arg, env)));
    }
    const target = this.evaluate(receiver, env);
    const optionals = target.values !== undefined && target.values.length > 0 && target.values.every((value) => value instanceof OptionalOf) ? (target.values as OptionalOf[]) : undefined;
    if (optionals !== undefined && (name === 'orValue' || name === 'or' || name === 'value') && args.length === (name === 'value' ? 0 : 1)) {
      // An optional whose presence is known: value() and orValue give what it holds; orValue's
      // and or's argument is evaluated only when it holds nothing (cel-go's optional library
      // evaluates them lazily), so its errors count only then.
      const present = optionals.every((optional) => optional.present === true);
      const fallback = name !== 'value' && !present ? this.evaluate(args[0]!, env) : undefined;
      const errors = mergeErrors(target, ...(fallback ? [fallback] : []));
      if (fallback !== undefined && optionals.every((optional) => optional.present === false)) return { values: fallback.values, errors };
      if (name === 'or') return { values: present ? optionals : fallback?.values === undefined ? undefined : [...optionals, ...fallback.values], errors };
      if (present && optionals.every((optional) => optional.inner !== undefined)) return { values: optionals.map((optional) => optional.inner!), errors };
      return { values: undefined, errors };
    }
    if (name === 'hasValue' && args.length === 0 && target.values !== undefined && target.values.length > 0 && target.values.every((value) => value instanceof OptionalOf)) {
      const present = new Set((target.values as OptionalOf[]).map((value) => value.present));
      return { values: present.has(undefined) ? [true, false] : ([...present] as boolean[]), errors: target.errors };
    }
    let boundCount = 0;
    if (TWO_VARIABLE_MACROS.has(name) && args.length >= 3 && args[0]!.op === 'id' && args[1]!.op === 'id') boundCount = 2;
    else if (ONE_VARIABLE_MACROS.has(name) && args.length >= 2 && args[0]!.op === 'id') boundCount = 1;
    const knownList = target.values?.length === 1 && target.values[0] instanceof KnownList ? target.values[0] : undefined;
    const literal = receiver.op === 'list' && receiver.args.length > 0 && receiver.args.length <= UNROLLED_ELEMENTS;
    const unrollable = boundCount === 1 && (name === 'all' || name === 'exists') && (literal || knownList !== undefined) && args.length === 2;
    if (unrollable && !this.overUnrollBudget) {
      // Over a literal list of known values (`['Deployment', 'Job'].all(k, object.kind != k)`),
      // each element in turn: all folds with &&, exists with || (cel-go's macros absorb errors so).
      const elements: Abstract[] = knownList !== undefined ? knownList.items.map((item) => ({ values: [item], errors: NO_ERRORS })) : (receiver.args as ASTNode[]).map((element) => this.evaluate(element, env));
      if (elements.every((element) => element.values?.length === 1 && element.errors.size === 0)) {
        const variable = args[0]!.args as string;
        const results: Abstract[] = [];
        for (const element of elements) {
          if (this.overUnrollBudget) return ANY;
          results.push(this.evaluate(args[1]!, new Map([...env, [variable, element]])));
        }
        return results.reduce((folded, result) => logical(name === 'all', folded, result));
      }
    }
    const struct = target.values?.length === 1 && target.values[0] instanceof Shaped && target.values[0].shape.kind === 'struct' ? target.values[0].shape : undefined;
    const keysUnrollable = boundCount === 1 && (name === 'all' || name === 'exists') && args.length === 2 && struct !== undefined && target.errors.size === 0;
    if (keysUnrollable && !this.overUnrollBudget) {
      // Over the keys of a struct (`object.spec.exists(k, k == 'template')`): each field its kind
      // declares, which the object has always, never, or maybe; a key it may lack adds the
      // neutral value (false for exists, true for all) to what the body gives for it.
      const variable = args[0]!.args as string;
      const all = name === 'all';
      const owner = target.values![0] as Shaped;
      const results: Abstract[] = [];
      for (const field of Object.keys(struct.fields)) {
        if (this.overUnrollBudget) return ANY;
        const body = this.evaluate(args[1]!, new Map([...env, [variable, { values: [field], errors: NO_ERRORS }]]));
        results.push(this.presence(owner, field) === true ? body : { values: body.values === undefined ? undefined : [...new Set([...body.values, all])], errors: body.errors });
      }
      if (results.length > 0) return results.reduce((folded, result) => logical(all, folded, result));
    }
    if (boundCount > 0) {
      const inner = new Map(env);
      const held = this.iterated(target, boundCount);
      args.slice(0, boundCount).forEach((variable, position) => inner.set(variable.args as string, held[position]!));
      const body = args.slice(boundCount).map((arg) => this.evaluate(arg, inner));
      return { values: target.values?.length === 0 ? [] : undefined, errors: mergeErrors(target, ...body) };
    }
    return strict([target, ...args.map((arg) => this.evaluate(arg, env))]);
  }
}
