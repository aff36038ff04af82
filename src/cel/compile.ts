/**
 * CEL compile checks of admission expressions, in two layers.
 *
 * The untyped check (`celCompileError`, `matchConditionCompileError`), whatever the version:
 *  - syntax errors (the parser of @marcbachmann/cel-js, with Kubernetes' optional syntax on) and
 *    cel-go's recursion limit;
 *  - references to variables the expression's field does not have (`params`, `variables`,
 *    typos): object, oldObject, request, authorizer and namespaceObject are declared (facts §2
 *    row 53). namespaceObject is declared in every admission CEL environment
 *    (plugin/cel/compile.go createEnvForOpts), so it compiles, although webhooks evaluate it as
 *    null; `variables.<name>` is checked against the composed variables;
 *  - results that are certainly not of the required type: a literal or an arithmetic expression
 *    (row 52), a comparison where a string is required.
 *
 * The typed check (`admissionCompile`), from Kubernetes 1.28: the same syntax check first, then
 * the type checker of src/cel/check over the environment the server of the target version
 * compiles new expressions in (undeclared functions and members, overloads, fields of the typed
 * variables, literal validators, result types). It reports only what it is sure the API server
 * rejects, and otherwise gives the untyped verdict (see `sure`). A syntax error is worded as
 * cel-go's parser words it (src/cel/check's parser, measured against cel-go's own parser tests in
 * test/cel-spec.test.ts), whatever the version, where that parser rejects the expression too.
 *
 * The cel-js library must be loaded first (src/cel/library.ts).
 */
import type { ASTNode, ParseError } from '@marcbachmann/cel-js';
import { collapseUnaryRuns, MAX_AST_DEPTH, measureDepth, RECURSION_LIMIT_MESSAGE } from './depth.js';
import { celLibrary } from './library.js';
import { LIBRARY_NAMESPACES, ONE_VARIABLE_MACROS, TWO_VARIABLE_MACROS } from './names.js';
import { IDENTIFIER_CHAR, stringLiteralEnd } from './source.js';
import type { Expr } from './check/ast.js';
import { checkExpression, composedVariableType, parseFailure, typeString, type CelType, type CheckResult, type ExpressionKind } from './check/index.js';
import { sizeLimitExceeded } from './check/parser.js';
import { T } from './environment/types.js';
import { BoundedCache } from '../cache.js';


export const WEBHOOK_MATCH_CONDITION_VARIABLES: ReadonlySet<string> = new Set(['object', 'oldObject', 'request', 'authorizer', 'namespaceObject']);

/** Type identifiers usable as values (`type(x) == string`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'optional_type', 'google']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '-_']);

interface Node {
  op: string;
  args: unknown;
  start: number;
}

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && 'op' in value ? (value as Node) : undefined;
}

/** A field selected from a free `variables` identifier (`variables.foo`, `variables.?foo`). */
interface VariableSelect {
  readonly node: Node;
  readonly field: string;
  /** The enclosing `has(…)` call, when the selection is its argument. */
  readonly has?: Node;
}

/**
 * Identifiers used but not bound by a macro or cel.bind, with their offsets. When `selects` is
 * given, fields selected from a free `variables` identifier are collected there too.
 */
