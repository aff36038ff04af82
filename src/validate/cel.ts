/**
 * CEL compile checks for webhook matchConditions, as far as they can be made without false
 * positives on valid Kubernetes expressions:
 *  - syntax errors (the parser of @marcbachmann/cel-js, with Kubernetes' optional syntax on);
 *  - references to variables a webhook matchCondition does not have (`params`, `variables`,
 *    typos): object, oldObject, request, authorizer and namespaceObject are declared (facts §2
 *    row 53). namespaceObject is declared in every admission CEL environment
 *    (plugin/cel/compile.go createEnvForOpts), so it compiles, although webhooks evaluate it as
 *    null;
 *  - results that are certainly not bool: a literal or an arithmetic expression (row 52).
 * Calls to Kubernetes' CEL libraries are not type-checked: a missing declaration would turn a
 * valid expression into a false positive.
 *
 * The library is loaded on demand (`prepareCel`) so runs without matchConditions never pay for it.
 */
import type { ASTNode, Environment, ParseError } from '@marcbachmann/cel-js';

type CelModule = typeof import('@marcbachmann/cel-js');

let cel: { module: CelModule; environment: Environment } | undefined;

export async function prepareCel(): Promise<void> {
  if (cel !== undefined) return;
  const module = await import('@marcbachmann/cel-js');
  cel = { module, environment: new module.Environment({ enableOptionalTypes: true }) };
}

/** The loaded CEL library, for code that walks or evaluates ASTs itself. */
export function celModule(): CelModule {
  if (cel === undefined) throw new Error('prepareCel() must be awaited before the CEL library is used');
  return cel.module;
}

export const WEBHOOK_MATCH_CONDITION_VARIABLES: ReadonlySet<string> = new Set(['object', 'oldObject', 'request', 'authorizer', 'namespaceObject']);

/** Receivers that name a library namespace (`sets.contains(…)`), not a variable. */
const LIBRARY_NAMESPACES = new Set(['cel', 'optional', 'sets', 'lists', 'strings', 'format', 'math', 'base64', 'ip']);
/** Type identifiers usable as values (`type(x) == string`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'optional_type', 'google']);
const ONE_VARIABLE_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'sortBy']);
const TWO_VARIABLE_MACROS = new Set(['all', 'exists', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '-_']);

interface Node {
  op: string;
  args: unknown;
  start: number;
}

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && 'op' in value ? (value as Node) : undefined;
}

/** Identifiers used but not bound by a macro or cel.bind, with their offsets. */
function freeIdentifiers(node: Node, bound: ReadonlySet<string>, out: Node[]): void {
  if (node.op === 'id') {
    if (typeof node.args === 'string' && !bound.has(node.args) && !TYPE_NAMES.has(node.args)) out.push(node);
    return;
  }
  if (node.op === 'rcall' || node.op === 'call') {
    const parts = node.args as unknown[];
    const name = parts[0] as string;
    const receiver = node.op === 'rcall' ? asNode(parts[1]) : undefined;
    const args = ((node.op === 'rcall' ? parts[2] : parts[1]) as unknown[]).map(asNode);
    const receiverIsNamespace = receiver?.op === 'id' && LIBRARY_NAMESPACES.has(receiver.args as string);
    if (receiver && !receiverIsNamespace) freeIdentifiers(receiver, bound, out);
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
      freeIdentifiers(arg, name === 'bind' && i === 1 ? bound : inner, out);
    });
    return;
  }
  const children = Array.isArray(node.args) ? (node.args as unknown[]).flat() : [node.args];
  for (const child of children) {
    const childNode = asNode(child);
    if (childNode) freeIdentifiers(childNode, bound, out);
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
  if (cel === undefined) throw new Error('prepareCel() must be awaited before CEL expressions are checked');
  let ast: ASTNode;
  try {
    ast = cel.environment.parse(expression).ast;
  } catch (error) {
    if (error instanceof cel.module.ParseError) {
      const parseError = error as ParseError & { range?: { start: number }; summary?: string };
      return compilationFailed(expression, [{ offset: parseError.range?.start ?? 0, message: `Syntax error: ${parseError.summary ?? parseError.message}` }]);
    }
    throw error;
  }
  const root = asNode(ast);
  if (root === undefined) return undefined;
  const free: Node[] = [];
  freeIdentifiers(root, new Set(), free);
  const undeclared = free.filter((node) => !variables.has(node.args as string));
  if (undeclared.length > 0) {
    return compilationFailed(
      expression,
      undeclared.map((node) => ({ offset: node.start, message: `undeclared reference to '${String(node.args)}' (in container '')` })),
    );
  }
  const type = literalType(root);
  if (type !== undefined) return `must evaluate to bool but got ${type}`;
  return undefined;
}

let evaluator: { environment: Environment; parsed: Map<string, ((context: Record<string, unknown>) => unknown) | undefined> } | undefined;

/**
 * Evaluates an expression against plain data (as a matchCondition is evaluated for a request):
 * true or false, or undefined when it cannot be evaluated here (a syntax error, or a Kubernetes
 * library function such as `authorizer` that cel-js does not have).
 */
export function evaluateCondition(expression: string, context: Record<string, unknown>): boolean | undefined {
  if (cel === undefined) throw new Error('prepareCel() must be awaited before CEL expressions are evaluated');
  evaluator ??= { environment: new cel.module.Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true }), parsed: new Map() };
  let program = evaluator.parsed.get(expression);
  if (!evaluator.parsed.has(expression)) {
    try {
      program = evaluator.environment.parse(expression) as unknown as (context: Record<string, unknown>) => unknown;
    } catch {
      program = undefined;
    }
    evaluator.parsed.set(expression, program);
  }
  if (program === undefined) return undefined;
  try {
    const result = program(context);
    return typeof result === 'boolean' ? result : undefined;
  } catch {
    return undefined;
  }
}
