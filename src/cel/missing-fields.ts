/**
 * Reads of optional fields without a guard: where an admission expression selects a field of
 * `object` or `oldObject` that an object can lack (src/cel/optional-fields.ts), or indexes
 * labels or annotations with a key they can lack, and nothing in the expression (or in the
 * conditions guarding it) tests for it first. Such a read is a CEL runtime error ("no such key")
 * on the objects without the field.
 *
 * The analysis works on cel-go's AST (src/cel/check/parser.ts), following paths from the two
 * variables through selections, list indexes and the iteration variables of macros
 * (`object.spec.containers.all(c, c.securityContext…)`). It says less when unsure:
 *  - a path is guarded when a presence test for it appears anywhere in the expression or in the
 *    other expressions given as guards (the matchConditions that decide whether it runs, the
 *    variables it may read): `has(…)`, optional selection or indexing (`.?f`, `[?'k']`),
 *    `'k' in …`; a key is guarded when its name appears as a string anywhere else
 *    (`labels.exists(k, k == 'team')`); where the test stands (`&&`, `||`, a ternary) is not
 *    weighed, so a misplaced guard hides the read too;
 *  - everything read through an optional value (`object.?spec.initContainers`, `.orValue(…)`)
 *    is safe;
 *  - paths through variables, params, bound values or computed keys are not followed.
 */
import { children, type Expr } from './check/ast.js';
import type { OptionalFields, Optionality } from './optional-fields.js';

/** The variables whose fields are followed. */
const ROOTS: ReadonlySet<string> = new Set(['object', 'oldObject']);

export interface UnguardedRead {
  /** How the read is written, e.g. `object.metadata.labels['team']` or `c.securityContext`. */
  readonly access: string;
  /** The path from the root variable, e.g. `object.spec.containers[].securityContext`. */
  readonly path: string;
  /** What the objects lack: the field (and, for an index, maybe the key too) or only the key. */
  readonly missing: Optionality | 'field-or-key';
  /** The field or key name that is missing. */
  readonly name: string;
  /** Where cel-go places the selection (its '.', or the '[' of an index). */
  readonly offset: number;
  /** The path that is absent, as segments from the root (`['object', 'spec', 'containers', '[]', 'resources']`); for `field-or-key`, the map's. */
  readonly segments: readonly string[];
  /** For a JSON Patch operation that needs the path (unguardedPatchTargets): its op and path as written. */
  readonly patch?: { readonly op: string; readonly pointer: string };
}

/** A value the analysis follows: a path from a root, how it is written, and whether it is optional (reads through it are safe). */
interface Tracked {
  readonly root: string;
  readonly segments: readonly string[];
  readonly text: string;
}

type Scope = ReadonlyMap<string, Tracked | undefined>;

const keyOf = (root: string, segments: readonly string[]): string => [root, ...segments].join('.');

/** How presenceTests records a string literal that may test for a key (`labels.exists(k, k == 'team')`). */
const literalGuard = (value: string): string => `'${value}'`;

/**
 * Presence tests anywhere in these expressions, as path keys (`object.metadata.labels`,
 * `object.metadata.labels.team`); and every string literal that is not itself an index, which
 * counts as a test for that key of any map (`labels.exists(k, k == 'team')`,
 * `labels.filter(k, k.startsWith('team'))`…: the ways to test for a key are many, so any mention
 * of it is taken as one).
 */
export function presenceTests(exprs: readonly Expr[]): Set<string> {
  const guards = new Set<string>();
  const indexes = new Set<Expr>();
  const visit = (e: Expr, scope: Scope): void => {
    if (e.kind === 'call' && (e.fn === '_[_]' || e.fn === '_[?_]') && e.args.length === 2) indexes.add(e.args[1]!);
    if (e.kind === 'literal' && e.type === 'string' && !indexes.has(e)) guards.add(literalGuard(e.value as string));
    const mark = (operand: Expr, name: string): void => {
      // Through optional steps too: `.?labels[?'k']` tests for labels.k as `has()` would.
      const tracked = follow(operand, scope, true);
      if (tracked) guards.add(keyOf(tracked.root, [...tracked.segments, name]));
    };
    if (e.kind === 'select' && e.testOnly) mark(e.operand, e.field);
    if (e.kind === 'call') {
      if (e.fn === '_?._' && e.args.length === 2 && e.args[1]!.kind === 'literal' && typeof e.args[1]!.value === 'string') mark(e.args[0]!, e.args[1]!.value);
      if (e.fn === '_[?_]' && e.args.length === 2 && e.args[1]!.kind === 'literal' && typeof e.args[1]!.value === 'string') mark(e.args[0]!, e.args[1]!.value);
      if (e.fn === '@in' && e.args.length === 2 && e.args[0]!.kind === 'literal' && typeof e.args[0]!.value === 'string') mark(e.args[1]!, e.args[0]!.value);
    }
    walkChildren(e, scope, visit);
  };
  for (const e of exprs) visit(e, new Map());
  return guards;
}