function freeIdentifiers(node: Node, bound: ReadonlySet<string>, out: Node[], namespaces: ReadonlySet<string> = LIBRARY_NAMESPACES, selects?: VariableSelect[]): void {
  if (node.op === 'id') {
    if (typeof node.args === 'string' && !bound.has(node.args) && !TYPE_NAMES.has(node.args)) out.push(node);
    return;
  }
  if (selects && (node.op === '.' || node.op === '.?')) {
    const [operand, field] = node.args as [unknown, unknown];
    const operandNode = asNode(operand);
    if (operandNode?.op === 'id' && operandNode.args === 'variables' && !bound.has('variables') && typeof field === 'string' && !selects.some((s) => s.node === node)) {
      selects.push({ node, field });
    }
  }
  if (node.op === 'rcall' || node.op === 'call') {
    const parts = node.args as unknown[];
    const name = parts[0] as string;
    const receiver = node.op === 'rcall' ? asNode(parts[1]) : undefined;
    const args = ((node.op === 'rcall' ? parts[2] : parts[1]) as unknown[]).map(asNode);
    if (selects && node.op === 'call' && name === 'has' && args.length === 1 && (args[0]?.op === '.' || args[0]?.op === '.?')) {
      const [operand, field] = args[0].args as [unknown, unknown];
      const operandNode = asNode(operand);
      if (operandNode?.op === 'id' && operandNode.args === 'variables' && !bound.has('variables') && typeof field === 'string') selects.push({ node: args[0], field, has: node });
    }
    const receiverIsNamespace = receiver?.op === 'id' && namespaces.has(receiver.args as string);
    if (receiver && !receiverIsNamespace) freeIdentifiers(receiver, bound, out, namespaces, selects);
    let boundCount = 0;
    if (receiver && !(receiver.op === 'id' && receiver.args === 'cel')) {
      if (TWO_VARIABLE_MACROS.has(name) && args.length >= 3 && args[0]?.op === 'id' && args[1]?.op === 'id') boundCount = 2;
      else if (ONE_VARIABLE_MACROS.has(name) && args[0]?.op === 'id') boundCount = 1;
    } else if (receiver && name === 'bind') {
      boundCount = 1;
    }
    const inner = new Set(bound);
    for (let i = 0; i < boundCount; i++) inner.add(args[i]!.args as string);
    args.forEach((arg, i) => {
      if (arg === undefined || i < boundCount) return;
      // cel.bind(v, init, body): `v` is not in scope in `init`.
      freeIdentifiers(arg, name === 'bind' && i === 1 ? bound : inner, out, namespaces, selects);
    });
    return;
  }
  const children = Array.isArray(node.args) ? (node.args as unknown[]).flat() : [node.args];
  for (const child of children) {
    const childNode = asNode(child);
    if (childNode) freeIdentifiers(childNode, bound, out, namespaces, selects);
  }
}

function literalType(node: Node): string | undefined {
  if (node.op === 'list') return 'list';
  if (node.op === 'map') return 'map';
  if (ARITHMETIC.has(node.op)) return 'a number, string, list or duration (an arithmetic result)';
  if (node.op !== 'value') return undefined;
  const value = node.args;
  if (typeof value === 'boolean') return undefined;
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (value === null) return 'null_type';
  if (value instanceof Uint8Array) return 'bytes';
  return 'uint';
}

/**
 * One cel-go issue as `Errors.ToDisplayString` prints it: `ERROR: <input>:L:C: message`, then
 * the source line (tabs as spaces) and a caret line with one '.' per code point before the
 * column (full-width dot and caret for non-ASCII code points).
 */
function displayIssue(expression: string, offset: number, message: string): { line: number; column: number; text: string } {
  const lines = expression.split('\n');
  const before = expression.slice(0, offset).split('\n');
  const line = before.length;
  const prefix = Array.from(before[before.length - 1]!);
  const column = prefix.length;
  const snippet = (lines[line - 1] ?? '').replace(/\r$/, '').replace(/\t/g, ' ');
  const wide = (char: string | undefined): boolean => char !== undefined && char.codePointAt(0)! > 0x7f;
  const snippetChars = Array.from(snippet);
  const dots = snippetChars.slice(0, column).map((char) => (wide(char) ? '\uFF0E' : '.')).join('');
  const caret = wide(snippetChars[column]) ? '\uFF3E' : '^';
  return { line, column, text: `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${snippet}\n | ${dots}${caret}` };
}

/** `"compilation failed: " + issues.String()`: the issues sorted by position, one block each. */
function compilationFailed(expression: string, issues: readonly { offset: number; message: string }[]): string {
  const shown = issues.map((issue) => displayIssue(expression, issue.offset, issue.message));
  shown.sort((a, b) => a.line - b.line || a.column - b.column);
  return `compilation failed: ${shown.map((issue) => issue.text).join('\n')}`;
}

