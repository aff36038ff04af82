/**
 * The fast reader: the block YAML that real manifests are written in (`kubectl`, `kustomize build`,
 * `helm template`, hand-written), read without building a syntax tree, many times cheaper than
 * `yaml`. It is exact where it reads: it returns the value `yaml` gives for the document (YAML
 * 1.1, merge keys, unique keys: src/parse/yaml.ts), or undefined when the document uses a form it
 * leaves to `yaml`. src/parse/read.ts decides when a document's value is enough (no positions).
 *
 * Read:
 * - block mappings and sequences indented with spaces (a sequence may sit at its key's
 *   indentation), `- key: value` items, comments, blank lines, a line break of `\r\n`;
 * - plain scalars, also over several lines (folded as YAML folds them) and starting with `-`, `?`
 *   or `:` before a non-space (`- --port=8080`, `:8080`); resolved with `yaml`'s own YAML 1.1
 *   tests for null and booleans, decimal integers (with a sign), octal integers (`0644`) and
 *   decimal fractions (`0.5`). Any other plain scalar that starts like a number, a timestamp or
 *   .inf/.nan is not read;
 * - single- and double-quoted scalars, also over several lines (folded, escaped line breaks), with
 *   every escape of YAML's double-quoted style;
 * - literal and folded block scalars (`|`, `|-`, `>`, `>-`) with automatic indentation;
 * - flow sequences and mappings on one line, nested (`{a: [b, {c: d}]}`).
 *
 * Not read (undefined): tabs outside scalars, anchors, aliases, tags, merge keys, block scalars
 * with an indentation indicator or `+` (keep), folded block scalars with more-indented lines,
 * flow collections over several lines or with empty entries, complex and explicit keys,
 * duplicate keys, keys that are not strings, keys whose `:` is more than 1024 characters after
 * their start, collections nested more than 256 deep, directives and document markers inside the
 * text, a root that is not a mapping, control characters and the line breaks only YAML 1.1 knows.
 * Equality with `yaml` is tested on every document of the fixtures and both real-world corpora,
 * and on generated documents of each form (test/simple-yaml.test.ts), and with kubectl on the
 * generated documents (test/simple-yaml-kubectl.test.ts); coverage of workload documents is
 * printed by bench/reader-coverage.mjs.
 */
import { goYamlNumber } from './go-yaml-schema.js';
import { NodeKind, RecordWriter, type PositionRecords } from './position-records.js';

/** `yaml`'s YAML 1.1 tests (schema/yaml-1.1/bool.js, schema/common/null.js). */
const TRUE = /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const FALSE = /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
/** The plain scalars that are neither strings nor numbers nor words: `.inf`, `.nan` and the merge key. */
const SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|<<)$/;
/**
 * Characters this reader leaves to `yaml`: control characters (besides tab, line feed and a
 * carriage return before a line feed), the BOM, the line breaks YAML 1.1 adds (NEL, LS, PS), and
 * the spaces that are not YAML's (no-break, ideographic, …): YAML reads them as text, and
 * JavaScript's trim, which this reader uses, would take them away (attack s50a H1-H3).
 */
