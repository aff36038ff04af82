/**
 * CEL compile checks as the API server makes them: parse, type-check against the environment of
 * the expression's kind and Kubernetes version (src/cel/environment), run the AST validators,
 * then require the result type of the kind. Messages are the API server's: "compilation failed:
 * ERROR: <input>:L:C: …" and "must evaluate to … but got …".
 *
 * Why a checker of our own rather than @marcbachmann/cel-js v8's `Environment.check`. cel-js's
 * checker was tried on issue 16's cases (registerFunction / registerType / registerVariable,
 * `unlistedVariablesAreDyn`, `enableOptionalTypes`):
 *  - it cannot parse what admission expressions use: message construction (`Object{spec: …}`,
 *    `JSONPatch{op: …}`, the whole of applyConfiguration/jsonPatch), optional list and map
 *    entries (`[?x]`, `{?'k': v}`), two-variable macros (`m.exists_one(k, v, p)`,
 *    `transformMap`): "Unexpected character: '{'", "Unexpected token: QUESTION", "found no
 *    matching overload for 'dyn.exists_one(dyn, dyn, dyn)'"; optMap is unknown to it;
 *  - its literal checks are not the API server's: `duration('1d')` type-checks, `[1, 'a']` is
 *    reported in its own words ("List elements must have the same type…");
 *  - its messages and positions are its own ("found no matching overload for
 *    'string.startswith(string)'" where the API server says "undeclared reference to
 *    'startswith' (in container '')" at the call's '('), so the API server's text cannot be
 *    rebuilt from them;
 *  - it has no type parameters in declarations (cel-go's `list(A).(A) -> int`), no abstract
 *    types with parameters (`optional_type(V)`), no type identifiers such as `net.IP` as values,
 *    no overloads filtered by feature (cross-type numeric comparisons before 1.28), and every
 *    function must be registered with a handler: one environment per kind × version would carry
 *    ~250 placeholder handlers;
 *  - its `check` accepts a `dyn` result, while the admission compiler wants the exact type (a
 *    webhook condition `object.spec.enabled` is dyn, and rejected: "must evaluate to bool but got
 *    dyn"), so the result check would be ours anyway.
 * Other npm CEL packages (the registry list in this workplace): `cel-js` 0.8.2 and `@bufbuild/cel`
 * ("A CEL evaluator for ECMAScript"; its 0.3.0 index exports parse, plan, run and celEnv, no
 * checker) evaluate; neither was installed or tried here, and neither is described as carrying
 * cel-go's checker or its messages. So the parser (parser.ts: cel-go's grammar, macro expansion
 * and token positions) and the checker (checker.ts: a transcription of cel-go's
 * checker) are written here over data declarations. cel-js stays the evaluator.
 */
import { environmentFor, type EnvironmentOptions, type ExpressionKind, type KubeVersion } from '../environment/index.js';
import { sameType, typeString, type CelType } from '../environment/types.js';
import type { Expr } from './ast.js';
import { check } from './checker.js';
import { parse } from './parser.js';
import { validate } from './validators.js';

export type { ExpressionKind, KubeVersion } from '../environment/index.js';
export { composedVariableType, environmentFor, EXPRESSION_KINDS } from '../environment/index.js';
export { typeString, type CelType } from '../environment/types.js';

export interface CheckError {
  /** The API server's text for this issue: "compilation failed: ERROR: <input>:1:5: …" or "must evaluate to …". */
  readonly message: string;
  /** UTF-16 offset in the expression, when the API server gives a location. */
  readonly offset?: number;
  /** The issue's own text, without the "compilation failed: ERROR: <input>:L:C: " header. */
  readonly detail: string;
}

/**
 * Which step rejected the expression: the parser (syntax, macros, syntax the version lacks), the
 * type checker, the AST validators (literals), or the result type.
 */
export type CheckStage = 'parse' | 'check' | 'validate' | 'result';

export type CheckResult =
  | { readonly ok: true; readonly type: CelType; readonly typeName: string; /** The parsed expression (macros expanded). */ readonly expr: Expr }
  | {
      readonly ok: false;
      readonly stage: CheckStage;
      readonly errors: readonly CheckError[];
      /** The whole text the API server puts in its field error (all issues, with source snippets). */
      readonly apiServerText: string;
    };

export type CheckOptions = EnvironmentOptions;