/**
 * The API server's "compilation failed: ERROR: <input>:l:c: …" text (with cel-go's source
 * snippet and caret lines), or undefined when it compiles.
 */
export function matchConditionCompileError(expression: string, variables: ReadonlySet<string> = WEBHOOK_MATCH_CONDITION_VARIABLES): string | undefined {
  return celCompileError(expression, { variables, result: 'bool' });
}

/**
 * What an admission expression must evaluate to (the accessor's ReturnTypes in
 * k8s.io/apiserver plugin/cel): validations and matchConditions bool, messageExpression string,
 * audit annotation values string or null, variables and mutations anything.
 */
export type CelResultType = 'bool' | 'string' | 'string-or-null' | 'any';

export interface CelCompileOptions {
  /** The variables the environment declares (object, oldObject, request, …). */
  readonly variables: ReadonlySet<string>;
  /**
   * With variable composition: the names `variables.<name>` may select (spec.variables compiled
   * so far). Without it, `variables` is not declared at all.
   */
  readonly composedVariables?: ReadonlySet<string>;
  readonly result: CelResultType;
  /**
   * Mutation expressions (MutatingAdmissionPolicy): `Object{…}`, `Object.spec{…}` and
   * `JSONPatch{…}` constructions and `jsonpatch.escapeKey()` are available.
   */
  readonly patchTypes?: boolean;
}

const PATCH_NAMESPACES: ReadonlySet<string> = new Set([...LIBRARY_NAMESPACES, 'jsonpatch']);
/** Operators whose result is bool whatever their operands. */
const BOOL_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=', '&&', '||', '!_', 'in']);

/** The type of a literal result (cel-go's names), or undefined when it is not a literal. */
function literalKind(node: Node): string | undefined {
  if (node.op === 'value' && typeof node.args === 'boolean') return 'bool';
  if (ARITHMETIC.has(node.op)) return undefined;
  return literalType(node);
}

/**
 * Syntax Kubernetes' CEL accepts and cel-js cannot parse, blanked so that every offset stays:
 *  - optional entries and indexes (`[?x]`, `{?'k': v}`, `list[?0]`): the `?` is blanked;
 *  - with `constructions`, message construction (`Object{spec: Object.spec{replicas: 1}}`, for
 *    mutation expressions): the type names are blanked and the field names replaced by int
 *    literals of the same length, so the expression parses as map literals and its identifiers
 *    can still be checked.
 * `masked` says whether anything was replaced.
 */