/**
 * The tracked value an expression stands for, when it is a plain path from a root; with
 * `optional`, also through optional steps (`.?f`, `[?'k']`), for what a presence test names.
 */
function follow(e: Expr, scope: Scope, optional = false): Tracked | undefined {
  switch (e.kind) {
    case 'ident':
      if (scope.has(e.name)) return scope.get(e.name);
      return ROOTS.has(e.name) ? { root: e.name, segments: [], text: e.name } : undefined;
    case 'select': {
      if (e.testOnly) return undefined;
      const operand = follow(e.operand, scope, optional);
      return operand && { root: operand.root, segments: [...operand.segments, e.field], text: `${operand.text}.${e.field}` };
    }
    case 'call': {
      if (optional && (e.fn === '_?._' || e.fn === '_[?_]') && e.args.length === 2 && e.args[1]!.kind === 'literal' && typeof e.args[1]!.value === 'string') {
        const operand = follow(e.args[0]!, scope, true);
        const name = e.args[1]!.value;
        return operand && { root: operand.root, segments: [...operand.segments, name], text: `${operand.text}.?${name}` };
      }
      if (e.fn !== '_[_]' || e.args.length !== 2) return undefined;
      const operand = follow(e.args[0]!, scope, optional);
      const index = e.args[1]!;
      if (operand === undefined || index.kind !== 'literal') return undefined;
      if (index.type === 'string') return { root: operand.root, segments: [...operand.segments, index.value as string], text: `${operand.text}[${JSON.stringify(index.value).replace(/^"|"$/g, "'")}]` };
      if (index.type === 'int' || index.type === 'uint') return { root: operand.root, segments: [...operand.segments, '[]'], text: `${operand.text}[${String(index.value)}]` };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Visits the children of `e`, with the comprehension's variables bound (to the element path of its range, or to nothing). */
function walkChildren(e: Expr, scope: Scope, visit: (child: Expr, scope: Scope) => void): void {
  if (e.kind !== 'comprehension') {
    if (e.kind === 'select') visit(e.operand, scope);
    else if (e.kind === 'call') {
      if (e.target) visit(e.target, scope);
      for (const arg of e.args) visit(arg, scope);
    } else if (e.kind === 'list') e.elements.forEach((x) => visit(x, scope));
    else if (e.kind === 'map') e.entries.forEach((entry) => (visit(entry.key, scope), visit(entry.value, scope)));
    else if (e.kind === 'struct') e.fields.forEach((f) => visit(f.value, scope));
    return;
  }
  visit(e.iterRange, scope);
  visit(e.accuInit, scope);
  const range = follow(e.iterRange, scope);
  const inner = new Map(scope);
  // The element of a list (the second variable of a two-variable macro over a list); a map's keys and values are not followed.
  const element: Tracked | undefined = range && { root: range.root, segments: [...range.segments, '[]'], text: '' };
  const elementVar = e.iterVar2 ?? e.iterVar;
  inner.set(e.iterVar, undefined);
  if (e.iterVar2 !== undefined) inner.set(e.iterVar2, undefined);
  if (element) inner.set(elementVar, { ...element, text: elementVar });
  inner.set(e.accuVar, undefined);
  visit(e.loopCondition, inner);
  visit(e.loopStep, inner);
  const afterLoop = new Map(scope);
  afterLoop.set(e.accuVar, undefined);
  visit(e.result, afterLoop);
}

/**
 * The reads in `expr` of fields (or label and annotation keys) that `fields` says an object can
 * lack, with no presence test for them in `guards` (presenceTests of this expression and of
 * those that guard it). One read per path, the first.
 */
export function unguardedReads(expr: Expr, fields: OptionalFields, guards: ReadonlySet<string>): UnguardedRead[] {
  if (!fields.known) return [];
  const reads = new Map<string, UnguardedRead & { readonly node: Expr }>();
  const add = (read: UnguardedRead, node: Expr): void => {
    if (!reads.has(read.path)) reads.set(read.path, { ...read, node });
  };
  const visit = (e: Expr, scope: Scope): void => {
    const guardedUnder = (root: string) => (prefix: readonly string[]) => guards.has(keyOf(root, prefix));
    // Presence tests and optional steps read their operand, not their last field or key.
    if (e.kind === 'select' && !e.testOnly) {
      const operand = follow(e.operand, scope);
      if (operand) {
        const segments = [...operand.segments, e.field];
        const key = keyOf(operand.root, segments);
        if (!guards.has(key) && fields.lookup(segments, false, guardedUnder(operand.root)) === 'field') {
          add({ access: `${operand.text}.${e.field}`, path: displayPath(operand.root, segments), missing: 'field', name: e.field, offset: e.offset, segments: [operand.root, ...segments] }, e);
        }
      }
    }
    if (e.kind === 'call' && e.fn === '_[_]' && e.args.length === 2 && e.args[1]!.kind === 'literal' && e.args[1]!.type === 'string') {
      const operand = follow(e.args[0]!, scope);
      if (operand) {
        const name = e.args[1]!.value as string;
        const segments = [...operand.segments, name];
        const mapKey = keyOf(operand.root, operand.segments);
        if (!guards.has(keyOf(operand.root, segments)) && !guards.has(literalGuard(name)) && fields.lookup(segments, true, guardedUnder(operand.root)) === 'key') {
          const access = `${operand.text}[${JSON.stringify(name).replace(/^"|"$/g, "'")}]`;
          const mapPath = displayPath(operand.root, operand.segments);
          const mapRead = reads.get(mapPath);
          const mapUnguarded = !guards.has(mapKey) && fields.lookup(operand.segments, false, guardedUnder(operand.root)) === 'field';
          if (mapUnguarded && (mapRead === undefined || mapRead.node === e.args[0])) {
            // One finding for the map and its key: `labels['team']` fails without labels or without the key.
            reads.delete(mapPath);
            add({ access, path: mapPath, missing: 'field-or-key', name, offset: e.offset, segments: [operand.root, ...operand.segments] }, e);
          } else if (!mapUnguarded) {
            add({ access, path: displayPath(operand.root, segments), missing: 'key', name, offset: e.offset, segments: [operand.root, ...segments] }, e);
          }
        }
      }
    }
    walkChildren(e, scope, visit);
  };
  // Children first would find `labels` before `labels['k']`: visit the index before its operand.
  visit(expr, new Map());
  return [...reads.values()].sort((a, b) => a.offset - b.offset).map(({ node: _node, ...read }) => read);
}

function displayPath(root: string, segments: readonly string[]): string {
  return segments.reduce((text, s) => (s === '[]' ? `${text}[]` : `${text}.${s}`), root);
}

/** The nodes from the root of `expr` down to the read's own node, or undefined. */
function pathTo(expr: Expr, read: UnguardedRead): Expr[] | undefined {
  const chain: Expr[] = [];
  const find = (e: Expr): boolean => {
    chain.push(e);
    const reads = (e.kind === 'select' && !e.testOnly) || (e.kind === 'call' && e.fn === '_[_]');
    if (reads && e.offset === read.offset) return true;
    for (const child of children(e)) if (find(child)) return true;
    chain.pop();
    return false;
  };
  return find(expr) ? chain : undefined;
}

/** false, '', 0 or empty bytes: what a scalar field holds when an object omits it (OMITTED_WHEN_ZERO). */
function isZeroValue(value: bigint | number | string | boolean | Uint8Array | null): boolean {
  return value === false || value === '' || value === 0 || value === 0n || (value instanceof Uint8Array && value.length === 0);
}

/**
 * Scalar fields of the pod spec and its containers that k8s.io/api core/v1 declares by value with
 * omitempty (not pointers): an object without one holds its zero value (false, '', 0). Pointer
 * fields (every securityContext field, automountServiceAccountToken, runtimeClassName…) absent
 * are unset instead.
 */
const OMITTED_WHEN_ZERO: ReadonlySet<string> = new Set([
  'hostNetwork', 'hostPID', 'hostIPC', 'nodeName', 'hostname', 'subdomain', 'serviceAccountName', 'serviceAccount', 'schedulerName', 'priorityClassName',
  'workingDir', 'stdin', 'stdinOnce', 'tty', 'hostPort', 'hostIP',
]);

/**
 * Whether a read's absence would make the expression false anyway: the read is compared for
 * equality with a literal that is no zero value (`labels['team'] == 'payments'`, `x in ['a', 'b']`),
 * with `!=` to the value the absent field stands for (`x != null`, `image != ''`), or with the
 * other object's same field where that is there (presentCounterpart), and that
 * comparison is reached from the root through `&&`, `||` and the branches of a ternary alone.
 * There an error acts as false would: CEL's `&&` and `||` absorb it whenever their other side
 * decides (`error || true` is true, `error && false` is false), and otherwise the expression errs
 * where it would be false. A validation that errors there under failurePolicy Fail is denied, as
 * it would be if the field were read as absent: only the message differs (s44 hold-out 26: a
 * delete guard `op != 'DELETE' || … || annotations['allow'] == 'true'`). A read under `!` (or
 * `!=` another value), a ternary's condition or a macro may have meant to let absence pass.
 */
export function deniedEitherWay(expr: Expr, read: UnguardedRead, { zeroWhenAbsent }: { readonly zeroWhenAbsent?: '' } = {}): boolean {
  const chain = pathTo(expr, read);
  if (chain === undefined) return false;
  let at = 0;
  const passes = (node: Expr, next: Expr | undefined): boolean => {
    if (node.kind !== 'call') return false;
    if (node.fn === '_&&_' || node.fn === '_||_') return true;
    return node.fn === '_?_:_' && next !== node.args[0];
  };
  while (at < chain.length && passes(chain[at]!, chain[at + 1])) at++;
  const comparison = chain[at];
  if (comparison === undefined || comparison.kind !== 'call' || (comparison.fn !== '_==_' && comparison.fn !== '_!=_' && comparison.fn !== '@in')) return false;
  const operand = chain[at + 1];
  const other = comparison.args.find((arg) => arg !== operand);
  // Not a value the absent field stands for: null (absent is unset), an empty list (lists are
  // omitempty), and the zero value of a scalar field an object omits when it holds one
  // (`hostNetwork == false` holds without the field, and its error denies what the value would
  // admit: attack s44b 1). A pointer field (`allowPrivilegeEscalation`) or a map key absent is
  // unset, not zero: comparing it with false or '' is false, as the error denies (s44c 2).
  // (A custom resource's string its schema declares, zeroWhenAbsent: its controller's Go type is
  // not known, and a string absent is read as '', as a struct field by value: s45b 5, 8.)
  const builtinZero = read.missing === 'field' && OMITTED_WHEN_ZERO.has(read.name);
  const customZero = read.missing === 'field' ? zeroWhenAbsent : undefined;
  const isZero = (e: Expr): boolean => e.kind === 'literal' && (customZero !== undefined ? e.value === customZero : builtinZero && isZeroValue(e.value));
  const zeroWhenOmitted = builtinZero || customZero !== undefined;
  const value = (e: Expr): boolean => e.kind === 'literal' && e.type !== 'null' && !isZero(e);
  const literal = (e: Expr | undefined): boolean => e !== undefined && (value(e) || (e.kind === 'list' && e.elements.length > 0 && e.elements.every(value)));
  // The read is the operand itself, or inside its chain of selections and indexes (`a.b[k].c == 'x'`).
  const inOperand = chain.slice(at + 1).every((node) => (node.kind === 'select' && !node.testOnly) || (node.kind === 'call' && node.fn === '_[_]'));
  if (operand === undefined || !inOperand) return false;
  if (comparison.fn === '_!=_') {
    // `!=` the value the absent field stands for is false without it: null (absent is unset),
    // or the zero value of a field an object omits when it holds one (`image != ''`). Against
    // any other value it is true without the field, and the error denies what it would admit.
    return other !== undefined && other.kind === 'literal' && (other.type === 'null' || (zeroWhenOmitted && isZero(other)));
  }
  const placed = comparison.fn === '_==_' ? comparison.args.includes(operand) : comparison.args[0] === operand;
  return placed && (literal(other) || (comparison.fn === '_==_' && presentCounterpart(chain.slice(0, at + 1), read, other)));
}

/** The operands of a chain of one operator (`a || b || c`, however CEL nests it). */
function operandsOf(e: Expr, fn: '_||_' | '_&&_'): Expr[] {
  return e.kind === 'call' && e.fn === fn ? e.args.flatMap((arg) => operandsOf(arg, fn)) : [e];
}

/**
 * Whether `other` reads the same field of the other object (`object.x == oldObject.x`) and the
 * way from the root to the comparison (`path`, the comparison last) passes only where that field
 * is there: beside `!has(oldObject.x)` under `||`, `has(oldObject.x)` under `&&`, or in the
 * branch of a ternary that its test takes. There the comparison would be false without the
 * read's field (an immutability check then denies either way). Only a field read as a whole.
 */
function presentCounterpart(path: readonly Expr[], read: UnguardedRead, other: Expr | undefined): boolean {
  if (other === undefined || read.missing !== 'field') return false;
  const [root, ...rest] = read.segments;
  const counterpart = root === 'object' ? 'oldObject' : root === 'oldObject' ? 'object' : undefined;
  if (counterpart === undefined) return false;
  const tracked = follow(other, new Map());
  if (tracked === undefined || tracked.root !== counterpart || tracked.segments.join('.') !== rest.join('.')) return false;
  const field = keyOf(counterpart, rest);
  /** Whether `e` is `has(field)` (positive) or `!has(field)` (negative). */
  const tests = (e: Expr | undefined, positive: boolean): boolean => {
    if (!positive) return e !== undefined && e.kind === 'call' && e.fn === '!_' && tests(e.args[0], true);
    if (e === undefined || e.kind !== 'select' || !e.testOnly) return false;
    const operand = follow(e.operand, new Map());
    return operand !== undefined && keyOf(operand.root, [...operand.segments, e.field]) === field;
  };
  return path.slice(0, -1).some((node, index) => {
    if (node.kind !== 'call') return false;
    const next = path[index + 1];
    const siblings = node.args.filter((arg) => arg !== next);
    if (node.fn === '_||_') return siblings.some((arg) => operandsOf(arg, '_||_').some((each) => tests(each, false)));
    if (node.fn === '_&&_') return siblings.some((arg) => operandsOf(arg, '_&&_').some((each) => tests(each, true)));
    if (node.fn === '_?_:_') return (next === node.args[1] && tests(node.args[0], true)) || (next === node.args[2] && tests(node.args[0], false));
    return false;
  });
}

/**
 * The fields an expression requires by testing for them: paths (root first, `[]` for every
 * element of a list) whose absence makes it false, or an error. Only presence tests count
 * (`has(x.f)`, `'k' in x`), reached from the root through `&&` alone and through the bodies of
 * `all()` (a requirement on each element). A sibling validation that requires what a read lacks
 * denies the request itself, with its own message: the read's error changes nothing.
 */
export function fieldsRequired(expr: Expr): string[][] {
  return requirements(expr, undefined);
}

/**
 * The fields the expression requires where a read of it is evaluated: as fieldsRequired, but
 * also through the side of an `||` and the branch of a ternary that hold the read. An error of
 * the read counts only where the other side of that `||` is false, or the ternary takes that
 * branch, and the expression's result is then that side's. A read whose absent field is one the
 * expression requires there (`has(c.securityContext.capabilities.drop) && …`, read as
 * `c.securityContext.capabilities`) makes the expression false or an error either way: under
 * failurePolicy Fail, a validation denies the request whichever it is.
 */
export function fieldsRequiredAlong(expr: Expr, read: UnguardedRead): string[][] {
  const chain = pathTo(expr, read);
  return chain === undefined ? [] : requirements(expr, new Set(chain));
}

function requirements(expr: Expr, along: ReadonlySet<Expr> | undefined): string[][] {
  const out: string[][] = [];
  // Inside all(), a test holds only for the elements: over an empty list the predicate never
  // runs, so only paths through the element (`within`, root first) are required.
  const visit = (e: Expr, scope: Scope, within: readonly string[]): void => {
    if (e.kind === 'call' && e.fn === '_&&_') {
      for (const arg of e.args) visit(arg, scope, within);
      return;
    }
    // Along a read: the side of `||` and the branch of a ternary that hold it (not the condition).
    if (along !== undefined && along.has(e) && e.kind === 'call' && (e.fn === '_||_' || e.fn === '_?_:_')) {
      const next = e.args.find((arg, index) => along.has(arg) && !(e.fn === '_?_:_' && index === 0));
      if (next !== undefined) visit(next, scope, within);
      return;
    }
    const require = (operand: Expr, name: string): void => {
      const tracked = follow(operand, scope);
      // A list index (`containers[0]`) is one element, not each: only all()'s elements count.
      if (tracked === undefined || /\[\d+\]/.test(tracked.text)) return;
      const path = [tracked.root, ...tracked.segments, name];
      if (within.every((segment, index) => path[index] === segment)) out.push(path);
    };
    if (e.kind === 'select' && e.testOnly) require(e.operand, e.field);
    else if (e.kind === 'call' && e.fn === '@in' && e.args.length === 2 && e.args[0]!.kind === 'literal' && typeof e.args[0]!.value === 'string') require(e.args[1]!, e.args[0]!.value);
    else if (isAll(e)) {
      const range = follow(e.iterRange, scope);
      if (range === undefined || /\[\d+\]/.test(range.text)) return;
      const element = [...range.segments, '[]'];
      // Nested in another all(): only a range through the outer element keeps "for each" (an
      // inner loop over something else may run over an empty list while the outer one runs).
      if (!within.every((segment, index) => [range.root, ...element][index] === segment)) return;
      const inner = new Map(scope);
      const elementVar = e.iterVar2 ?? e.iterVar;
      inner.set(e.iterVar, undefined);
      inner.set(e.accuVar, undefined);
      inner.set(elementVar, { root: range.root, segments: element, text: elementVar });
      visit((e.loopStep as { args: readonly Expr[] }).args[1]!, inner, [range.root, ...element]);
    }
  };
  visit(expr, new Map(), []);
  return out;
}

/** cel-go's expansion of `range.all(x, predicate)`: starts true, steps `accu && predicate`, ends with accu. */
function isAll(e: Expr): e is Extract<Expr, { kind: 'comprehension' }> {
  if (e.kind !== 'comprehension') return false;
  const step = e.loopStep;
  return (
    e.accuInit.kind === 'literal' && e.accuInit.value === true &&
    step.kind === 'call' && step.fn === '_&&_' && step.args.length === 2 && step.args[0]!.kind === 'ident' && step.args[0]!.name === e.accuVar &&
    e.result.kind === 'ident' && e.result.name === e.accuVar
  );
}

/** Whether a requirement (fieldsRequired) is false or an error when the read's field (or key) is absent: it is the read's path or below it. */
export function requiresRead(required: readonly string[], read: UnguardedRead): boolean {
  // A map read without its key (`labels['k']`) fails without the map or the key: only a requirement of the key covers both.
  const path = read.missing === 'field-or-key' ? [...read.segments, read.name] : read.segments;
  return path.length <= required.length && path.every((segment, index) => required[index] === segment);
}

/**
 * Whether the read is reached only for the requests of one named user: it sits under an `||`
 * whose other side is false for that user alone (`request.userInfo.username != 'x'`,
 * `!(request.userInfo.username == 'x')`, or a variable of `variables` defined so, `!variables.isX`).
 * An error there rejects only that user's writes (a project's own controller, say), not the
 * users' (`variables` gives the policy's variables by name, parsed).
 */
export function onlyForOneUser(expr: Expr, read: UnguardedRead, variables: ReadonlyMap<string, Expr>): boolean {
  const chain = pathTo(expr, read);
  if (chain === undefined) return false;
  for (let at = 0; at < chain.length - 1; at++) {
    const node = chain[at]!;
    if (node.kind !== 'call' || node.fn !== '_||_') continue;
    const other = node.args.find((arg) => arg !== chain[at + 1]);
    if (other !== undefined && falseForOneUser(other, variables, 0)) return true;
  }
  return false;
}

/** Whether an expression is false for one named user only (see onlyForOneUser). */
function falseForOneUser(e: Expr, variables: ReadonlyMap<string, Expr>, depth: number): boolean {
  if (depth > 8) return false;
  if (e.kind === 'call' && e.fn === '!_' && e.args[0] !== undefined) return trueForOneUser(e.args[0], variables, depth + 1);
  if (e.kind === 'call' && e.fn === '_!=_') return comparesUsername(e.args);
  return false;
}

function trueForOneUser(e: Expr, variables: ReadonlyMap<string, Expr>, depth: number): boolean {
  if (depth > 8) return false;
  if (e.kind === 'call' && e.fn === '_==_') return comparesUsername(e.args);
  // `variables.isX`: what its definition says.
  if (e.kind === 'select' && !e.testOnly && e.operand.kind === 'ident' && e.operand.name === 'variables') {
    const definition = variables.get(e.field);
    return definition !== undefined && trueForOneUser(definition, variables, depth + 1);
  }
  return false;
}

/** `request.userInfo.username` compared with a string literal. */
function comparesUsername(args: readonly Expr[]): boolean {
  const isUsername = (e: Expr): boolean =>
    e.kind === 'select' && e.field === 'username' && e.operand.kind === 'select' && e.operand.field === 'userInfo' && e.operand.operand.kind === 'ident' && e.operand.operand.name === 'request';
  return args.length === 2 && args.some(isUsername) && args.some((arg) => arg.kind === 'literal' && arg.type === 'string');
}

/**
 * What each JSON Patch operation needs to exist, in gopkg.in/evanphx/json-patch.v4 (checked
 * there): every parent of `path` (add, replace and test: a replace of a missing key sets it, a
 * test of one fails only the test, which leaves the object as it was); the target itself for
 * remove and a move's `from`; only the parents of a copy's `from` (a missing key copies null).
 */
const NEEDS: Readonly<Record<string, { readonly path: 'parents' | 'target'; readonly from?: 'parents' | 'target' }>> = {
  add: { path: 'parents' },
  replace: { path: 'parents' },
  test: { path: 'parents' },
  remove: { path: 'target' },
  move: { path: 'parents', from: 'target' },
  copy: { path: 'parents', from: 'parents' },
};

/** Segments of a pointer past this many are not read: the table of optional fields is not that deep (a hostile path may be long). */
const MAX_POINTER_SEGMENTS = 16;

/**
 * A JSON Pointer as far as the expression fixes it: a string literal (`complete`), or the literal
 * that starts a concatenation (`"/metadata/labels/" + jsonpatch.escapeKey(k)`), whose every
 * segment before the last `/` is then known.
 */
function pointerOf(e: Expr | undefined): { text: string; complete: boolean } | undefined {
  if (e === undefined) return undefined;
  if (e.kind === 'literal' && e.type === 'string') return { text: e.value as string, complete: true };
  if (e.kind === 'call' && e.fn === '_+_' && e.args.length === 2) {
    const left = pointerOf(e.args[0]);
    return left && { text: left.text, complete: false };
  }
  return undefined;
}

/**
 * The segments (optional-fields notation: `[]` for a list index or `-`) that must exist for an
 * operation on the pointer: its parents, or the target too (`target`, only for a complete
 * pointer); at most MAX_POINTER_SEGMENTS. Undefined when the pointer is not one (no leading `/`).
 */
function requiredSegments(pointer: { text: string; complete: boolean }, needs: 'parents' | 'target'): string[] | undefined {
  if (!pointer.text.startsWith('/')) return pointer.text === '' && !pointer.complete ? [] : undefined;
  const tokens = pointer.text.slice(1).split('/', MAX_POINTER_SEGMENTS + 1);
  const whole = tokens.length <= MAX_POINTER_SEGMENTS && pointer.complete && needs === 'target';
  const known = whole ? tokens : tokens.slice(0, Math.min(tokens.length - 1, MAX_POINTER_SEGMENTS));
  return known.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~')).map((token) => (/^(?:0|[1-9][0-9]*|-)$/.test(token) ? '[]' : token));
}

/** A JSONPatch struct's op (a string literal) and its path and from pointers. */
function patchOperation(e: Expr): { op: string; path?: { text: string; complete: boolean }; from?: { text: string; complete: boolean }; value?: Expr } | undefined {
  if (e.kind !== 'struct' || e.typeName !== 'JSONPatch') return undefined;
  const field = (name: string): Expr | undefined => e.fields.find((f) => f.name === name && !f.optional)?.value;
  const op = field('op');
  if (op?.kind !== 'literal' || typeof op.value !== 'string') return undefined;
  const path = pointerOf(field('path'));
  const from = pointerOf(field('from'));
  const value = field('value');
  return { op: op.value, ...(path ? { path } : {}), ...(from ? { from } : {}), ...(value ? { value } : {}) };
}

/**
 * The JSON Patch operations of a mutation (`JSONPatch{op: "add", path: "/spec/initContainers/-"}`)
 * whose path (or `from`) needs a field that `fields` says an object can lack (NEEDS), with no
 * presence test for it in `guards`. The API server applies the patch to the object as JSON; a
 * missing parent fails it, and failurePolicy decides. The first missing field of each pointer,
 * once per field.
 */
export function unguardedPatchTargets(expr: Expr, fields: OptionalFields, guards: ReadonlySet<string>): UnguardedRead[] {
  if (!fields.known) return [];
  const found = new Map<string, UnguardedRead>();
  const guarded = (prefix: readonly string[]): boolean => guards.has(keyOf('object', prefix));
  const check = (segments: readonly string[], whole: boolean, op: string, pointer: string, offset: number): void => {
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i);
      if (guarded(prefix)) continue;
      const name = prefix[prefix.length - 1]!;
      let missing: Optionality | undefined = fields.lookup(prefix, false, guarded) === 'field' ? 'field' : undefined;
      // The target itself of a remove may be a key of labels or annotations.
      if (missing === undefined && whole && i === segments.length && !guards.has(literalGuard(name)) && fields.lookup(prefix, true, guarded) === 'key') missing = 'key';
      if (missing === undefined) continue;
      const path = displayPath('object', prefix);
      if (!found.has(path)) found.set(path, { access: path, path, missing, name, offset, segments: ['object', ...prefix], patch: { op, pointer } });
      return;
    }
  };
  const written = (pointer: { text: string; complete: boolean }): string => (pointer.complete ? pointer.text : `${pointer.text}…`);
  const visit = (e: Expr): void => {
    const operation = patchOperation(e);
    const needs = operation && NEEDS[operation.op];
    if (operation !== undefined && needs !== undefined) {
      for (const [pointer, need] of [[operation.from, needs.from], [operation.path, needs.path]] as const) {
        if (pointer === undefined || need === undefined) continue;
        const segments = requiredSegments(pointer, need);
        if (segments !== undefined) check(segments, need === 'target' && pointer.complete, operation.op, written(pointer), e.offset);
      }
    }
    for (const child of children(e)) visit(child);
  };
  visit(expr);
  return [...found.values()];
}

/**
 * Whether a value is a literal that is there once written and encoded again: not null, not an
 * empty map, list or object, not "", false or 0 (omitempty drops those from a struct's fields;
 * s37c 1-C).
 */
function nonEmptyLiteral(e: Expr | undefined): boolean {
  if (e === undefined) return false;
  if (e.kind === 'literal') return e.type !== 'null' && e.value !== '' && e.value !== false && e.value !== 0 && e.value !== 0n;
  if (e.kind === 'struct') return e.fields.length > 0;
  if (e.kind === 'list') return e.elements.length > 0;
  if (e.kind === 'map') return e.entries.length > 0;
  return false;
}

/**
 * The paths a mutation writes (`object.` keys, as presenceTests gives): the path of a JSON Patch
 * add, replace, copy or move, and every field an apply configuration sets (`Object{metadata:
 * Object.metadata{labels: {…}}}` sets metadata and metadata.labels). Within one mutation the
 * patch's operations act on one document, so any write counts (whatever the order: says less);
 * `acrossMutations`: only a non-empty literal, since each mutation patches the object encoded
 * again, where an empty map or list written before is gone.
 */
export function pathsWritten(expr: Expr, acrossMutations = false): string[] {
  const written: string[] = [];
  const fromValue = (e: Expr, segments: readonly string[]): void => {
    if (segments.length > MAX_POINTER_SEGMENTS) return;
    if (e.kind === 'struct') {
      for (const field of e.fields) {
        if (!acrossMutations || nonEmptyLiteral(field.value)) written.push(keyOf('object', [...segments, field.name]));
        fromValue(field.value, [...segments, field.name]);
      }
    } else if (e.kind === 'list') for (const element of e.elements) fromValue(element, [...segments, '[]']);
    else if (e.kind === 'map') {
      for (const entry of e.entries) {
        if (entry.key.kind !== 'literal' || entry.key.type !== 'string') continue;
        // A map keeps its keys whatever their values (omitempty drops struct fields, not map entries).
        written.push(keyOf('object', [...segments, entry.key.value as string]));
        fromValue(entry.value, [...segments, entry.key.value as string]);
      }
    }
  };
  const visit = (e: Expr): void => {
    const operation = patchOperation(e);
    if (operation !== undefined) {
      const writes = ['add', 'replace', 'copy', 'move'].includes(operation.op) && operation.path?.complete === true;
      // A JSON Patch may write into a map, which keeps an entry whatever its value: "" counts (s37d 4-B).
      const counted = !acrossMutations || (operation.op !== 'copy' && operation.op !== 'move' && (nonEmptyLiteral(operation.value) || (operation.value?.kind === 'literal' && operation.value.type !== 'null')));
      const segments = writes && counted ? requiredSegments(operation.path!, 'target') : undefined;
      if (segments !== undefined && segments.length > 0) written.push(keyOf('object', segments));
    } else if (e.kind === 'struct' && e.typeName === 'Object') {
      fromValue(e, []);
      return;
    }
    for (const child of children(e)) visit(child);
  };
  visit(expr);
  return written;
}

/**
 * The fields a condition requires through optional values, from its root through `&&` alone:
 * `x.?f.hasValue()`, `x.?f.orValue(d) == v` (v a literal other than d), `x.?f.orValue(d) != d`,
 * and `x.?f.orValue([]).size() > n` (n ≥ 0): each is false when the field is absent. Paths are
 * root first, as fieldsRequired gives.
 */
export function fieldsRequiredThroughOptionals(expr: Expr): string[][] {
  const out: string[][] = [];
  const path = (e: Expr | undefined): void => {
    const tracked = e && follow(e, new Map(), true);
    if (tracked !== undefined && tracked.segments.length > 0) out.push([tracked.root, ...tracked.segments]);
  };
  const sameLiteral = (a: Expr, b: Expr): boolean => a.kind === 'literal' && b.kind === 'literal' && a.type === b.type && a.value === b.value;
  const orValue = (e: Expr | undefined): { target: Expr; fallback: Expr } | undefined =>
    e?.kind === 'call' && e.fn === 'orValue' && e.target !== undefined && e.args.length === 1 ? { target: e.target, fallback: e.args[0]! } : undefined;
  const visit = (e: Expr): void => {
    if (e.kind !== 'call') return;
    if (e.fn === '_&&_') {
      for (const arg of e.args) visit(arg);
      return;
    }
    if (e.fn === 'hasValue' && e.target !== undefined && e.args.length === 0) return path(e.target);
    if ((e.fn === '_==_' || e.fn === '_!=_') && e.args.length === 2) {
      const [a, b] = e.args as [Expr, Expr];
      const [optional, other] = orValue(a) ? [orValue(a)!, b] : orValue(b) ? [orValue(b)!, a] : [undefined, b];
      if (optional === undefined || other.kind !== 'literal' || optional.fallback.kind !== 'literal') return;
      if ((e.fn === '_==_') !== sameLiteral(optional.fallback, other)) path(optional.target);
      return;
    }
    if (e.fn === '_>_' && e.args.length === 2) {
      const [size, bound] = e.args as [Expr, Expr];
      const sized = size.kind === 'call' && size.fn === 'size' ? (size.target ?? size.args[0]) : undefined;
      const optional = orValue(sized);
      if (optional !== undefined && bound.kind === 'literal' && (bound.type === 'int' || bound.type === 'uint') && Number(bound.value) >= 0) path(optional.target);
    }
  };
  visit(expr);
  return out;
}

/**
 * Whether a mutation may remove one of these label keys, or the whole labels map: a JSON Patch
 * remove or replace of /metadata/labels or /metadata (or the object), a remove of the key, a
 * move from them, or an operation whose path is not a literal. Removing or replacing another key
 * leaves the selected one, so the map stays (s37d 4-A).
 */
export function mayRemoveLabels(expr: Expr, keys: readonly string[]): boolean {
  const escaped = new Set(keys.map((key) => `/metadata/labels/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  let found = false;
  const whole = (text: string): boolean => text === '' || text === '/metadata' || text === '/metadata/labels';
  const visit = (e: Expr): void => {
    if (found) return;
    if (e.kind === 'struct' && e.typeName === 'JSONPatch') {
      const operation = patchOperation(e);
      const path = operation?.path;
      if (operation === undefined || path === undefined || !path.complete) found = true;
      else if ((operation.op === 'remove' || operation.op === 'replace') && whole(path.text)) found = true;
      else if (operation.op === 'remove' && escaped.has(path.text)) found = true;
      else if (operation.op === 'move' && (operation.from === undefined || !operation.from.complete || whole(operation.from.text) || escaped.has(operation.from.text))) found = true;
    }
    for (const child of children(e)) visit(child);
  };
  visit(expr);
  return found;
}