export function checkExpression(source: string, kind: ExpressionKind, kubeVersion: KubeVersion, options: CheckOptions = {}): CheckResult {
  const env = environmentFor(kind, kubeVersion, options);
  const parsed = parse(source, { macros: env.macros, optionalSyntax: env.features.has('optionalSyntax') });
  if (!parsed.ok) return parseFailed(source, parsed.issues);
  const checked = check(parsed.expr, env);
  if (checked.issues.length > 0) return compilationFailed(source, 'check', checked.issues);
  const validation = validate(parsed.expr, env, checked);
  if (validation.length > 0) return compilationFailed(source, 'validate', validation);
  const output = checked.outputType;
  const accepted = env.resultTypes.some((t) => t.kind === 'any' || sameType(output, t));
  if (!accepted) {
    const expected = env.resultTypes.length === 1 ? typeString(env.resultTypes[0]!) : `[${env.resultTypes.map(typeString).join(' ')}]`;
    const message = `must evaluate to ${env.resultTypes.length === 1 ? '' : 'one of '}${expected} but got ${typeString(output)}`;
    return { ok: false, stage: 'result', errors: [{ message, detail: message }], apiServerText: message };
  }
  return { ok: true, type: output, typeName: typeString(output), expr: parsed.expr };
}

/** cel-go's parser errorReportingLimit default: the issues past it are counted, not shown. */
const PARSE_ERROR_REPORTING_LIMIT = 100;

/** A parse failure as cel-go's Errors.ToDisplayString shows it: at most 100 issues, then how many more there were. */
function parseFailed(source: string, issues: readonly Located[]): CheckResult {
  const failed = compilationFailed(source, 'parse', issues.slice(0, PARSE_ERROR_REPORTING_LIMIT));
  if (failed.ok || issues.length <= PARSE_ERROR_REPORTING_LIMIT) return failed;
  return { ...failed, apiServerText: `${failed.apiServerText}\n${issues.length - PARSE_ERROR_REPORTING_LIMIT} more errors were truncated` };
}

interface Located {
  readonly message: string;
  readonly offset?: number;
}

/** cel-go's Issues.String(): errors sorted by location, each with its source line and a caret. */
function compilationFailed(source: string, stage: CheckStage, issues: readonly Located[]): CheckResult {
  const shown = issues.map((issue) => ({ issue, ...display(source, issue) }));
  shown.sort((a, b) => a.line - b.line || a.column - b.column);
  const errors = shown.map(({ issue, header }) => ({ message: `compilation failed: ${header}`, detail: issue.message, ...(issue.offset === undefined ? {} : { offset: issue.offset }) }));
  return { ok: false, stage, errors, apiServerText: `compilation failed: ${shown.map((s) => s.text).join('\n')}` };
}

function display(source: string, issue: Located): { line: number; column: number; header: string; text: string } {
  if (issue.offset === undefined) {
    const header = `ERROR: <input>:-1:0: ${issue.message}`;
    return { line: -1, column: 0, header, text: header };
  }
  const before = source.slice(0, issue.offset).split('\n');
  const line = before.length;
  const prefix = Array.from(before[before.length - 1]!);
  const column = prefix.length;
  const header = `ERROR: <input>:${line}:${column + 1}: ${issue.message}`;
  const snippet = (source.split('\n')[line - 1] ?? '').replace(/\r$/, '').replace(/\t/g, ' ');
  const chars = Array.from(snippet);
  const wide = (c: string | undefined): boolean => c !== undefined && c.codePointAt(0)! > 0x7f;
  const dots = chars.slice(0, column).map((c) => (wide(c) ? '\uFF0E' : '.')).join('');
  const caret = wide(chars[column]) ? '\uFF3E' : '^';
  return { line, column, header, text: `${header}\n | ${snippet}\n | ${dots}${caret}` };
}

/**
 * The API server's text for an expression its parser rejects ("compilation failed: ERROR: …" with
 * every issue cel-go's parser reports), or undefined when it parses. The parser is measured
 * against cel-go's own parser tests (test/cel-spec.test.ts).
 */
export function parseFailure(source: string, kind: ExpressionKind, kubeVersion: { readonly major: number; readonly minor: number }): string | undefined {
  const env = environmentFor(kind, { major: 1, minor: kubeVersion.minor });
  const parsed = parse(source, { macros: env.macros, optionalSyntax: env.features.has('optionalSyntax') });
  if (parsed.ok) return undefined;
  const failed = parseFailed(source, parsed.issues);
  return failed.ok ? undefined : failed.apiServerText;
}

/**
 * The expression's AST as a server of `kubeVersion` parses it (the macros and syntax of that
 * kind's environment), or undefined when it does not parse.
 */
export function parseExpression(source: string, kind: ExpressionKind, kubeVersion: { readonly major: number; readonly minor: number }): Expr | undefined {
  const env = environmentFor(kind, { major: 1, minor: kubeVersion.minor });
  const parsed = parse(source, { macros: env.macros, optionalSyntax: env.features.has('optionalSyntax') });
  return parsed.ok ? parsed.expr : undefined;
}
