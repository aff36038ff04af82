/**
 * A CEL parser that builds cel-go's AST: the grammar of cel-go's CEL.g4 (optional syntax when the
 * environment enables it, message construction for mutation types), macros expanded as
 * cel-go's parser expands them (parser/macro.go, ext/comprehensions.go, cel/library.go optMap and
 * optFlatMap, ext/lists.go sortBy) when the environment declares them, `&&`/`||` chains balanced
 * as parser/helper.go's balancer does, and each node placed at the token cel-go places it at.
 *
 * Errors that cel-go's parser itself reports (macro arguments, reserved identifiers, int literal
 * range, unsupported optional syntax) carry its text. Plain syntax errors are reported as
 * "Syntax error: …" in ANTLR's usual wording, but not always with ANTLR's exact expectation sets.
 */
import type { MacroName } from '../environment/library.js';
import type { ComprehensionExpr, Expr, MapEntry, StructField } from './ast.js';

export interface ParseIssue {
  readonly message: string;
  /** UTF-16 offset; undefined for errors cel-go reports at no location. */
  readonly offset?: number;
}

export interface ParseOptions {
  readonly macros: ReadonlySet<MacroName>;
  readonly optionalSyntax: boolean;
  /**
   * Backtick-escaped field names (`a.\`b-c\``): cel-go's parser.EnableIdentEscapeSyntax, which
   * cel.EnableIdentifierEscapeSyntax() turns on. No Kubernetes environment enables it
   * (k8s.io/apiserver pkg/cel/environment/base.go), so there each one is "unsupported syntax: '`'".
   */
  readonly identEscapeSyntax?: boolean;
}

export type ParseResult = { readonly ok: true; readonly expr: Expr; readonly nextId: number } | { readonly ok: false; readonly issues: readonly ParseIssue[] };

export const ACCUMULATOR = '@result';
const LEGACY_ACCUMULATOR = '__result__';
/** cel-go parser.MaxRecursionDepth default, which Kubernetes keeps. */
const MAX_RECURSION_DEPTH = 250;

const RESERVED = new Set(['as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const KEYWORDS = new Set(['true', 'false', 'null', 'in']);

type TokenType = 'ident' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'punct' | 'keyword' | 'eof';

export interface Token {
  readonly type: TokenType;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Decoded value of string and bytes literals. */
  readonly value?: string | Uint8Array;
  /** What cel-go's unescape says of a literal its lexer takes but it rejects (parser/unescape.go). */
  readonly unescapeError?: string;
}

/** A token recognition error: ANTLR reports it and resumes lexing after the character that failed. */
class LexFailure extends Error {
  constructor(
    readonly offset: number,
    /** The text from the token's start to the failing character, inclusive. */
    readonly text: string,
    /** Where lexing resumes. */
    readonly resume: number,
  ) {
    super(text);
  }
}

/** ANTLR's getErrorDisplay: control characters of the offending text escaped. */
function errorDisplay(text: string): string {
  return text.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

class SyntaxFailure extends Error {
  constructor(
    readonly issue: ParseIssue,
    /** What ANTLR's recovery reports next, when it is sure (the token after a mismatched one). */
    readonly followUp: readonly ParseIssue[] = [],
  ) {
    super(issue.message);
  }
}

const PUNCTUATION = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
function isHex(c: string | undefined): boolean {
  return c !== undefined && /[0-9a-fA-F]/.test(c);
}
// Character classes by code (one UTF-16 unit): the tokenizer asks for every character.
function isIdentStart(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}
function isIdentPart(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || (code >= 48 && code <= 57);
}
const isRawOrBytesPrefix = (c: string | undefined): boolean => c === 'r' || c === 'R' || c === 'b' || c === 'B';

export interface Tokenized {
  readonly tokens: Token[];
  /** Token recognition errors: the lexer reports each and goes on, as ANTLR's does. */
  readonly issues: ParseIssue[];
}

/** ESC_IDENTIFIER's characters (CEL.g4: LETTER | DIGIT | '_' | '.' | '-' | '/' | ' '). */
const isEscapedIdentPart = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_.\-/ ]/.test(c);

/** The tokens of a CEL source, as cel-go's lexer reads them (also used to find patterns in expressions: src/match/foreign-label-gates.ts). */
export function tokenize(src: string): Tokenized {
  const tokens: Token[] = [];
  const issues: ParseIssue[] = [];
  let i = 0;
  const n = src.length;
  /** The failing character at `at` (or the end of input): report from `start` through it, resume after it. */
  const fail = (start: number, at: number): never => {
    const end = Math.min(n, at < n ? at + (src.codePointAt(at)! > 0xffff ? 2 : 1) : n);
    throw new LexFailure(start, src.slice(start, end), end);
  };
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const start = i;
    try {
      // String and bytes literals, with r/R (raw) and b/B prefixes in either order.
      let prefixEnd = i;
      let raw = false;
      let bytes = false;
      while (prefixEnd < n && prefixEnd - i < 2 && isRawOrBytesPrefix(src[prefixEnd])) {
        if (src[prefixEnd] === 'r' || src[prefixEnd] === 'R') {
          if (raw) break;
          raw = true;
        } else {
          if (bytes) break;
          bytes = true;
        }
        prefixEnd++;
      }
      if ((src[prefixEnd] === '"' || src[prefixEnd] === "'") && (prefixEnd === i || !isIdentPart(src[prefixEnd - 1]) || isRawOrBytesPrefix(src[prefixEnd - 1]))) {
        const triple = src[prefixEnd + 1] === src[prefixEnd] && src[prefixEnd + 2] === src[prefixEnd];
        let literal: ReturnType<typeof readString>;
        try {
          literal = readString(src, i, prefixEnd, raw, bytes, fail);
        } catch (error) {
          // An unterminated or malformed triple-quoted literal: ANTLR's lexer falls back to its last
          // accepting state, the empty literal of the first two quotes, and lexes on from the third.
          if (!(error instanceof LexFailure) || !triple) throw error;
          literal = { end: prefixEnd + 2, value: bytes ? new Uint8Array() : '' };
        }
        tokens.push({ type: bytes ? 'bytes' : 'string', text: src.slice(start, literal.end), start, end: literal.end, value: literal.value, ...(literal.unescapeError !== undefined ? { unescapeError: literal.unescapeError } : {}) });
        i = literal.end;
        continue;
      }
      if (isIdentStart(c)) {
        let j = i + 1;
        while (isIdentPart(src[j])) j++;
        const text = src.slice(i, j);
        tokens.push({ type: KEYWORDS.has(text) ? 'keyword' : 'ident', text, start, end: j });
        i = j;
        continue;
      }
      if (c === '`') {
        // An escaped identifier (field selection and field initializers only).
        let j = i + 1;
        while (isEscapedIdentPart(src[j])) j++;
        if (j === i + 1 || src[j] !== '`') fail(i, j);
        tokens.push({ type: 'ident', text: src.slice(i, j + 1), start, end: j + 1, value: src.slice(i + 1, j) });
        i = j + 1;
        continue;
      }
      if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
        let j = i;
        let type: TokenType = 'int';
        if (c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X') && isHex(src[i + 2])) {
          j = i + 2;
          while (isHex(src[j])) j++;
        } else {
          while (isDigit(src[j])) j++;
          if (src[j] === '.' && isDigit(src[j + 1])) {
            type = 'double';
            j++;
            while (isDigit(src[j])) j++;
          }
          if ((src[j] === 'e' || src[j] === 'E') && (isDigit(src[j + 1]) || ((src[j + 1] === '+' || src[j + 1] === '-') && isDigit(src[j + 2])))) {
            type = 'double';
            j += 2;
            while (isDigit(src[j])) j++;
          }
        }
        if (type === 'int' && (src[j] === 'u' || src[j] === 'U')) {
          type = 'uint';
          j++;
        }
        tokens.push({ type, text: src.slice(i, j), start, end: j });
        i = j;
        continue;
      }
      const punct = PUNCTUATION.find((p) => src.startsWith(p, i));
      // A lone '|' or '&' fails on the character after it (the lexer was reading '||' or '&&').
      if (punct === undefined) fail(i, c === '|' || c === '&' ? i + 1 : i);
      tokens.push({ type: 'punct', text: punct!, start, end: i + punct!.length });
      i += punct!.length;
    } catch (error) {
      if (!(error instanceof LexFailure)) throw error;
      issues.push({ message: `Syntax error: token recognition error at: '${errorDisplay(error.text)}'`, offset: error.offset });
      i = error.resume;
    }
  }
  tokens.push({ type: 'eof', text: '<EOF>', start: n, end: n });
  return { tokens, issues };
}