const UNREAD_CHARACTERS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const LONE_CR = /\r(?!\n)/;
/** Characters a plain scalar may not start with (indicators), besides those that start numbers. */
const INDICATOR = /^[,[\]{}#&*!|>'"%@`<=]/;
/** `-`, `?` and `:` start a plain scalar only before a character that is not a space. */
const DASH_LIKE = /^[-?:](?:[ \t]|$)/;
/** What a plain scalar written over several lines cannot hold: the reader leaves it to `yaml`. */
const CONTINUATION_UNREAD = /^(?:[?:,[\]{}#&*!|>'"%@`<=]|-(?: |$))|: |:$| #|\t/;
/** An anchor (`&name `) before a scalar, and an alias (`*name`). */
const ANCHOR = /^&([^\s,[\]{}]+)(?: +|$)/;
const ALIAS = /^\*([^\s,[\]{}]+)$/;
/** src/parse/yaml.ts MAX_ALIAS_WORK: a document past it is reported by the full parse, so never read here. */
const MAX_ALIAS_WORK = 20_000_000;
const BLOCK_HEADER = /^([|>])(-?)(?: +#.*)?$/;

/** Thrown where a document leaves this reader's subset (also by the helpers src/parse/common-yaml.ts shares). */
export class NotSimple extends Error {}

/** How far after an implicit key's start its `:` may be (YAML 1.2 §7.4.2, 1024 characters). */
const MAX_KEY_SPAN = 1024;
/**
 * Collections nested deeper than this are left to `yaml` (which reports a document past its
 * own limit, about 900 levels, as too deep to read); no manifest comes near it.
 */
const MAX_DEPTH = 256;

function fail(): never {
  throw new NotSimple();
}

interface Line {
  /** Leading spaces. */
  readonly indent: number;
  /** The rest of the line (a trailing `\r` removed), not trimmed. */
  readonly text: string;
  /** Nothing but spaces and tabs. */
  readonly blank: boolean;
  /** A comment line (spaces and tabs, then `#`). */
  readonly comment: boolean;
  readonly tab: boolean;
}

function readLine(indent: number, text: string): Line {
  const c = text.charCodeAt(0);
  // Most lines start with their content: only a tab after the spaces needs a closer look.
  if (c === 9) {
    const rest = text.trimStart();
    return { indent, text, blank: rest === '', comment: rest[0] === '#', tab: true };
  }
  return { indent, text, blank: text.length === 0, comment: c === 35, tab: text.includes('\t') };
}

function isBlank(line: Line): boolean {
  return line.blank;
}

function isComment(line: Line): boolean {
  return line.comment;
}

/** The plain scalars starting with a letter that TRUE, FALSE and NULL read as booleans and null. */
const WORDS: ReadonlyMap<string, boolean | null> = new Map<string, boolean | null>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((word): [string, boolean] => [word, true]),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((word): [string, boolean] => [word, false]),
  ...['null', 'Null', 'NULL'].map((word): [string, null] => [word, null]),
]);

/** A plain scalar's value, as the full parse resolves it (go-yaml's rules); NotSimple for the forms this reader leaves to it. */
export function plainValue(text: string): unknown {
  const c = text.charCodeAt(0);
  // Most scalars start with a letter: then only a word is a boolean or null (go-yaml never
  // reads a number there).
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    const word = text.length <= 5 ? WORDS.get(text) : undefined;
    return word !== undefined ? word : text;
  }
  if (NULL.test(text)) return null;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  // Numbers by the very functions the full parse resolves them with (src/parse/go-yaml-schema.ts).
  const number = goYamlNumber(text);
  if (number !== undefined) return number;
  if (INDICATOR.test(text) || DASH_LIKE.test(text) || SPECIAL.test(text)) fail();
  return text;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/**
 * One line's piece of a double-quoted scalar, its escapes decoded. `literalEnd`: how many of the
 * decoded characters at its end were written as spaces (a line break folds them away);
 * `escapedBreak`: the piece ends with a backslash, which escapes the line break.
 */
function decodeDouble(raw: string): { value: string; literalEnd: number; escapedBreak: boolean } {
  let value = '';
  let literalEnd = 0;
  for (let at = 0; at < raw.length; at++) {
    const c = raw[at]!;
    if (c !== '\\') {
      value += c;
      literalEnd = c === ' ' ? literalEnd + 1 : 0;
      continue;
    }
    literalEnd = 0;
    const next = raw[at + 1];
    if (next === undefined) return { value, literalEnd: 0, escapedBreak: true };
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      value += simple;
      at++;
      continue;
    }
    const length = HEX_LENGTH[next];
    if (length === undefined) fail();
    const hex = raw.slice(at + 2, at + 2 + length);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) fail();
    const code = parseInt(hex, 16);
    // Surrogates and code points past Unicode: left to `yaml`.
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) fail();
    value += String.fromCodePoint(code);
    at += 1 + length;
  }
  return { value, literalEnd, escapedBreak: false };
}

/** Where the quoted scalar that opens at `text[0]` closes on this line (the closing quote's index), or -1. */
export function closingQuote(text: string, from: number): number {
  const quote = text[0];
  for (let at = from; at < text.length; at++) {
    const c = text[at];
    if (quote === '"' && c === '\\') {
      at++;
      continue;
    }
    if (c === quote) {
      if (quote === "'" && text[at + 1] === "'") {
        at++;
        continue;
      }
      return at;
    }
  }
  return -1;
}

/** A quoted scalar's one-line piece, decoded. */
export function quotedPiece(quote: string, raw: string): { value: string; literalEnd: number; escapedBreak: boolean } {
  if (quote === '"') return decodeDouble(raw);
  const value = raw.replace(/''/g, "'");
  return { value, literalEnd: value.length - value.replace(/ +$/, '').length, escapedBreak: false };
}

/** The value of a quoted scalar written on one line at the start of `text`, and where it ends. */
export function quoted(text: string): { value: string; end: number } {
  const close = closingQuote(text, 1);
  if (close < 0) fail();
  const piece = quotedPiece(text[0]!, text.slice(1, close));
  if (piece.escapedBreak) fail();
  return { value: piece.value, end: close + 1 };
}

/** Nothing but spaces, or spaces and a comment, may follow a value. */
export function restIsEmpty(text: string): boolean {
  return text.trim() === '' || /^ +#/.test(text);
}

/** A flow collection or scalar on one line, from `at`: its value and where it ends. */
class FlowReader {
  constructor(
    private readonly text: string,
    public at: number,
    /** Where positions are written, and the offset of `text[0]` in the file. */
    private readonly record?: { readonly writer: RecordWriter; readonly base: number },
  ) {}