function maskUnsupportedSyntax(expression: string, constructions: boolean): { text: string; masked: boolean } {
  const out = [...expression];
  const stack: ('(' | '[' | 'struct' | 'map')[] = [];
  let masked = false;
  let expectField = false;
  let i = 0;
  const n = out.length;
  const isIdentStart = (c: string | undefined): boolean => c !== undefined && /[A-Za-z_]/.test(c);
  const skipSpace = (from: number): number => {
    let j = from;
    while (j < n && /\s/.test(out[j]!)) j++;
    return j;
  };
  while (i < n) {
    const c = out[i]!;
    // String literals (with r/b prefixes and triple quotes) are copied as they are.
    if (c === '"' || c === "'") {
      i = stringLiteralEnd(out, i);
      expectField = false;
      continue;
    }
    if (c === '/' && out[i + 1] === '/') {
      while (i < n && out[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '{') {
      // A (qualified) identifier right before '{' makes it a message construction.
      let end = i - 1;
      while (end >= 0 && /\s/.test(out[end]!)) end--;
      let start = end;
      while (start >= 0 && (IDENTIFIER_CHAR.test(out[start]!) || out[start] === '.')) start--;
      start++;
      const name = out.slice(start, end + 1).join('');
      const lastSegment = name.split('.').pop() ?? '';
      if (constructions && end >= 0 && name !== '' && isIdentStart(lastSegment[0]) && lastSegment !== 'in' && !/^\.?[0-9]/.test(name)) {
        for (let k = start; k <= end; k++) out[k] = ' ';
        stack.push('struct');
        expectField = true;
        masked = true;
      } else {
        stack.push('map');
        expectField = false;
      }
      i++;
      continue;
    }
    if (c === '(' || c === '[') {
      stack.push(c);
      expectField = false;
      i++;
      continue;
    }
    if (c === '}' || c === ')' || c === ']') {
      stack.pop();
      expectField = false;
      i++;
      continue;
    }
    if (c === ',') {
      expectField = stack.at(-1) === 'struct';
      i++;
      continue;
    }
    if (expectField && (c === '?' || isIdentStart(c))) {
      let j = c === '?' ? skipSpace(i + 1) : i;
      const nameStart = j;
      while (j < n && IDENTIFIER_CHAR.test(out[j]!)) j++;
      const colon = skipSpace(j);
      if (j > nameStart && out[colon] === ':') {
        if (c === '?') out[i] = ' ';
        for (let k = nameStart; k < j; k++) out[k] = '1';
        i = colon + 1;
        expectField = false;
        continue;
      }
    }
    if (c === '?') {
      // An optional list or map entry, or an optional index: right after '[', '{' or ','.
      let before = i - 1;
      while (before >= 0 && /\s/.test(out[before]!)) before--;
      const top = stack.at(-1);
      const previous = out[before];
      if ((previous === '[' || previous === '{' || previous === ',') && (top === '[' || top === 'map')) {
        out[i] = ' ';
        masked = true;
      }
    }
    expectField = false;
    i++;
  }
  return { text: out.join(''), masked };
}

/**
 * The API server's compile check of one admission expression (CompileCELExpression): the
 * "compilation failed: …" text for a syntax error, a reference to a variable the environment
 * does not declare, or `variables.<name>` naming no composed variable; "must evaluate to …"
 * when the result is certainly of another type (a literal or, for strings, a comparison);
 * undefined otherwise. As for matchConditions, library calls are not type-checked, so a valid
 * expression is never reported.
 */
export function celCompileError(expression: string, options: CelCompileOptions): string | undefined {
  return untypedCheck(expression, options).error;
}

/**
 * celCompileError's verdict and the stage that gave it: 'syntax' for a parse error or the
 * recursion limit (what the typed check leaves to this one), 'semantic' otherwise (also when
 * nothing is found).
 */
interface UntypedVerdict {
  readonly error: string | undefined;
  readonly stage: 'syntax' | 'semantic';
}

function untypedCheck(expression: string, options: CelCompileOptions): UntypedVerdict {
  const syntax = (error: string | undefined): UntypedVerdict => ({ error, stage: 'syntax' });
  const semantic = (error: string | undefined): UntypedVerdict => ({ error, stage: 'semantic' });
  // Refused unread by the API server: nothing else is looked at.
  const oversize = oversizeError(expression);
  if (oversize !== undefined) return syntax(oversize);
  const cel = celLibrary();
  const { text: maskedText, masked } = maskUnsupportedSyntax(expression, options.patchTypes === true);
  // cel-go keeps only the parity of a run of `!` or `-`: so does the text cel-js parses.
  const text = collapseUnaryRuns(maskedText);
  let ast: ASTNode;
  try {
    ast = cel.environment.parse(text).ast;
  } catch (error) {
    if (error instanceof cel.module.ParseError) {
      // cel-js stops at the same nesting as cel-go (250); cel-go reports it at no location.
      if ((error as ParseError & { code?: string }).code === 'limit_exceeded' && /maxDepth/.test(error.message)) return syntax(recursionLimitExceeded());
      // After masking, the parser's message may be about our replacement: say nothing.
      if (masked) return syntax(undefined);
      const parseError = error as ParseError & { range?: { start: number }; summary?: string };
      return syntax(compilationFailed(expression, [{ offset: parseError.range?.start ?? 0, message: `Syntax error: ${parseError.summary ?? parseError.message}` }]));
    }
    throw error;
  }
  const root = asNode(ast);
  if (root === undefined) return syntax(undefined);
  const depth = measureDepth(root);
  if (depth.overRecursionLimit) return syntax(recursionLimitExceeded());
  // Deeper only through `||`/`&&` chains, which cel-go accepts: too deep to walk here, say nothing.
  if (depth.depth > MAX_AST_DEPTH) return syntax(undefined);
  const composed = options.composedVariables;
  const declared = composed === undefined ? options.variables : new Set([...options.variables, 'variables']);
  const free: Node[] = [];
  const selects: VariableSelect[] = [];
  freeIdentifiers(root, new Set(), free, options.patchTypes ? PATCH_NAMESPACES : LIBRARY_NAMESPACES, composed === undefined ? undefined : selects);
  const issues: { offset: number; message: string }[] = [];
  for (const node of free) {
    if (!declared.has(node.args as string)) issues.push({ offset: node.start, message: `undeclared reference to '${String(node.args)}' (in container '')` });
  }
  for (const select of selects) {
    if (composed!.has(select.field)) continue;
    // cel-go places a selection at its '.', and has(…) at the call's '('.
    const offset = select.has !== undefined ? text.indexOf('(', select.has.start) : dotAfter(text, asNode((select.node.args as unknown[])[0])!);
    issues.push({ offset, message: `undefined field '${select.field}'` });
  }
  if (issues.length > 0) return semantic(compilationFailed(expression, issues));
  switch (options.result) {
    case 'bool': {
      const type = literalType(root);
      return semantic(type === undefined ? undefined : `must evaluate to bool but got ${type}`);
    }
    case 'string':
    case 'string-or-null': {
      const type = literalKind(root) ?? (BOOL_OPERATORS.has(root.op) ? 'bool' : undefined);
      if (type === undefined || type === 'string' || (options.result === 'string-or-null' && type === 'null_type')) return semantic(undefined);
      return semantic(options.result === 'string' ? `must evaluate to string but got ${type}` : `must evaluate to one of [string null_type] but got ${type}`);
    }
    default:
      return semantic(undefined);
  }
}

/** cel-go's parser error past its size limit, at no location (line -1), or undefined under it. */
function oversizeError(expression: string): string | undefined {
  const message = sizeLimitExceeded(expression);
  return message === undefined ? undefined : `compilation failed: ERROR: <input>:-1:0: ${message}`;
}

/** cel-go's parser error past its recursion limit: an internal error, at no location (line -1). */
function recursionLimitExceeded(): string {
  return `compilation failed: ERROR: <input>:-1:0: ${RECURSION_LIMIT_MESSAGE}`;
}

/** The offset of the '.' (or '.?') that follows an operand. */
function dotAfter(text: string, operand: Node): number {
  const end = (operand as Node & { end?: number }).end ?? operand.start;
  const dot = text.indexOf('.', end);
  return dot < 0 ? end : dot;
}

// --- the typed check: the API server's environments and type checker (src/cel/check) -----------

/**
 * Function names that Kubernetes CEL libraries declare in versions the environment data cannot
 * pin (library.Image, library.Pod and Quantity's mul/div/divInt are in k8s.io/apiserver sources
 * that name no release yet): an undeclared reference to one of them is not reported.
 */
const UNPINNED_FUNCTIONS: ReadonlySet<string> = new Set(['image', 'isImage', 'containsDigest', 'registry', 'repository', 'identifier', 'tag', 'digest', 'allContainers', 'mul', 'div', 'divInt']);

/**
 * Parser issues the API server certainly reports. Plain syntax errors are too: the parser agrees
 * with cel-go on every accept/reject verdict of cel-go's own parser tests (test/cel-spec.test.ts);
 * the untyped check reports most of them first, and this one where cel-js cannot tell (masked
 * optional syntax) or reads the expression otherwise.
 */
const SURE_PARSE_ISSUES = [
  /^Syntax error: /,
  /^invalid double literal$/,
  /^invalid unicode code point$/,
  /^unable to unescape string$/,
  /^unsupported syntax '/,
  /^unsupported syntax: '`'$/,
  /^invalid argument to has\(\) macro$/,
  /^argument must be a simple name$/,
  /^duplicate variable name: /,
  /^iteration variable overwrites accumulator variable$/,
  /variable name must be a simple identifier$/,
  /^invalid u?int literal$/,
  /^reserved identifier: /,
];

/** The first Kubernetes version whose servers compile admission expressions in a versioned environment (environment/base.go). */
const FIRST_TYPED_MINOR = 28;

export interface AdmissionCompileOptions {
  readonly kind: ExpressionKind;
  /** The target Kubernetes version (`--kube-version`). */
  readonly kubeVersion: { readonly major: number; readonly minor: number };
  /** `params` is declared (a policy with paramKind). */
  readonly params?: boolean;
  /**
   * With variable composition: the variables compiled before, with the type each is declared
   * with, or undefined where that type is not known for sure (see AdmissionCompileResult.type).
   * Without it, `variables` is not declared.
   */
  readonly composed?: ReadonlyMap<string, CelType | undefined>;
}

export interface AdmissionCompileResult {
  /** The API server's error text, or undefined when it compiles (or when this check cannot tell). */
  readonly error: string | undefined;
  /**
   * The type the API server declares a variable of this expression with (its output type, dyn
   * when it fails to compile), when the typed check is sure of it; undefined otherwise.
   */
  readonly type: CelType | undefined;
  /** The parsed expression, when the type check accepted it (for analyses that walk it). */
  readonly expr?: Expr;
}

/** admissionCompile's answers: they depend on the expression and the options only. */
const admissionCompiled = new BoundedCache<string, AdmissionCompileResult>();

/**
 * The API server's compile check of one admission expression under a Kubernetes version: first
 * the untyped check above (syntax and nesting, with its messages), then, from 1.28, the type
 * checker over the environment the server compiles new expressions in (undeclared functions
 * and members, overloads, field selection on typed variables, literal validators, the result
 * type). Where the type checker is not sure (a `null` against a non-nullable type, a function
 * whose release the data cannot pin, a syntax the untyped parser reads otherwise, a variable of
 * unknown type) the untyped verdict stands, so nothing the API server accepts is reported.
 */
export function admissionCompile(expression: string, options: AdmissionCompileOptions): AdmissionCompileResult {
  const composedKey = options.composed === undefined ? null : [...options.composed].map(([name, t]) => [name, t === undefined ? '?' : typeString(t)]);
  const key = JSON.stringify([expression, options.kind, options.kubeVersion.major, options.kubeVersion.minor, options.params === true, composedKey]);
  return admissionCompiled.get(key, () => compileUncached(expression, options));
}

function untypedOptions(options: AdmissionCompileOptions): CelCompileOptions {
  const { kind } = options;
  const variables = new Set(['object', 'oldObject', 'request', 'namespaceObject']);
  if (options.params) variables.add('params');
  if (kind !== 'validating.messageExpression') variables.add('authorizer');
  const result: CelResultType = kind.endsWith('matchCondition') || kind === 'validating.validation' ? 'bool' : kind === 'validating.messageExpression' ? 'string' : kind === 'validating.auditAnnotation' ? 'string-or-null' : 'any';
  return {
    variables,
    result,
    ...(options.composed !== undefined && !kind.endsWith('matchCondition') ? { composedVariables: new Set(options.composed.keys()) } : {}),
    ...(kind === 'mutating.applyConfiguration' || kind === 'mutating.jsonPatch' ? { patchTypes: true } : {}),
  };
}

function compileUncached(expression: string, options: AdmissionCompileOptions): AdmissionCompileResult {
  const untyped = untypedCheck(expression, untypedOptions(options));
  const fallback: AdmissionCompileResult = { error: untyped.error, type: undefined };
  const typed = options.kubeVersion.major === 1 && options.kubeVersion.minor >= FIRST_TYPED_MINOR;
  // Syntax and nesting errors are the untyped check's verdict, reported first as before, in the
  // API server's words where src/cel/check (cel-go's grammar and messages) gives them.
  if (untyped.stage === 'syntax' && untyped.error !== undefined) {
    if (untyped.error === recursionLimitExceeded() || untyped.error === oversizeError(expression) || options.kubeVersion.major !== 1) return fallback;
    const parseError = parseFailure(expression, options.kind, options.kubeVersion);
    if (parseError !== undefined) return { error: parseError, type: undefined };
    // cel-go parses what cel-js cannot (message construction outside mutations): the type
    // checker's rejection, when it is sure of one, is what the API server says.
    const checked = typed ? typedCheck(expression, options) : undefined;
    if (checked !== undefined && !checked.result.ok && sure(checked.result, expression, checked.composed)) return { error: checked.result.apiServerText, type: undefined };
    // ... and accepts what cel-js's grammar does not (`[,]`, `{,}`: cel-go's `listInit? ','?`):
    // parsed by cel-go's grammar and type-checked with no variable of unknown type (s37d 5-A).
    if (checked !== undefined && checked.result.ok && !readsUnknownVariable(expression, checked.composed)) return { error: undefined, type: composedVariableType(checked.result.type), expr: checked.result.expr };
    return fallback;
  }
  if (!typed) return fallback;
  const { result: checked, composed } = typedCheck(expression, options);
  if (checked.ok) {
    // A variable of unknown type was taken as dyn: the most permissive type, but also one that
    // makes the result dyn. The verdict holds only when no such variable is read.
    if (readsUnknownVariable(expression, composed)) return fallback;
    return { error: undefined, type: composedVariableType(checked.type), expr: checked.expr };
  }
  if (!sure(checked, expression, composed)) return fallback;
  return { error: checked.apiServerText, type: T.dyn };
}

/** The type checker over the environment of the expression's kind and version, with the composed variables. */
function typedCheck(expression: string, options: AdmissionCompileOptions): { result: CheckResult; composed: ReadonlyMap<string, CelType | undefined> | undefined } {
  const composed = options.composed !== undefined && !options.kind.endsWith('matchCondition') ? options.composed : undefined;
  const variables: Record<string, CelType> = {};
  for (const [name, t] of composed ?? []) variables[name] = t ?? T.dyn;
  const result = checkExpression(expression, options.kind, { major: 1, minor: options.kubeVersion.minor }, {
    params: options.params === true,
    ...(composed !== undefined ? { variables } : {}),
  });
  return { result, composed };
}

/** Whether every issue of a rejection is one the API server certainly reports. */
function sure(result: Extract<CheckResult, { ok: false }>, expression: string, composed: ReadonlyMap<string, CelType | undefined> | undefined): boolean {
  if (readsUnknownVariable(expression, composed)) return false;
  return result.errors.every(({ detail }) => {
    switch (result.stage) {
      case 'parse':
        return SURE_PARSE_ISSUES.some((pattern) => pattern.test(detail));
      case 'check': {
        // cel-go's nullability (null against string, int, … in a ternary or a literal) is the
        // checker's own reading of a legacy rule; not reported.
        if (/\bnull\b/.test(detail.replace(/^undeclared reference to '[^']*'/, ''))) return false;
        const undeclared = /^undeclared reference to '([^']*)'/.exec(detail);
        if (undeclared && UNPINNED_FUNCTIONS.has(undeclared[1]!)) return false;
        return !/^unexpected failed resolution/.test(detail);
      }
      case 'validate':
        return !/\bnull\b/.test(detail);
      case 'result':
        return true;
    }
  });
}

/** Whether the expression names `variables.<name>` for a composed variable whose type is not known. */
function readsUnknownVariable(expression: string, composed: ReadonlyMap<string, CelType | undefined> | undefined): boolean {
  if (composed === undefined) return false;
  const unknown = [...composed].filter(([, t]) => t === undefined).map(([name]) => name);
  if (unknown.length === 0) return false;
  for (const match of expression.matchAll(/\bvariables\s*\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*)/g)) if (unknown.includes(match[1]!)) return true;
  return false;
}