function readString(src: string, start: number, quoteAt: number, raw: boolean, bytes: boolean, fail: (start: number, at: number) => never): { end: number; value: string | Uint8Array; unescapeError?: string } {
  const q = src[quoteAt]!;
  const triple = src[quoteAt + 1] === q && src[quoteAt + 2] === q;
  let i = quoteAt + (triple ? 3 : 1);
  const out: number[] = [];
  let text = '';
  let unescapeError: string | undefined;
  const push = (s: string): void => {
    if (bytes) for (const b of Buffer.from(s, 'utf8')) out.push(b);
    else text += s;
  };
  const n = src.length;
  /** The first index from `from` on that does not match `pattern`, within `count` characters. */
  const firstMismatch = (from: number, count: number, pattern: RegExp): number => {
    for (let k = from; k < from + count; k++) if (!pattern.test(src[k] ?? '')) return k;
    return -1;
  };
  for (;;) {
    if (i >= n) fail(start, n);
    const c = src[i]!;
    if (triple ? src.startsWith(q.repeat(3), i) : c === q) {
      i += triple ? 3 : 1;
      break;
    }
    if (!triple && (c === '\n' || c === '\r')) fail(start, i);
    if (c === '\\' && !raw) {
      const e = src[i + 1];
      const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '`': '`', '?': '?' };
      if (e !== undefined && e in simple) {
        push(simple[e]!);
        i += 2;
        continue;
      }
      if (e !== undefined && /[0-3]/.test(e)) {
        const bad = firstMismatch(i + 2, 2, /[0-7]/);
        if (bad >= 0) fail(start, bad);
        const code = parseInt(src.slice(i + 1, i + 4), 8);
        if (bytes) out.push(code);
        else text += String.fromCodePoint(code);
        i += 4;
        continue;
      }
      if (e === 'x' || e === 'X') {
        const bad = firstMismatch(i + 2, 2, /[0-9a-fA-F]/);
        if (bad >= 0) fail(start, bad);
        const code = parseInt(src.slice(i + 2, i + 4), 16);
        if (bytes) out.push(code);
        else text += String.fromCodePoint(code);
        i += 4;
        continue;
      }
      const width = e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (width > 0) {
        const bad = firstMismatch(i + 2, width, /[0-9a-fA-F]/);
        if (bad >= 0) fail(start, bad);
        const code = parseInt(src.slice(i + 2, i + 2 + width), 16);
        // The lexer takes these; cel-go's unescape rejects them in bytes, and what is no code point.
        if (bytes) unescapeError ??= 'unable to unescape string';
        else if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000)) unescapeError ??= 'invalid unicode code point';
        else push(String.fromCodePoint(code));
        i += 2 + width;
        continue;
      }
      fail(start, i + 1);
    }
    const cp = src.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    push(ch);
    i += ch.length;
  }
  return { end: i, value: bytes ? Uint8Array.from(out) : text, ...(unescapeError !== undefined ? { unescapeError } : {}) };
}

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** cel-go's default limit on an expression's length, in code points (parser/parser.go; Kubernetes keeps it). */
const EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000;