  private spaces(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  node(): unknown {
    this.spaces();
    const c = this.text[this.at];
    if (c === '[') return this.sequence();
    if (c === '{') return this.mapping();
    const start = this.at;
    const value = c === '"' || c === "'" ? this.quoted() : plainValue(this.plain());
    this.record?.writer.leaf(this.record.base + start, this.record.base + this.at);
    return value;
  }

  private quoted(): string {
    const { value, end } = quoted(this.text.slice(this.at));
    this.at += end;
    return value;
  }

  /** A plain scalar in a flow collection: up to a flow indicator or a comment; no `:` in it. */
  private plain(): string {
    const start = this.at;
    while (this.at < this.text.length && !',[]{}'.includes(this.text[this.at]!)) {
      if (this.text[this.at] === ':' || (this.text[this.at] === '#' && this.text[this.at - 1] === ' ')) fail();
      this.at++;
    }
    const value = this.text.slice(start, this.at).trimEnd();
    if (value === '') fail();
    // A plain scalar's range ends at its last character (the spaces after it are not its).
    this.at = start + value.length;
    return value;
  }

  /** Opens a collection node at `this.at`; `close` ends it after its closing bracket. */
  private open(kind: NodeKind): number | undefined {
    return this.record?.writer.open(kind, this.record.base + this.at);
  }

  private close<T>(node: number | undefined, value: T): T {
    this.depth--;
    if (node !== undefined) this.record!.writer.close(node, this.record!.base + this.at);
    return value;
  }

  /** Collections open around the one being read (the block ones around the flow collection included). */
  depth = 0;

  private sequence(): unknown[] {
    if (++this.depth > MAX_DEPTH) fail();
    const node = this.open(NodeKind.Seq);
    this.at++;
    const items: unknown[] = [];
    this.spaces();
    if (this.text[this.at] === ']') {
      this.at++;
      return this.close(node, items);
    }
    for (;;) {
      items.push(this.node());
      this.spaces();
      const c = this.text[this.at++];
      if (c === ']') return this.close(node, items);
      if (c !== ',') fail();
      this.spaces();
      // `[a, ]` and `[a, , b]`: left to `yaml`.
      if (this.text[this.at] === ']' || this.text[this.at] === ',') fail();
    }
  }

  private mapping(): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) fail();
    const node = this.open(NodeKind.Map);
    this.at++;
    const object: Record<string, unknown> = {};
    this.spaces();
    if (this.text[this.at] === '}') {
      this.at++;
      return this.close(node, object);
    }
    for (;;) {
      this.spaces();
      const c = this.text[this.at];
      if (c === '[' || c === '{') fail();
      const keyStart = this.at;
      const key = c === '"' || c === "'" ? this.quoted() : this.plainKey();
      if (typeof key !== 'string') fail();
      this.record?.writer.name(key, this.record.base + keyStart, this.record.base + keyStart + (c === '"' || c === "'" ? this.at - keyStart : key.length));
      this.spaces();
      if (this.text[this.at] !== ':') fail();
      this.at++;
      // `{"a":b}`, and `{a: }` (a null value): left to `yaml`.
      const value = this.text.slice(this.at).trimStart()[0];
      if (this.text[this.at] !== ' ' || value === undefined || value === ',' || value === '}') fail();
      setKey(object, key, this.node());
      this.spaces();
      const next = this.text[this.at++];
      if (next === '}') return this.close(node, object);
      if (next !== ',') fail();
      this.spaces();
      if (this.text[this.at] === '}' || this.text[this.at] === ',') fail();
    }
  }

  /** A plain key in a flow mapping: up to `: `. */
  private plainKey(): unknown {
    const start = this.at;
    while (this.at < this.text.length && !',[]{}:#'.includes(this.text[this.at]!)) this.at++;
    if (this.at - start > MAX_KEY_SPAN) fail();
    if (this.text[this.at] !== ':' || (this.text[this.at + 1] !== ' ' && this.text[this.at + 1] !== undefined)) fail();
    const key = this.text.slice(start, this.at).trimEnd();
    if (key === '') fail();
    return plainValue(key);
  }
}

/** A flow collection written on one line (`value` starts with its bracket), nested `depth` deep; NotSimple unless only spaces or a comment follow it. */
export function flowLine(value: string, depth: number): unknown {
  const reader = new FlowReader(value, 0);
  reader.depth = depth;
  const node = reader.node();
  if (!restIsEmpty(value.slice(reader.at))) fail();
  return node;
}

function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || key === '<<' || Object.prototype.hasOwnProperty.call(object, key)) fail();
  object[key] = value;
}

/** A key and what follows its colon, or undefined when `text` does not start with `key:`. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (text[0] === '"' || text[0] === "'") {
    const close = closingQuote(text, 1);
    if (close < 0) return undefined;
    const { value, end } = quoted(text);
    const after = text.slice(end).trimStart();
    if (!after.startsWith(':') || (after.length > 1 && after[1] !== ' ')) return undefined;
    if (text.length - after.length > MAX_KEY_SPAN) fail();
    return { key: value, rest: after.slice(1) };
  }
  // A plain key: a letter or `_`, then letters, digits and `_./-`; spaces; `:` before a space or the end.
  const first = text.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90) || first === 95)) return undefined;
  let at = 1;
  for (let c = text.charCodeAt(at); (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 45 && c <= 57) || c === 95; c = text.charCodeAt(++at));
  const key = text.slice(0, at);
  while (text.charCodeAt(at) === 32) at++;
  if (text.charCodeAt(at) !== 58) return undefined;
  // YAML puts an implicit key's `:` at most 1024 characters after its start (`yaml` and go-yaml refuse more).
  if (at > MAX_KEY_SPAN) fail();
  const after = text.charCodeAt(at + 1);
  if (after === 32) at++;
  else if (at + 1 < text.length) return undefined;
  if (typeof plainValue(key) !== 'string') fail();
  return { key, rest: text.slice(at + 1) };
}

/**
 * The key a block mapping line (`text`, its indentation removed) starts with, as this reader reads
 * it: its value, how many characters it spans (quotes included) and what follows its colon;
 * undefined when the line is not `key:` in the forms read here (src/parse/simple-positions.ts).
 */