/**
 * cel-go's error for a source past its size limit, which its parser refuses before reading it,
 * or undefined for one within it. Checked before anything else looks at an expression: checking
 * or evaluating one that long costs far more (s39a 10).
 */
export function sizeLimitExceeded(source: string): string | undefined {
  if (source.length <= EXPRESSION_SIZE_CODE_POINT_LIMIT) return undefined;
  const size = codePoints(source);
  return size > EXPRESSION_SIZE_CODE_POINT_LIMIT ? `expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_CODE_POINT_LIMIT}` : undefined;
}

/** The code points of a string (a surrogate pair is one). */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Parses CEL source into cel-go's AST, expanding the environment's macros. */
export function parse(source: string, options: ParseOptions): ParseResult {
  const oversize = sizeLimitExceeded(source);
  if (oversize !== undefined) return { ok: false, issues: [{ message: oversize }] };
  const { tokens, issues: lexIssues } = tokenize(source);
  const parser = new Parser(tokens, options);
  try {
    const expr = parser.parseExpr();
    parser.expectEnd();
    const issues = [...lexIssues, ...parser.issues];
    if (issues.length > 0) return { ok: false, issues };
    return { ok: true, expr, nextId: parser.nextId };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, issues: [...lexIssues, ...parser.issues, error.issue, ...error.followUp] };
    throw error;
  }
}

/** ANTLR's expectation set where an expression (a unary operand) must start. */
const EXPRESSION_START = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/** Where a map entry may start (after '{' or ','). */
const MAP_ENTRY_START = "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/** Binary operators and '?': tokens that may follow an expression and want an operand after them. */
const OPERATORS_WANTING_OPERAND: ReadonlySet<string> = new Set(['||', '&&', '==', '!=', '<', '<=', '>', '>=', 'in', '+', '-', '*', '/', '%', '?']);
/** Where a message field initializer may start. */
const FIELD_START = "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}";