export function lineKey(text: string): { key: string; length: number; rest: string } | undefined {
  try {
    const entry = splitKey(text);
    if (entry === undefined) return undefined;
    const c = text[0];
    const length = c === '"' || c === "'" ? closingQuote(text, 1) + 1 : entry.key.length;
    return { key: entry.key, length, rest: entry.rest };
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}

/** Where a quoted scalar that opens at `text[0]` closes on its line (the index after the quote), or -1. */
export function quotedEnd(text: string): number {
  const close = closingQuote(text, 1);
  return close < 0 ? -1 : close + 1;
}

/** Folds the lines of a flow scalar (quoted or plain), each already stripped: a break is a space, n empty lines are n line feeds. */
export function fold(pieces: readonly string[], breaks: readonly number[]): string {
  let value = pieces[0]!;
  for (let i = 1; i < pieces.length; i++) value += (breaks[i - 1]! === 0 ? ' ' : '\n'.repeat(breaks[i - 1]!)) + pieces[i]!;
  return value;
}

/** The value a skipped key is given (see ReadOptions.skip): never a value YAML could give. */
export const SKIPPED: unique symbol = Symbol('value not read');

export interface ReadOptions {
  /**
   * Keys whose values are not read, at any depth: each is set to SKIPPED. Their lines are passed
   * over by indentation alone, so what they hold is not checked (a duplicate key or a syntax
   * error in them is not seen). For a caller that never looks at those keys (src/psa/screen.ts).
   */
  readonly skip?: ReadonlySet<string>;
}

/**
 * Whether a line may open a quoted scalar or a flow collection that it does not close: a quote
 * that does not follow a letter or digit (where a plain scalar's apostrophe would), without its
 * closing quote on the line, or more `[` and `{` than `]` and `}` outside quotes and before a
 * comment. It may say yes
 * where YAML reads plain text or a block scalar's line (then the value is read, not skipped); it
 * says no only where nothing on the line is left open.
 */
export function mayOpenPastLine(raw: string, from: number): boolean {
  if (!OPENERS.test(raw)) return false;
  let depth = 0;
  for (let at = from; at < raw.length; at++) {
    const c = raw.charCodeAt(at);
    // A comment ends the line's tokens: a bracket after it closes nothing.
    if (c === 35 && (at === from || raw.charCodeAt(at - 1) === 32 || raw.charCodeAt(at - 1) === 9)) break;
    if (c === 34 || c === 39) {
      const before = at === 0 ? 32 : raw.charCodeAt(at - 1);
      if ((before >= 48 && before <= 57) || (before >= 65 && before <= 90) || (before >= 97 && before <= 122)) continue;
      const close = closingQuote(raw.slice(at), 1);
      if (close < 0) return true;
      at += close;
    } else if (c === 91 || c === 123) depth++;
    else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return depth > 0;
}
const OPENERS = /["'[{]/;

/** The leading spaces of a raw line, or -1 when it is blank or a comment (nothing but spaces and tabs, or a `#` after them). */
function rawIndent(raw: string): number {
  let at = 0;
  let c = raw.charCodeAt(0);
  while (c === 32) c = raw.charCodeAt(++at);
  if (c === 35 || c !== c /* NaN: the end */ || (c === 13 && at === raw.length - 1)) return -1;
  if (c === 9) {
    const rest = raw.slice(at).trim();
    return rest === '' || rest[0] === '#' ? -1 : at;
  }
  return at;
}

class Reader {
  at = 0;
  /** The lines as Line, built when first visited: lines a skipped value spans are never built. */
  private readonly lines: (Line | undefined)[];
  /** Scalars with an anchor, by name (only scalars: an anchor on a collection is left to `yaml`). */
  private readonly anchors = new Map<string, unknown>();
  aliases = 0;
  /**
   * A skipped value held a `&` (ReadOptions.skip): it may define an anchor, and an alias after it
   * would name that node, not the one this reader saw. Aliases are then left to `yaml`.
   */
  private anchorSkipped = false;
  /** The last line text splitKey was asked about, and its answer: a line is often asked twice (is it a key? then read it). */
  private splitText: string | undefined;
  private splitAnswer: ReturnType<typeof splitKey>;
  /**
   * With positions (readSimplePositions): where they are written, the offset of each line's start
   * in the file, and where the text's last line ends (after its line break, when one follows).
   */
  private readonly record: { readonly writer: RecordWriter; readonly starts: readonly number[]; readonly lastLineEnd: number } | undefined;
  /** With positions: the root has begun, and a comment line from now on is left to `yaml` (see readSimplePositions). */
  rootStarted = false;
  /** With positions: where the node read last ends, comments and line break included (`yaml`'s range[2]). */
  private nodeEnd = -1;
  constructor(
    private readonly raws: readonly string[],
    private readonly skip: ReadonlySet<string> | undefined,
    positions?: { readonly shift: number; readonly lineBreakAfter: boolean },
  ) {
    this.lines = new Array<Line | undefined>(raws.length);
    if (positions !== undefined) {
      const starts = new Array<number>(raws.length);
      let at = positions.shift;
      for (let i = 0; i < raws.length; i++) {
        starts[i] = at;
        at += raws[i]!.length + 1;
      }
      this.record = { writer: new RecordWriter(), starts, lastLineEnd: at - 1 + (positions.lineBreakAfter ? 1 : 0) };
    }
  }

  records(): PositionRecords | undefined {
    return this.record?.writer.records();
  }

  /** The offset of column `column` of line `index`. */
  private offset(index: number, column: number): number {
    return this.record!.starts[index]! + column;
  }

  /** Where line `index` ends, its line break included. */
  private afterLine(index: number): number {
    return index + 1 < this.raws.length ? this.record!.starts[index + 1]! : this.record!.lastLineEnd;
  }

  /** Where line `index`'s content ends (before `\r\n`, after trailing spaces). */
  private contentEnd(index: number): number {
    const raw = this.raws[index]!;
    return this.record!.starts[index]! + raw.length - (raw.charCodeAt(raw.length - 1) === 13 ? 1 : 0);
  }

  /** A scalar from `start` to `end` whose last line is `line`. */
  private scalarAt(start: number, end: number, line: number): void {
    if (this.record === undefined) return;
    this.record.writer.leaf(start, end);
    this.nodeEnd = this.afterLine(line);
  }

  /**
   * The null of a key or dash with nothing after it on line `line` (`rest`: what follows the
   * colon or dash, at `restOffset`): `yaml` places it at the line's end, or at a comment there,
   * and with a comment it ends after the line.
   */
  private nullAt(line: number, rest: string, restOffset: number): void {
    if (this.record === undefined) return;
    const value = rest.trimStart();
    if (value.charCodeAt(0) === 35) {
      const at = restOffset + rest.length - value.length;
      this.record.writer.leaf(at, at);
      // Its comment takes in the blank lines after it (`yaml` ends such a node at the next content).
      let next = line + 1;
      while (next < this.raws.length && this.lineAt(next)!.blank) next++;
      this.nodeEnd = next < this.raws.length ? this.record.starts[next]! : this.record.lastLineEnd;
      return;
    }
    const at = this.contentEnd(line);
    this.record.writer.leaf(at, at);
    this.nodeEnd = at;
  }

  /** Opens a collection at the current line's column `indent`. */
  private openCollection(kind: NodeKind, indent: number): number | undefined {
    return this.record?.writer.open(kind, this.offset(this.at, indent));
  }

  private closeCollection(node: number | undefined): void {
    // A collection ends where its last node does (comment lines after it are left to `yaml`).
    if (node !== undefined) this.record!.writer.close(node, this.nodeEnd);
  }

  get length(): number {
    return this.raws.length;
  }

  lineAt(index: number): Line | undefined {
    if (index >= this.raws.length) return undefined;
    let line = this.lines[index];
    if (line === undefined) {
      const raw = this.raws[index]!;
      const end = raw.charCodeAt(raw.length - 1) === 13 ? raw.length - 1 : raw.length;
      let indent = 0;
      while (indent < end && raw.charCodeAt(indent) === 32) indent++;
      line = readLine(indent, raw.slice(indent, end));
      this.lines[index] = line;
    }
    return line;
  }

  private splitKey(text: string): ReturnType<typeof splitKey> {
    if (text !== this.splitText) {
      this.splitAnswer = splitKey(text);
      this.splitText = text;
    }
    return this.splitAnswer;
  }

  /** The next line that is neither blank nor a comment (the reader moves to it), or undefined. */
  private get line(): Line | undefined {
    while (this.at < this.length) {
      const line = this.lineAt(this.at)!;
      if (line.blank || line.comment) {
        // Which node's range a comment line extends is `yaml`'s intricate choice: with positions,
        // a document with one inside is left to it.
        if (line.comment && this.record !== undefined && this.rootStarted) fail();
        this.at++;
        continue;
      }
      // A tab where structure is read (indentation, between tokens): left to `yaml`.
      if (line.tab) fail();
      return line;
    }
    return undefined;
  }

  /** `-` alone or before a space (trailing spaces are not trimmed). */
  private static isItem(text: string): boolean {
    return text.charCodeAt(0) === 45 && (text.length === 1 || text.charCodeAt(1) === 32);
  }

  block(indent: number): unknown {
    return Reader.isItem(this.line!.text) ? this.sequence(indent) : this.mapping(indent);
  }

  /** What follows a key or dash whose line has no value: a deeper block or scalar, a sequence at the key's indentation, or null. */
  private below(indent: number, sequenceAtIndent: boolean, owner: { readonly line: number; readonly rest: string; readonly restOffset: number }): unknown {
    const next = this.line;
    if (next !== undefined && next.indent > indent) {
      if (Reader.isItem(next.text) || this.splitKey(next.text) !== undefined) return this.block(next.indent);
      // A scalar on the lines below its key (`key:\n  text`): plain or quoted.
      if (/^[|>[{&*!]/.test(next.text)) fail();
      const line = this.at++;
      const inline = this.inlineValue(next.text, indent, this.record === undefined ? 0 : this.offset(line, next.indent));
      if (inline === undefined) fail();
      return this.closed(inline.value, indent);
    }
    if (sequenceAtIndent && next !== undefined && next.indent === indent && Reader.isItem(next.text)) return this.sequence(indent);
    this.nullAt(owner.line, owner.rest, owner.restOffset);
    return null;
  }

  /** A value on its key's or dash's line: nothing may continue it on deeper lines. */
  private closed(value: unknown, indent: number): unknown {
    const next = this.line;
    if (next !== undefined && next.indent > indent) fail();
    return value;
  }

  /**
   * A value that starts on the line just read (`text`, after its key's colon or its dash), of a
   * node whose key or dash is at column `indent`; undefined when there is none (it follows on the
   * next lines). Multi-line scalars take the lines they span.
   */
  private inlineValue(text: string, indent: number, offset: number): { value: unknown } | undefined {
    // Not trimmed at its end: a quoted scalar that goes on over lines keeps its escaped spaces.
    let value = text.charCodeAt(0) === 32 && text.charCodeAt(1) !== 32 ? text.slice(1) : text.trimStart();
    if (value.length === 0 || value.charCodeAt(0) === 35 || value.trimEnd() === '') return undefined;
    if (this.record === undefined) return this.inlineNode(value, indent);
    // With positions: the scalar or flow collection is recorded where it starts and ends.
    const start = offset + text.length - value.length;
    const line = this.at - 1;
    const first = value[0];
    if (first === '[' || first === '{') {
      const reader = new FlowReader(value, 0, { writer: this.record.writer, base: start });
      reader.depth = this.depth;
      const node = reader.node();
      if (!restIsEmpty(value.slice(reader.at))) fail();
      this.nodeEnd = this.afterLine(line);
      return { value: node };
    }
    // Anchors and aliases: an index needs the node an alias names, which is left to `yaml`.
    if (first === '&' || first === '*') fail();
    this.valueStart = start;
    this.scalarEnd = -1;
    const read = this.inlineNode(value, indent);
    if (read === undefined) return undefined;
    // Each reader of a scalar says where it ends (endScalar).
    if (this.scalarEnd < 0) fail();
    this.scalarAt(start, this.scalarEnd, this.scalarLine);
    return read;
  }

  /** With positions: where the scalar being read starts, and (endScalar) where it ends and its last line. */
  private valueStart = -1;
  private scalarEnd = -1;
  private scalarLine = -1;

  /** inlineValue, past the spaces: `value` is the node's text on its first line. */
  private inlineNode(value: string, indent: number): { value: unknown } | undefined {
    const anchor = value.charCodeAt(0) === 38 ? ANCHOR.exec(value) : null;
    if (anchor !== null) {
      value = value.slice(anchor[0].length);
      if (value.trimEnd() === '' || /^[#|>[{*&!]/.test(value)) fail();
      const scalar = this.inlineNode(value, indent)!;
      this.anchors.set(anchor[1]!, scalar.value);
      return scalar;
    }
    if (value[0] === '*') {
      const comment = value.search(/ #/);
      const alias = ALIAS.exec((comment < 0 ? value : value.slice(0, comment)).trimEnd());
      if (alias === null || !this.anchors.has(alias[1]!) || this.anchorSkipped) fail();
      this.aliases++;
      return { value: this.anchors.get(alias[1]!) };
    }
    const first = value[0]!;
    if (first === '"' || first === "'") return { value: this.quotedScalar(value, indent) };
    if (first === '|' || first === '>') return { value: this.blockScalar(value.trimEnd(), indent) };
    if (first === '[' || first === '{') {
      const reader = new FlowReader(value, 0);
      reader.depth = this.depth;
      const node = reader.node();
      if (!restIsEmpty(value.slice(reader.at))) fail();
      return { value: node };
    }
    // A plain scalar ends at a comment; `key: a: b` is not YAML.
    const comment = value.indexOf(' #');
    const plain = (comment < 0 ? value : value.slice(0, comment)).trimEnd();
    if (plain.includes(': ') || plain.endsWith(':')) fail();
    if (INDICATOR.test(plain) || DASH_LIKE.test(plain)) fail();
    if (comment >= 0) {
      this.endScalar(this.at - 1, this.valueStart + plain.length);
      return { value: plainValue(plain) };
    }
    return { value: this.plainLines(plain, indent) };
  }

  /** With positions: the scalar being read ends at offset `end`, on line `line`. */
  private endScalar(line: number, end: number): void {
    this.scalarLine = line;
    this.scalarEnd = end;
  }

  /** A plain scalar that may go on over deeper lines (folded); resolved as one scalar. */
  private plainLines(first: string, indent: number): unknown {
    const pieces = [first];
    const breaks: number[] = [];
    let at = this.at;
    let empty = 0;
    while (at < this.length) {
      const line = this.lineAt(at)!;
      if (isBlank(line)) {
        empty++;
        at++;
        continue;
      }
      if (line.indent <= indent || isComment(line)) break;
      const text = line.text.trimEnd();
      if (CONTINUATION_UNREAD.test(text)) fail();
      pieces.push(text);
      breaks.push(empty);
      empty = 0;
      if (this.record !== undefined) this.endScalar(at, this.offset(at, line.indent) + text.length);
      at++;
      this.at = at;
    }
    if (pieces.length === 1) {
      if (this.record !== undefined) this.endScalar(this.at - 1, this.valueStart + first.length);
      return plainValue(first);
    }
    const value = fold(pieces, breaks);
    // Resolved as a whole: a folded scalar that reads as something else is left to `yaml`.
    if (typeof plainValue(value) !== 'string') fail();
    return value;
  }

  /** A quoted scalar from `text` (its line's rest, trimmed), over as many lines as it takes (folded). */
  private quotedScalar(text: string, indent: number): string {
    const quote = text[0]!;
    if (closingQuote(text, 1) >= 0) {
      const { value, end } = quoted(text);
      if (!restIsEmpty(text.slice(end))) fail();
      if (this.record !== undefined) this.endScalar(this.at - 1, this.valueStart + end);
      return value;
    }
    let piece = quotedPiece(quote, text.slice(1));
    const pieces = [piece.escapedBreak ? piece.value : piece.value.slice(0, piece.value.length - piece.literalEnd)];
    const breaks: number[] = [];
    /** The last piece ended with an escaped line break: the next is joined to it, without folding. */
    let joined = piece.escapedBreak;
    let empty = 0;
    for (;;) {
      const line = this.lineAt(this.at);
      if (line === undefined || line.tab) fail();
      this.at++;
      if (isBlank(line)) {
        if (joined) fail();
        empty++;
        continue;
      }
      // Continuation lines deeper than the node's key or dash; others are left to `yaml`.
      if (line.indent <= indent) fail();
      const end = closingQuote(quote + line.text, 1);
      piece = quotedPiece(quote, end < 0 ? line.text : line.text.slice(0, end - 1));
      const value = end < 0 && !piece.escapedBreak ? piece.value.slice(0, piece.value.length - piece.literalEnd) : piece.value;
      if (joined) pieces[pieces.length - 1] += value;
      else {
        pieces.push(value);
        breaks.push(empty);
      }
      empty = 0;
      joined = piece.escapedBreak;
      if (end >= 0) {
        if (joined || !restIsEmpty(line.text.slice(end))) fail();
        if (this.record !== undefined) this.endScalar(this.at - 1, this.offset(this.at - 1, line.indent) + end);
        return fold(pieces, breaks);
      }
    }
  }

  /** A literal or folded block scalar, its header `text`, under a node at column `indent`. */
  private blockScalar(text: string, indent: number): string {
    const header = BLOCK_HEADER.exec(text);
    if (header === null) fail();
    const folded = header[1] === '>';
    const strip = header[2] === '-';
    // The content's indentation: that of its first line that is not blank.
    let first = this.at;
    while (first < this.length && isBlank(this.lineAt(first)!)) first++;
    const firstLine = this.lineAt(first);
    const width = firstLine === undefined ? 0 : firstLine.indent;
    if (firstLine === undefined || width <= indent) {
      // No content: the empty string. (Blank lines before it with spaces beyond the node's are left to `yaml`.)
      for (let i = this.at; i < first; i++) if (this.lineAt(i)!.text.length > 0 || this.lineAt(i)!.indent > indent) fail();
      // With positions: where `yaml` ends such a scalar is left to it.
      if (this.record !== undefined) fail();
      return '';
    }
    if (firstLine.text[0] === '\t') fail();
    const content: string[] = [];
    let at = this.at;
    for (; at < this.length; at++) {
      const line = this.lineAt(at)!;
      if (isBlank(line)) {
        // Leading blank lines may not hold more spaces than the content's indentation.
        if (at < first && line.indent + line.text.length > width) fail();
        if (line.text.length > 0) fail();
        content.push(line.indent > width ? ' '.repeat(line.indent - width) : '');
        continue;
      }
      if (line.indent < width) break;
      content.push(' '.repeat(line.indent - width) + line.text);
    }
    // Trailing blank lines belong to the scalar only with `+` (not read here): clipped or stripped.
    while (content.length > 0 && content[content.length - 1] === '') content.pop();
    // With positions: the scalar ends after the line break of its last line with content.
    if (this.record !== undefined) {
      if (content.length === 0) fail();
      const last = this.at + content.length - 1;
      this.endScalar(last, this.afterLine(last));
    }
    this.at = at;
    let value: string;
    if (folded) {
      // More-indented lines keep their breaks in a folded scalar: left to `yaml`.
      if (content.some((line) => line.startsWith(' ') || line.startsWith('\t'))) fail();
      let leading = 0;
      while (content[leading] === '') leading++;
      const pieces: string[] = [];
      const breaks: number[] = [];
      let empty = 0;
      for (const line of content.slice(leading)) {
        if (line === '') {
          empty++;
          continue;
        }
        if (pieces.length > 0) breaks.push(empty);
        pieces.push(line);
        empty = 0;
      }
      value = '\n'.repeat(leading) + (pieces.length === 0 ? '' : fold(pieces, breaks));
    } else {
      value = content.join('\n');
    }
    // A line with spaces only beyond the indentation is content: a trailing one is not a blank line.
    return content.length === 0 || strip ? value : `${value}\n`;
  }

  /**
   * Passes over the value of a key at column `indent` whose line's rest is `rest`: the lines
   * deeper than the key (a block, a block scalar, a plain scalar's continuation), and a sequence
   * at the key's column. False (nothing passed over) for a value that starts on the key's line
   * with a quote, a flow collection or a node property: those are read as usual, since where they
   * end is not a matter of indentation alone.
   */
  private skipValue(rest: string, indent: number): boolean {
    const value = rest.trimStart();
    const empty = value === '' || value.charCodeAt(0) === 35;
    if (!empty && /^["'[{&*!]/.test(value)) return false;
    const start = this.at;
    for (let at = this.at; at < this.raws.length; at++) {
      const raw = this.raws[at]!;
      const lineIndent = rawIndent(raw);
      if (lineIndent < 0) continue;
      // A document marker or a directive is never inside a document's text here (readSimpleDocument).
      const deeper = lineIndent > indent || (empty && lineIndent === indent && raw.charCodeAt(indent) === 45 && (raw.length === indent + 1 || raw.charCodeAt(indent + 1) === 32 || raw.charCodeAt(indent + 1) === 13));
      if (!deeper) break;
      // A quoted scalar or flow collection that goes on past its line ends where it closes, not
      // where the indentation says (go-yaml reads shallower lines into it): read as usual.
      if (mayOpenPastLine(raw, lineIndent)) {
        this.at = start;
        return false;
      }
      if (raw.includes('&')) this.anchorSkipped = true;
      this.at = at + 1;
    }
    return true;
  }

  /** Collections open around the one being read. */
  depth = 0;

  mapping(indent: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) fail();
    const object: Record<string, unknown> = {};
    let node: number | undefined;
    for (let line = this.line; line !== undefined && line.indent === indent; line = this.line) {
      if (Reader.isItem(line.text)) break;
      const entry = this.splitKey(line.text);
      if (entry === undefined) fail();
      const keyLine = this.at++;
      if (this.skip?.has(entry.key) === true && this.skipValue(entry.rest, indent)) {
        setKey(object, entry.key, SKIPPED);
        continue;
      }
      let restOffset = 0;
      if (this.record !== undefined) {
        // The map starts at its first key; each value is named by its key's range.
        const keyStart = this.offset(keyLine, indent);
        node ??= this.record.writer.open(NodeKind.Map, keyStart);
        const c = line.text.charCodeAt(0);
        this.record.writer.name(entry.key, keyStart, keyStart + (c === 34 || c === 39 ? closingQuote(line.text, 1) + 1 : entry.key.length));
        restOffset = keyStart + line.text.length - entry.rest.length;
      }
      const inline = this.inlineValue(entry.rest, indent, restOffset);
      setKey(object, entry.key, inline === undefined ? this.below(indent, true, { line: keyLine, rest: entry.rest, restOffset }) : this.closed(inline.value, indent));
    }
    const next = this.line;
    if (next !== undefined && next.indent > indent) fail();
    if (this.record !== undefined && node === undefined) fail();
    this.closeCollection(node);
    this.depth--;
    return object;
  }

  sequence(indent: number): unknown[] {
    if (++this.depth > MAX_DEPTH) fail();
    const items: unknown[] = [];
    let node: number | undefined;
    for (let line = this.line; line !== undefined && line.indent === indent; line = this.line) {
      if (!Reader.isItem(line.text)) break;
      // The sequence starts at its first dash.
      if (this.record !== undefined) node ??= this.openCollection(NodeKind.Seq, indent);
      const after = line.text.slice(1);
      const content = after.trimStart();
      const column = indent + 1 + (after.length - content.length);
      const itemLine = this.at;
      const restOffset = this.record === undefined ? 0 : this.offset(itemLine, indent + 1);
      if (content.trimEnd() === '' || content.startsWith('#')) {
        this.at++;
        items.push(this.below(indent, false, { line: itemLine, rest: after, restOffset }));
      } else if (Reader.isItem(content)) {
        fail();
      } else if (this.splitKey(content) !== undefined) {
        // `- key: value`: a mapping whose keys are at the content's column.
        this.lines[this.at] = readLine(column, content);
        items.push(this.mapping(column));
      } else {
        this.at++;
        const inline = this.inlineValue(content, indent, this.record === undefined ? 0 : this.offset(itemLine, column));
        if (inline === undefined) this.nullAt(itemLine, after, restOffset);
        items.push(inline === undefined ? null : this.closed(inline.value, indent));
      }
    }
    const next = this.line;
    if (next !== undefined && next.indent > indent) fail();
    if (this.record !== undefined && node === undefined) fail();
    this.closeCollection(node);
    this.depth--;
    return items;
  }

  /** Whether every line has been read. */
  done(): boolean {
    return this.line === undefined;
  }
}

/**
 * The value of one YAML document (its text, without `---` lines), as `yaml` reads it, when the
 * document is in the subset above and its root is a mapping; undefined otherwise.
 */
export function readSimpleDocument(text: string, options: ReadOptions = {}): Record<string, unknown> | undefined {
  return readDocument(text, options.skip, undefined)?.value;
}

/**
 * The value of a document as readSimpleDocument reads it, with the positions of its nodes as
 * `yaml`'s parse of the file gives them (src/parse/positions.ts), so that it needs no parse at
 * all; undefined when it is not read so. `shift` is the offset of `text` in the file;
 * `lineBreakAfter`: a line break follows `text` there (it ends a scalar on the last line).
 * Besides what readSimpleDocument leaves to `yaml`, so are anchors and aliases, block scalars
 * without content, and comment lines after the root's first key: which node's range a comment
 * line extends depends on its indentation in ways not worth copying (test/simple-positions.test.ts
 * compares every index this gives with the parse's, on every document of the fixtures and corpora).
 */
export function readSimplePositions(text: string, shift: number, lineBreakAfter: boolean): { value: Record<string, unknown>; positions: PositionRecords } | undefined {
  const read = readDocument(text, undefined, { shift, lineBreakAfter });
  return read === undefined ? undefined : { value: read.value, positions: read.positions! };
}

function readDocument(text: string, skip: ReadonlySet<string> | undefined, positions: { readonly shift: number; readonly lineBreakAfter: boolean } | undefined): { value: Record<string, unknown>; positions?: PositionRecords } | undefined {
  if (UNREAD_CHARACTERS.test(text) || (text.includes('\r') && LONE_CR.test(text))) return undefined;
  const raws = text.split('\n');
  for (const raw of raws) {
    // A document marker or directive: the text is a stream of documents, not one.
    const c = raw.charCodeAt(0);
    if (c === 37) return undefined;
    if ((c === 45 || c === 46) && (raw.startsWith('---') || raw.startsWith('...')) && (raw.length === 3 || raw[3] === ' ' || raw[3] === '\t' || (raw[3] === '\r' && raw.length === 4))) return undefined;
  }
  try {
    const reader = new Reader(raws, skip, positions);
    if (reader.done()) return undefined;
    const first = reader.lineAt(reader.at)!;
    if (first.text === '-' || first.text.startsWith('- ')) return undefined;
    reader.rootStarted = true;
    const value = reader.mapping(first.indent);
    // Lines left over (a shallower one after the root's) mean the document is not what it seemed.
    if (!reader.done()) return undefined;
    // Nodes are fewer than characters: a bound on what the full parse counts (aliases × nodes).
    if (reader.aliases * text.length > MAX_ALIAS_WORK) return undefined;
    const records = reader.records();
    return records === undefined ? { value } : { value, positions: records };
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}