class Parser {
  private pos = 0;
  private depth = 0;
  nextId = 1;
  /** Errors cel-go reports without stopping (macro and literal errors). */
  readonly issues: ParseIssue[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly options: ParseOptions,
  ) {}

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)]!;
  }
  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.pos++;
    return t;
  }
  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.type === 'punct' || t.type === 'keyword') && t.text === text;
  }
  private accept(text: string): Token | undefined {
    return this.is(text) ? this.next() : undefined;
  }
  private expect(text: string): Token {
    const t = this.peek();
    if (this.is(text)) return this.next();
    if (t.type === 'eof' || [')', ']', '}'].includes(text)) throw this.syntax(t, `missing '${text}' at '${t.text}'`);
    throw this.syntax(t, `mismatched input '${t.text}' expecting '${text}'`);
  }
  private syntax(t: Token, message: string): SyntaxFailure {
    return new SyntaxFailure({ message: `Syntax error: ${message}`, offset: t.start });
  }
  private id(): number {
    return this.nextId++;
  }
  private enter(): void {
    if (++this.depth > MAX_RECURSION_DEPTH) throw new SyntaxFailure({ message: `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}` });
  }
  private leave(): void {
    this.depth--;
  }

  /** Whether a token can start an expression (ANTLR's EXPRESSION_START set). */
  private startsExpression(t: Token): boolean {
    if (t.type === 'ident') return typeof t.value !== 'string';
    if (t.type === 'keyword') return t.text !== 'in';
    if (t.type === 'punct') return ['[', '{', '(', '.', '-', '!'].includes(t.text);
    return t.type !== 'eof';
  }

  /**
   * A token where `expecting` was: ANTLR deletes it when the token after it fits (single-token
   * deletion: "extraneous input", reported and parsing goes on), and otherwise stops at it
   * ("mismatched input"), then reports the next token too when it does not fit either.
   */
  private unexpected(t: Token, expecting: string, fits: (next: Token) => boolean): void {
    const next = this.peek(1);
    if (t.type !== 'eof' && fits(next)) {
      this.issues.push({ message: `Syntax error: extraneous input '${t.text}' expecting ${expecting}`, offset: t.start });
      this.next();
      return;
    }
    // Recovery keeps a token that may follow an expression; an operator then wants its operand.
    const operator = (t.type === 'punct' || t.type === 'keyword') && OPERATORS_WANTING_OPERAND.has(t.text);
    const followUp = operator && !fits(next) ? [{ message: `Syntax error: mismatched input '${next.text}' expecting ${expecting}`, offset: next.start }] : [];
    throw new SyntaxFailure({ message: `Syntax error: mismatched input '${t.text}' expecting ${expecting}`, offset: t.start }, followUp);
  }

  /** A '.' followed by no name: a keyword is a mismatch, anything else leaves ANTLR no viable alternative. */
  private afterDot(t: Token): SyntaxFailure {
    if (t.type === 'keyword') return this.syntax(t, `mismatched input '${t.text}' expecting IDENTIFIER`);
    return this.syntax(t, `no viable alternative at input '.${t.type === 'eof' ? '' : t.text}'`);
  }

  /** An escaped field name where the environment has no escape syntax: reported, and parsing goes on. */
  private fieldName(t: Token): string {
    if (typeof t.value !== 'string') return t.text;
    if (!this.options.identEscapeSyntax) this.issues.push({ message: "unsupported syntax: '`'", offset: t.start });
    return t.value;
  }

  expectEnd(): void {
    const t = this.peek();
    if (t.type === 'eof') return;
    // start: expr EOF. The trailing token is deleted when it is the last one.
    const last = this.peek(1).type === 'eof';
    throw this.syntax(t, `${last ? 'extraneous' : 'mismatched'} input '${t.text}' expecting <EOF>`);
  }

  // expr: conditionalOr ('?' conditionalOr ':' expr)?
  parseExpr(): Expr {
    this.enter();
    try {
      const condition = this.parseLogical('||');
      const question = this.accept('?');
      if (!question) return condition;
      const ifTrue = this.parseLogical('||');
      this.expect(':');
      const ifFalse = this.parseExpr();
      return this.call(question.start, '_?_:_', undefined, [condition, ifTrue, ifFalse]);
    } finally {
      this.leave();
    }
  }

  /** `||` over `&&` chains, each balanced as cel-go's balancer builds them. */
  private parseLogical(op: '||' | '&&'): Expr {
    const terms: Expr[] = [op === '||' ? this.parseLogical('&&') : this.parseRelation()];
    const ops: number[] = [];
    while (this.is(op)) {
      ops.push(this.next().start);
      terms.push(op === '||' ? this.parseLogical('&&') : this.parseRelation());
    }
    if (ops.length === 0) return terms[0]!;
    const fn = op === '||' ? '_||_' : '_&&_';
    const build = (lo: number, hi: number): Expr => {
      const mid = Math.floor((lo + hi + 1) / 2);
      const left = mid === lo ? terms[mid]! : build(lo, mid - 1);
      const right = mid === hi ? terms[mid + 1]! : build(mid + 1, hi);
      return this.call(ops[mid]!, fn, undefined, [left, right]);
    };
    return build(0, ops.length - 1);
  }

  private parseRelation(): Expr {
    let left = this.parseAddition();
    for (;;) {
      const t = this.peek();
      const relop = ['<', '<=', '>=', '>', '==', '!=', 'in'].find((op) => this.is(op));
      if (relop === undefined) return left;
      this.next();
      const right = this.parseAddition();
      left = this.call(t.start, relop === 'in' ? '@in' : `_${relop}_`, undefined, [left, right]);
    }
  }

  private parseAddition(): Expr {
    let left = this.parseMultiplication();
    for (;;) {
      const op = this.is('+') ? '+' : this.is('-') ? '-' : undefined;
      if (op === undefined) return left;
      const t = this.next();
      const right = this.parseMultiplication();
      left = this.call(t.start, `_${op}_`, undefined, [left, right]);
    }
  }

  private parseMultiplication(): Expr {
    let left = this.parseUnary();
    for (;;) {
      const op = ['*', '/', '%'].find((o) => this.is(o));
      if (op === undefined) return left;
      const t = this.next();
      const right = this.parseUnary();
      left = this.call(t.start, `_${op}_`, undefined, [left, right]);
    }
  }

  // unary: member | '!'+ member | '-'+ member; a '-' directly before a number is part of the literal.
  private parseUnary(): Expr {
    const first = this.peek();
    if (this.is('-') && ['int', 'double'].includes(this.peek(1).type)) {
      // literal: sign=MINUS? NUM_INT | sign=MINUS? NUM_FLOAT, then member suffixes.
      this.next();
      return this.parseMemberSuffixes(this.literal(this.next(), true, first.start));
    }
    if (this.is('!') || this.is('-')) {
      const op = first.text;
      let count = 0;
      let last = first;
      while (this.is(op)) {
        last = this.next();
        count++;
      }
      // CEL.g4 `(ops+='-')+ member`: after a '-', the loop may go on or a member may start, and a
      // member may itself start with '-' (a negative literal). When no member follows a second
      // '-', that decision has no viable alternative, reported from the '-' at the next token;
      // the member is then reported missing as well.
      const next = this.peek();
      if (op === '-' && count >= 2 && (!this.startsExpression(next) || this.is('!'))) {
        this.issues.push({ message: `Syntax error: no viable alternative at input '${last.text}'`, offset: next.start });
      }
      this.enter();
      try {
        const operand = this.parseMember();
        if (count % 2 === 0) return operand;
        return this.call(first.start, op === '!' ? '!_' : '-_', undefined, [operand]);
      } finally {
        this.leave();
      }
    }
    return this.parseMember();
  }

  private parseMember(): Expr {
    return this.parseMemberSuffixes(this.parsePrimary());
  }

  private parseMemberSuffixes(start: Expr): Expr {
    let e = start;
    for (;;) {
      if (this.is('.')) {
        const dot = this.next();
        const optional = this.is('?') ? this.next() : undefined;
        const nameToken = this.peek();
        if (nameToken.type !== 'ident') throw this.afterDot(nameToken);
        this.next();
        const name = this.fieldName(nameToken);
        if (optional) {
          if (!this.options.optionalSyntax) throw new SyntaxFailure({ message: "unsupported syntax '.?'", offset: dot.start });
          e = this.call(dot.start, '_?._', undefined, [e, { kind: 'literal', id: this.id(), offset: nameToken.start, type: 'string', value: name }]);
          continue;
        }
        if (this.is('(') && typeof nameToken.value !== 'string') {
          const open = this.next();
          const args = this.parseArgs(')');
          e = this.receiverCallOrMacro(open.start, name, e, args);
          continue;
        }
        e = { kind: 'select', id: this.id(), offset: dot.start, operand: e, field: name, testOnly: false };
        continue;
      }
      if (this.is('[')) {
        const open = this.next();
        const optional = this.accept('?');
        if (optional && !this.options.optionalSyntax) throw new SyntaxFailure({ message: "unsupported syntax '[?'", offset: open.start });
        const index = this.parseExpr();
        this.expect(']');
        e = this.call(open.start, optional ? '_[?_]' : '_[_]', undefined, [e, index]);
        continue;
      }
      return e;
    }
  }

  private parseArgs(close: string): Expr[] {
    const args: Expr[] = [];
    if (this.accept(close)) return args;
    for (;;) {
      args.push(this.parseExpr());
      if (this.accept(',')) continue;
      this.expect(close);
      return args;
    }
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    if (!this.startsExpression(t) || (this.is('.') && this.peek(1).type !== 'ident')) {
      if (this.is('.')) throw this.afterDot(this.peek(1));
      this.unexpected(t, EXPRESSION_START, (next) => this.startsExpression(next));
      return this.parsePrimary();
    }
    if (t.type === 'ident' || (this.is('.') && this.peek(1).type === 'ident')) {
      const leadingDot = this.accept('.') ? '.' : '';
      // Message construction: a qualified name followed by '{'.
      let k = 1;
      while (this.is('.', k) && this.peek(k + 1).type === 'ident') k += 2;
      if (this.is('{', k)) return this.parseStruct(leadingDot);
      const idToken = this.next();
      if (typeof idToken.value === 'string') throw this.syntax(idToken, `mismatched input '${idToken.text}' expecting IDENTIFIER`);
      if (RESERVED.has(idToken.text)) {
        // Reported, and parsing goes on (the arguments of a call are not visited).
        this.issues.push({ message: `reserved identifier: ${idToken.text}`, offset: idToken.start });
        if (this.accept('(')) this.parseArgs(')');
        return { kind: 'call', id: this.id(), offset: idToken.start, fn: '<error>', args: [] };
      }
      const name = leadingDot + idToken.text;
      if (this.is('(')) {
        const open = this.next();
        const args = this.parseArgs(')');
        return this.globalCallOrMacro(open.start, name, args);
      }
      return { kind: 'ident', id: this.id(), offset: idToken.start, name };
    }
    if (this.is('(')) {
      this.next();
      const e = this.parseExpr();
      this.expect(')');
      return e;
    }
    if (this.is('[')) {
      const open = this.next();
      const elements: Expr[] = [];
      const optionalIndices: number[] = [];
      // cel-go's grammar reads `'[' listInit? ','? ']'`: a lone ',' (`[,]`) is an empty list.
      if (this.is(',') && this.is(']', 1)) this.next();
      while (!this.is(']')) {
        // A trailing ',' is allowed (`[1, 2,]`): at the end of input ANTLR then reports the
        // missing ']' (cel-go: "missing ']' at '<EOF>'"), not a missing element.
        if (elements.length > 0 && this.peek().type === 'eof') break;
        const optional = this.accept('?');
        if (optional) {
          if (!this.options.optionalSyntax) throw new SyntaxFailure({ message: "unsupported syntax '?'", offset: optional.start });
          optionalIndices.push(elements.length);
        }
        elements.push(this.parseExpr());
        if (!this.accept(',')) break;
      }
      this.expect(']');
      return { kind: 'list', id: this.id(), offset: open.start, elements, optionalIndices };
    }
    if (this.is('{')) {
      const open = this.next();
      const id = this.id();
      const entries: MapEntry[] = [];
      // `'{' mapInitializerList? ','? '}'`: `{,}` is an empty map.
      if (this.is(',') && this.is('}', 1)) this.next();
      while (!this.is('}')) {
        if (!this.is('?') && !this.startsExpression(this.peek())) {
          this.unexpected(this.peek(), MAP_ENTRY_START, (next) => next.type !== 'eof' && (this.startsExpression(next) || (next.type === 'punct' && ['}', ',', '?'].includes(next.text))));
          continue;
        }
        const optional = this.accept('?');
        if (optional && !this.options.optionalSyntax) throw new SyntaxFailure({ message: "unsupported syntax '?'", offset: optional.start });
        const key = this.parseExpr();
        const colon = this.colon();
        if (colon === undefined) break;
        const value = this.parseExpr();
        entries.push({ id: this.id(), offset: colon.start, key, value, optional: optional !== undefined });
        if (!this.accept(',')) break;
      }
      this.expect('}');
      return { kind: 'map', id, offset: open.start, entries };
    }
    this.next();
    return this.literal(t, false, t.start);
  }

  /**
   * The ':' of a map entry or field initializer. When another token stands there, ANTLR reports
   * it and recovers by leaving the entries (the closing '}' is then matched as usual).
   */
  private colon(): Token | undefined {
    if (this.is(':')) return this.next();
    const t = this.peek();
    if (t.type === 'eof') throw this.syntax(t, `missing ':' at '<EOF>'`);
    this.issues.push({ message: `Syntax error: mismatched input '${t.text}' expecting ':'`, offset: t.start });
    return undefined;
  }

  private parseStruct(leadingDot: string): Expr {
    let name = leadingDot + this.next().text;
    while (this.is('.')) {
      this.next();
      name += '.' + this.next().text;
    }
    const open = this.expect('{');
    const id = this.id();
    const fields: StructField[] = [];
    // `'{' fieldInitializerList? ','? '}'`: `Msg{,}` has no fields.
    if (this.is(',') && this.is('}', 1)) this.next();
    while (!this.is('}')) {
      if (this.peek().type !== 'ident' && !this.is('?') && !this.is(',')) {
        this.unexpected(this.peek(), FIELD_START, (next) => next.type === 'ident' || (next.type === 'punct' && ['}', ',', '?'].includes(next.text)));
        continue;
      }
      const optional = this.accept('?');
      if (optional && !this.options.optionalSyntax) throw new SyntaxFailure({ message: "unsupported syntax '?'", offset: optional.start });
      const fieldToken = this.peek();
      if (fieldToken.type !== 'ident') throw this.syntax(fieldToken, `mismatched input '${fieldToken.text}' expecting ${optional ? '{IDENTIFIER, ESC_IDENTIFIER}' : 'IDENTIFIER'}`);
      this.next();
      const fieldName = this.fieldName(fieldToken);
      const colon = this.colon();
      if (colon === undefined) break;
      const value = this.parseExpr();
      fields.push({ id: this.id(), offset: colon.start, name: fieldName, value, optional: optional !== undefined });
      if (!this.accept(',')) break;
    }
    this.expect('}');
    return { kind: 'struct', id, offset: open.start, typeName: name, fields };
  }

  private literal(t: Token, negative: boolean, offset: number): Expr {
    const id = this.id();
    switch (t.type) {
      case 'int': {
        const digits = t.text;
        let value = /^0[xX]/.test(digits) ? BigInt(digits) : BigInt(digits);
        if (negative) value = -value;
        if (value > INT64_MAX || value < -INT64_MAX - 1n) this.issues.push({ message: 'invalid int literal', offset });
        return { kind: 'literal', id, offset, type: 'int', value };
      }
      case 'uint': {
        const value = BigInt(t.text.slice(0, -1));
        if (value > UINT64_MAX) this.issues.push({ message: 'invalid uint literal', offset });
        return { kind: 'literal', id, offset, type: 'uint', value };
      }
      case 'double': {
        // strconv.ParseFloat fails with ErrRange past the double range (an underflow is 0, no error).
        const value = (negative ? -1 : 1) * Number(t.text);
        if (!Number.isFinite(value)) this.issues.push({ message: 'invalid double literal', offset });
        return { kind: 'literal', id, offset, type: 'double', value };
      }
      case 'string':
        // parser.go VisitString / VisitBytes report what unescape rejects.
        if (t.unescapeError !== undefined) this.issues.push({ message: t.unescapeError, offset });
        return { kind: 'literal', id, offset, type: 'string', value: t.value as string };
      case 'bytes':
        if (t.unescapeError !== undefined) this.issues.push({ message: t.unescapeError, offset });
        return { kind: 'literal', id, offset, type: 'bytes', value: t.value as Uint8Array };
      default:
        if (t.text === 'null') return { kind: 'literal', id, offset, type: 'null', value: null };
        return { kind: 'literal', id, offset, type: 'bool', value: t.text === 'true' };
    }
  }

  private call(offset: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    return target ? { kind: 'call', id: this.id(), offset, fn, target, args } : { kind: 'call', id: this.id(), offset, fn, args };
  }

  // --- macros -------------------------------------------------------------------------------

  private macroError(node: Expr, message: string): Expr {
    this.issues.push({ message, offset: node.offset });
    return { kind: 'literal', id: this.id(), offset: node.offset, type: 'string', value: '<<error>>' };
  }

  private globalCallOrMacro(offset: number, name: string, args: Expr[]): Expr {
    if (name === 'has' && args.length === 1 && this.options.macros.has('has')) {
      const arg = args[0]!;
      if (arg.kind !== 'select') return this.macroError(arg, 'invalid argument to has() macro');
      return { kind: 'select', id: this.id(), offset, operand: arg.operand, field: arg.field, testOnly: true };
    }
    return this.call(offset, name, undefined, args);
  }

  private receiverCallOrMacro(offset: number, name: string, target: Expr, args: Expr[]): Expr {
    const m = this.options.macros;
    const at = { offset };
    if (args.length === 2 && (name === 'all' || name === 'exists' || name === 'exists_one') && m.has(name)) return this.quantifier(at, name, target, args);
    if ((args.length === 2 || args.length === 3) && name === 'map' && m.has('map')) return this.mapMacro(at, target, args);
    if (args.length === 2 && name === 'filter' && m.has('filter')) return this.filterMacro(at, target, args);
    if (args.length === 3 && ((name === 'all' && m.has('all2')) || (name === 'exists' && m.has('exists2')) || (name === 'existsOne' && m.has('existsOne2')) || (name === 'exists_one' && m.has('exists_one2')))) {
      return this.twoVarQuantifier(at, name === 'existsOne' ? 'exists_one' : (name as 'all' | 'exists' | 'exists_one'), target, args);
    }
    if ((args.length === 3 || args.length === 4) && (name === 'transformList' || name === 'transformMap' || name === 'transformMapEntry') && m.has(name)) return this.transform(at, name, target, args);
    if (args.length === 2 && (name === 'optMap' || name === 'optFlatMap') && m.has(name)) return this.optMap(at, name, target, args);
    if (args.length === 2 && name === 'sortBy' && m.has('sortBy')) return this.sortBy(at, target, args);
    return this.call(offset, name, target, args);
  }

  private lit(at: { offset: number }, type: 'bool' | 'int', value: boolean | bigint): Expr {
    return { kind: 'literal', id: this.id(), offset: at.offset, type, value };
  }
  private ident(at: { offset: number }, name: string): Expr {
    return { kind: 'ident', id: this.id(), offset: at.offset, name };
  }
  private accu(at: { offset: number }): Expr {
    return this.ident(at, ACCUMULATOR);
  }
  private list(at: { offset: number }, elements: Expr[]): Expr {
    return { kind: 'list', id: this.id(), offset: at.offset, elements, optionalIndices: [] };
  }
  private comprehension(at: { offset: number }, parts: Omit<ComprehensionExpr, 'kind' | 'id' | 'offset'>): Expr {
    return { kind: 'comprehension', id: this.id(), offset: at.offset, ...parts };
  }

  private iterVar(arg: Expr, message: string): string | Expr {
    if (arg.kind !== 'ident') return this.macroError(arg, message);
    if (arg.name === ACCUMULATOR || arg.name === LEGACY_ACCUMULATOR) return this.macroError(arg, 'iteration variable overwrites accumulator variable');
    return arg.name;
  }

  private quantifier(at: { offset: number }, kind: 'all' | 'exists' | 'exists_one', target: Expr, args: Expr[]): Expr {
    const v = this.iterVar(args[0]!, 'argument must be a simple name');
    if (typeof v !== 'string') return v;
    return this.comprehension(at, { iterRange: target, iterVar: v, accuVar: ACCUMULATOR, ...this.quantifierParts(at, kind, args[1]!) });
  }

  private quantifierParts(at: { offset: number }, kind: 'all' | 'exists' | 'exists_one', predicate: Expr): Pick<ComprehensionExpr, 'accuInit' | 'loopCondition' | 'loopStep' | 'result'> {
    switch (kind) {
      case 'all':
        return {
          accuInit: this.lit(at, 'bool', true),
          loopCondition: this.call(at.offset, '@not_strictly_false', undefined, [this.accu(at)]),
          loopStep: this.call(at.offset, '_&&_', undefined, [this.accu(at), predicate]),
          result: this.accu(at),
        };
      case 'exists':
        return {
          accuInit: this.lit(at, 'bool', false),
          loopCondition: this.call(at.offset, '@not_strictly_false', undefined, [this.call(at.offset, '!_', undefined, [this.accu(at)])]),
          loopStep: this.call(at.offset, '_||_', undefined, [this.accu(at), predicate]),
          result: this.accu(at),
        };
      case 'exists_one':
        return {
          accuInit: this.lit(at, 'int', 0n),
          loopCondition: this.lit(at, 'bool', true),
          loopStep: this.call(at.offset, '_?_:_', undefined, [predicate, this.call(at.offset, '_+_', undefined, [this.accu(at), this.lit(at, 'int', 1n)]), this.accu(at)]),
          result: this.call(at.offset, '_==_', undefined, [this.accu(at), this.lit(at, 'int', 1n)]),
        };
    }
  }

  private mapMacro(at: { offset: number }, target: Expr, args: Expr[]): Expr {
    const v = this.iterVar(args[0]!, 'argument is not an identifier');
    if (typeof v !== 'string') return v;
    const filter = args.length === 3 ? args[1] : undefined;
    const fn = args.length === 3 ? args[2]! : args[1]!;
    let step = this.call(at.offset, '_+_', undefined, [this.accu(at), this.list(at, [fn])]);
    if (filter) step = this.call(at.offset, '_?_:_', undefined, [filter, step, this.accu(at)]);
    return this.comprehension(at, { iterRange: target, iterVar: v, accuVar: ACCUMULATOR, accuInit: this.list(at, []), loopCondition: this.lit(at, 'bool', true), loopStep: step, result: this.accu(at) });
  }

  private filterMacro(at: { offset: number }, target: Expr, args: Expr[]): Expr {
    const v = this.iterVar(args[0]!, 'argument is not an identifier');
    if (typeof v !== 'string') return v;
    const step = this.call(at.offset, '_?_:_', undefined, [args[1]!, this.call(at.offset, '_+_', undefined, [this.accu(at), this.list(at, [args[0]!])]), this.accu(at)]);
    return this.comprehension(at, { iterRange: target, iterVar: v, accuVar: ACCUMULATOR, accuInit: this.list(at, []), loopCondition: this.lit(at, 'bool', true), loopStep: step, result: this.accu(at) });
  }

  /** ext/comprehensions.go extractIterVars. */
  private iterVars(args: Expr[]): [string, string] | Expr {
    const [a0, a1] = [args[0]!, args[1]!];
    if (a0.kind !== 'ident') return this.macroError(a0, 'argument must be a simple name');
    if (a1.kind !== 'ident') return this.macroError(a1, 'argument must be a simple name');
    if (a0.name === a1.name) return this.macroError(a1, `duplicate variable name: ${a0.name}`);
    if (a0.name === ACCUMULATOR || a0.name === LEGACY_ACCUMULATOR) return this.macroError(a0, 'iteration variable overwrites accumulator variable');
    if (a1.name === ACCUMULATOR || a1.name === LEGACY_ACCUMULATOR) return this.macroError(a1, 'iteration variable overwrites accumulator variable');
    return [a0.name, a1.name];
  }

  private twoVarQuantifier(at: { offset: number }, kind: 'all' | 'exists' | 'exists_one', target: Expr, args: Expr[]): Expr {
    const vars = this.iterVars(args);
    if (!Array.isArray(vars)) return vars;
    // ext/comprehensions.go builds the same accumulator, condition, step and result as the one-variable macros.
    const parts = this.quantifierParts(at, kind, args[2]!);
    return this.comprehension(at, { iterRange: target, iterVar: vars[0], iterVar2: vars[1], accuVar: ACCUMULATOR, ...parts });
  }

  private transform(at: { offset: number }, name: 'transformList' | 'transformMap' | 'transformMapEntry', target: Expr, args: Expr[]): Expr {
    const vars = this.iterVars(args);
    if (!Array.isArray(vars)) return vars;
    const filter = args.length === 4 ? args[2] : undefined;
    const transform = args.length === 4 ? args[3]! : args[2]!;
    let step: Expr;
    let accuInit: Expr;
    if (name === 'transformList') {
      step = this.call(at.offset, '_+_', undefined, [this.accu(at), this.list(at, [transform])]);
      accuInit = this.list(at, []);
    } else {
      const insertArgs = name === 'transformMap' ? [this.accu(at), this.ident(at, vars[0]), transform] : [this.accu(at), transform];
      step = this.call(at.offset, 'cel.@mapInsert', undefined, insertArgs);
      accuInit = { kind: 'map', id: this.id(), offset: at.offset, entries: [] };
    }
    if (filter) step = this.call(at.offset, '_?_:_', undefined, [filter, step, this.accu(at)]);
    return this.comprehension(at, { iterRange: target, iterVar: vars[0], iterVar2: vars[1], accuVar: ACCUMULATOR, accuInit, loopCondition: this.lit(at, 'bool', true), loopStep: step, result: this.accu(at) });
  }

  private optMap(at: { offset: number }, name: 'optMap' | 'optFlatMap', target: Expr, args: Expr[]): Expr {
    const varIdent = args[0]!;
    if (varIdent.kind !== 'ident') return this.macroError(varIdent, `${name}() variable name must be a simple identifier`);
    const inner = this.comprehension(at, {
      iterRange: this.list(at, []),
      iterVar: '#unused',
      accuVar: varIdent.name,
      accuInit: this.call(at.offset, 'value', this.copy(target), []),
      loopCondition: this.lit(at, 'bool', false),
      loopStep: this.ident(at, varIdent.name),
      result: args[1]!,
    });
    const ifPresent = name === 'optMap' ? this.call(at.offset, 'optional.of', undefined, [inner]) : inner;
    return this.call(at.offset, '_?_:_', undefined, [this.call(at.offset, 'hasValue', target, []), ifPresent, this.call(at.offset, 'optional.none', undefined, [])]);
  }

  private sortBy(at: { offset: number }, target: Expr, args: Expr[]): Expr {
    if (!['list', 'select', 'ident', 'comprehension', 'call'].includes(target.kind)) {
      return this.macroError(target, 'sortBy can only be applied to a list, identifier, comprehension, call or select expression');
    }
    const input = '@__sortBy_input__';
    const keys = this.mapMacro(at, this.ident(at, input), args);
    return this.comprehension(at, {
      iterRange: this.list(at, []),
      iterVar: '#unused',
      accuVar: input,
      accuInit: target,
      loopCondition: this.lit(at, 'bool', false),
      loopStep: this.ident(at, input),
      result: this.call(at.offset, '@sortByAssociatedKeys', this.ident(at, input), [keys]),
    });
  }

  /** A copy with fresh ids (cel-go's MacroExprFactory.Copy). */
  private copy(e: Expr): Expr {
    const id = this.id();
    switch (e.kind) {
      case 'literal':
      case 'ident':
        return { ...e, id };
      case 'select':
        return { ...e, id, operand: this.copy(e.operand) };
      case 'call':
        return e.target ? { ...e, id, target: this.copy(e.target), args: e.args.map((a) => this.copy(a)) } : { ...e, id, args: e.args.map((a) => this.copy(a)) };
      case 'list':
        return { ...e, id, elements: e.elements.map((x) => this.copy(x)) };
      case 'map':
        return { ...e, id, entries: e.entries.map((x) => ({ ...x, id: this.id(), key: this.copy(x.key), value: this.copy(x.value) })) };
      case 'struct':
        return { ...e, id, fields: e.fields.map((f) => ({ ...f, id: this.id(), value: this.copy(f.value) })) };
      case 'comprehension':
        return {
          ...e,
          id,
          iterRange: this.copy(e.iterRange),
          accuInit: this.copy(e.accuInit),
          loopCondition: this.copy(e.loopCondition),
          loopStep: this.copy(e.loopStep),
          result: this.copy(e.result),
        };
    }
  }
}
