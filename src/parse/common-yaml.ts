/**
 * The quickest reader: the commonest block YAML of manifests (plain keys, one-line scalars and
 * flow collections, block mappings and sequences indented with spaces), read on offsets into the
 * document's text, a line at a time, without building a line or a string that is not a key or a
 * value. It reads a subset of what src/parse/simple-yaml.ts reads, to the same value, and declines
 * (undefined) everything else, which src/parse/read.ts then gives to that reader:
 *
 * - read: plain keys, plain scalars on one line, quoted scalars (also over lines, as
 *   simple-yaml.ts's quotedScalar), flow collections on one line;
 * - declined: tabs and carriage returns anywhere, quoted keys, anchors, aliases, tags, block
 *   scalars, plain scalars over several lines, a scalar on the line below its key, flow
 *   collections over several lines, and whatever simple-yaml.ts itself declines;
 * - with keys skipped (ReadOptions.skip), a skipped value is passed over by indentation, as
 *   simple-yaml.ts passes it over. Where a line of it may leave a quote or bracket open,
 *   simple-yaml.ts reads the value instead; this reader passes over it by its block structure
 *   (skimValue: a block scalar's text, a plain scalar's, a quoted scalar to its closing quote at
 *   any indentation, as go-yaml reads it), and reads it only where that structure is not one of
 *   these. A value on its key's line that starts with a quote or a bracket is read, as there;
 * - what go-yaml refuses inside a skipped value whose lines it passes over by structure (`: ` in a
 *   plain scalar's line, an unknown escape) makes it read the value, so that the full parse
 *   reports it, as where simple-yaml.ts reads it.
 *
 * Its value is simple-yaml.ts's (but for values it skips where that reader reads them) and
 * `yaml`'s: compared on every document of the fixtures and corpora and on generated documents
 * (test/common-yaml.test.ts), and with kubectl's on generated skipped values
 * (test/simple-yaml-kubectl.test.ts).
 */
import { closingQuote, flowLine, fold, mayOpenPastLine, NotSimple, plainValue, quoted, quotedPiece, restIsEmpty, SKIPPED, type ReadOptions } from './simple-yaml.js';

/**
 * What this reader leaves to simple-yaml.ts before reading: what that reader leaves to `yaml`
 * (control characters, the BOM, YAML 1.1's line breaks, the spaces JavaScript's trim takes and
 * YAML does not), and tabs and carriage returns.
 */
const DECLINED_CHARACTERS = /[\x00-\x09\x0b-\x1f\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** A quote or bracket: where one is on a line passed over, simple-yaml.ts's mayOpenPastLine decides. */
const OPENER = /["'[{]/g;
/** How far after an implicit key's start its `:` may be (as simple-yaml.ts). */
const MAX_KEY_SPAN = 1024;
/** Nesting this reader reads; deeper documents go to simple-yaml.ts (which reads to 256). */
const MAX_DEPTH = 128;
/** A block scalar's header (an indentation or chomping indicator, a comment): skimValue passes over its text. */
const BLOCK_HEADER = /^[|>](?:[1-9][-+]?|[-+][1-9]?)?(?: *| +#.*)$/;
/** skimNodeValue: the deeper lines below are a plain scalar's text, or a block scalar's. */
const PLAIN_TEXT = -1;
const BLOCK_TEXT = -2;
/** YAML's escapes in a double-quoted scalar (go-yaml reads these; another one is an error). */
const KNOWN_ESCAPE = /\\(?:[0abt\tnvfre "/\\N_LP\n]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/g;
/** No value on the key's or dash's line. */
const NONE: unique symbol = Symbol('no value on the line');

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;

function decline(): never {
  throw new NotSimple();
}

/**
 * Sets a key of a mapping read here; a key it holds already (a duplicate, which `yaml` reports) is
 * declined, and so is a key an object inherits (`__proto__`, `constructor`): no value read here
 * is undefined.
 */
function own(object: Record<string, unknown>, key: string, value: unknown): void {
  if (object[key] !== undefined) decline();
  object[key] = value;
}

/**
 * Where the quoted scalar that opens at `from` closes (the index of its closing quote), over as
 * many lines as it takes; -1 when it does not.
 */
function closingQuoteFrom(text: string, from: number): number {
  const quote = text.charCodeAt(from);
  for (let at = from + 1; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (quote === 34 && c === 92) {
      at++;
      continue;
    }
    if (c === quote) {
      if (quote === 39 && text.charCodeAt(at + 1) === 39) {
        at++;
        continue;
      }
      return at;
    }
  }
  return -1;
}

/** Where the content of the line starting at `start` begins (after its spaces). */
function contentAt(text: string, start: number): number {
  let at = start;
  while (text.charCodeAt(at) === SPACE) at++;
  return at;
}

/** Where the line holding `at` ends: its line feed, or the text's end. */
function lineEndFrom(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

/** `-` alone or before a space at `at`, on a line that ends at `lineEnd`: a sequence item's dash. */
function dashAt(text: string, at: number, lineEnd: number): boolean {
  return text.charCodeAt(at) === DASH && (at + 1 === lineEnd || text.charCodeAt(at + 1) === SPACE);
}

/**
 * Whether a line whose content starts at `at` (indented `lineIndent`) belongs to the value of a
 * key at column `indent`: it is deeper, or, when the key's line holds no value (`empty`), it is
 * an item of a sequence at the key's column.
 */
function inValue(text: string, at: number, lineEnd: number, lineIndent: number, indent: number, empty: boolean): boolean {
  return lineIndent > indent || (empty && lineIndent === indent && dashAt(text, at, lineEnd));
}

class LineReader {
  /** Where the next line to look at starts. */
  private pos = 0;
  /** peek() has found the current content line (or the end) at `pos`: the fields below describe it. */
  private found = false;
  /** The current content line's indentation (-1: no line left), where its content starts and where it ends (its line feed, or the text's end). */
  private indent = -1;
  private from = 0;
  private end = 0;
  /** The last key read (readKey): its value and where what follows its colon starts. */
  private key = '';
  private restFrom = 0;
  /** Where the key read last starts. */
  private keyAt = -1;
  /** Where OPENER found a quote or bracket last, at or after a skipped line's start (-1: none left). */
  private opener = -2;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly skip: ReadonlySet<string> | undefined,
  ) {}

  /** The indentation of the next line that is neither blank nor a comment, or -1 at the end. */
  peek(): number {
    if (this.found) return this.indent;
    const text = this.text;
    const length = text.length;
    let start = this.pos;
    while (start < length) {
      const at = contentAt(text, start);
      const end = lineEndFrom(text, at);
      if (at === end || text.charCodeAt(at) === HASH) {
        start = end + 1;
        continue;
      }
      this.pos = start;
      this.indent = at - start;
      this.from = at;
      this.end = end;
      this.found = true;
      return this.indent;
    }
    this.pos = length;
    this.indent = -1;
    this.found = true;
    return -1;
  }

  /** Moves past the current line. */
  private consume(): void {
    this.pos = this.end + 1;
    this.found = false;
  }

  /** `-` alone or before a space, at `at` of the current line. */
  isItem(at = this.from): boolean {
    return dashAt(this.text, at, this.end);
  }

  /**
   * Whether the current line holds `key:` at `at` (simple-yaml.ts's splitKey): then `key` and
   * `restFrom` are set. A quoted key, or a key simple-yaml.ts refuses, is declined.
   */
  private readKey(at: number, lineEnd = this.end): boolean {
    // A line is often asked twice (is it a key? then read it).
    if (at === this.keyAt) return true;
    const text = this.text;
    const first = text.charCodeAt(at);
    if (first === 34 || first === 39) {
      // A quoted scalar followed by `:` is a key (declined); otherwise it is no key.
      let close;
      try {
        close = quoted(text.slice(at, lineEnd)).end;
      } catch (error) {
        if (error instanceof NotSimple) return false;
        throw error;
      }
      let after = at + close;
      while (text.charCodeAt(after) === SPACE) after++;
      if (text.charCodeAt(after) === COLON) decline();
      return false;
    }
    if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90) || first === 95)) return false;
    let end = at + 1;
    for (let c = text.charCodeAt(end); (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 45 && c <= 57) || c === 95; c = text.charCodeAt(++end));
    const keyEnd = end;
    while (text.charCodeAt(end) === SPACE) end++;
    if (text.charCodeAt(end) !== COLON || end >= lineEnd) return false;
    if (end - at > MAX_KEY_SPAN) decline();
    const after = end + 1;
    if (after < lineEnd && text.charCodeAt(after) !== SPACE) return false;
    const key = text.slice(at, keyEnd);
    if (typeof plainValue(key) !== 'string') decline();
    this.key = key;
    this.restFrom = after < lineEnd ? after + 1 : after;
    this.keyAt = at;
    return true;
  }

  mapping(indent: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) decline();
    const object: Record<string, unknown> = {};
    for (let at = this.peek(); at === indent; at = this.peek()) {
      if (this.isItem()) break;
      if (!this.readKey(this.from)) decline();
      const key = this.key;
      const restFrom = this.restFrom;
      const end = this.end;
      this.consume();
      if (this.skip?.has(key) === true && this.skipValue(restFrom, end, indent)) {
        own(object, key, SKIPPED);
        continue;
      }
      const inline = this.inline(restFrom, end, indent);
      own(object, key, inline === NONE ? this.below(indent, true) : inline);
    }
    // A deeper line here continues a value on its key's line (a plain scalar over lines): declined.
    if (this.peek() > indent) decline();
    this.depth--;
    return object;
  }

  sequence(indent: number): unknown[] {
    if (++this.depth > MAX_DEPTH) decline();
    const items: unknown[] = [];
    for (let at = this.peek(); at === indent; at = this.peek()) {
      if (!this.isItem()) break;
      const text = this.text;
      let content = this.from + 1;
      while (text.charCodeAt(content) === SPACE) content++;
      const end = this.end;
      if (content >= end || text.charCodeAt(content) === HASH) {
        this.consume();
        items.push(this.below(indent, false));
      } else if (this.isItem(content)) {
        decline();
      } else if (this.readKey(content)) {
        // `- key: value`: a mapping whose keys are at the content's column; its first line is this one.
        this.indent = indent + (content - this.from);
        this.from = content;
        items.push(this.mapping(this.indent));
      } else {
        this.consume();
        const inline = this.inline(content, end, indent);
        items.push(inline === NONE ? null : inline);
      }
    }
    // (As in mapping: a deeper line continues an item's value.)
    if (this.peek() > indent) decline();
    this.depth--;
    return items;
  }

  /** A block below a key or dash whose line has no value (a sequence may sit at the key's column), or null. */
  private below(indent: number, sequenceAtIndent: boolean): unknown {
    const next = this.peek();
    if (next > indent) {
      if (this.isItem()) return this.sequence(next);
      if (this.readKey(this.from)) return this.mapping(next);
      // A scalar on the lines below its key.
      decline();
    }
    if (sequenceAtIndent && next === indent && this.isItem()) return this.sequence(indent);
    return null;
  }

  /** The value that starts on the line of a key or dash at column `indent`, at `from` (before `end`), or NONE. */
  private inline(from: number, end: number, indent: number): unknown {
    const text = this.text;
    while (text.charCodeAt(from) === SPACE) from++;
    if (from >= end) return NONE;
    const c = text.charCodeAt(from);
    if (c === HASH) return NONE;
    if (c === 34 || c === 39) {
      const line = text.slice(from, end);
      if (closingQuote(line, 1) < 0) return this.quotedLines(line, indent);
      const read = quoted(line);
      if (!restIsEmpty(line.slice(read.end))) decline();
      return read.value;
    }
    // Flow collections on one line.
    if (c === 91 || c === 123) return flowLine(text.slice(from, end), this.depth);
    // Anchors, aliases, tags, block scalars and the other indicators.
    if (c === 38 || c === 42 || c === 33 || c === 124 || c === 62 || c === 44 || c === 93 || c === 125 || c === 37 || c === 64 || c === 96 || c === 60 || c === 61) decline();
    // A plain scalar ends at a comment (` #`) and its trailing spaces; `: ` in it is not YAML.
    let last = from;
    let digits = c >= 49 && c <= 57;
    for (let at = from; at < end; at++) {
      const d = text.charCodeAt(at);
      if (d === SPACE) {
        if (text.charCodeAt(at + 1) === HASH) break;
        continue;
      }
      if (d === COLON && (at + 1 === end || text.charCodeAt(at + 1) === SPACE)) decline();
      if (d < 48 || d > 57) digits = false;
      last = at + 1;
    }
    // `-`, `?` and `:` alone or before a space are indicators.
    if ((c === DASH || c === 63 || c === COLON) && (last === from + 1 || text.charCodeAt(from + 1) === SPACE)) decline();
    const plain = text.slice(from, last);
    // A decimal integer (no sign, no leading zero, no space) as go-yaml's ParseInt reads it, exactly below 2^53.
    if (digits && last - from <= 15 && plain.indexOf(' ') < 0) return Number(plain);
    return plainValue(plain);
  }

  /**
   * A quoted scalar that opens on the line just read (`first`: from its quote to the line's end)
   * and goes on over the next lines, under a node at column `indent`: simple-yaml.ts's
   * quotedScalar, line for line, on offsets.
   */
  private quotedLines(first: string, indent: number): string {
    const text = this.text;
    const quote = first[0]!;
    let piece = quotedPiece(quote, first.slice(1));
    const pieces = [piece.escapedBreak ? piece.value : piece.value.slice(0, piece.value.length - piece.literalEnd)];
    const breaks: number[] = [];
    /** The last piece ended with an escaped line break: the next is joined to it, without folding. */
    let joined = piece.escapedBreak;
    let empty = 0;
    let start = this.pos;
    for (;;) {
      if (start >= text.length) decline();
      const lineStart = start;
      const at = contentAt(text, start);
      const lineEnd = lineEndFrom(text, at);
      start = lineEnd + 1;
      if (at === lineEnd) {
        if (joined) decline();
        empty++;
        continue;
      }
      // Continuation lines deeper than the node's key or dash; others are left to simple-yaml.ts.
      if (at - lineStart <= indent) decline();
      const line = text.slice(at, lineEnd);
      const close = closingQuote(quote + line, 1);
      piece = quotedPiece(quote, close < 0 ? line : line.slice(0, close - 1));
      const value = close < 0 && !piece.escapedBreak ? piece.value.slice(0, piece.value.length - piece.literalEnd) : piece.value;
      if (joined) pieces[pieces.length - 1] += value;
      else {
        pieces.push(value);
        breaks.push(empty);
      }
      empty = 0;
      joined = piece.escapedBreak;
      if (close >= 0) {
        if (joined || !restIsEmpty(line.slice(close))) decline();
        this.pos = start;
        this.found = false;
        return fold(pieces, breaks);
      }
    }
  }

  /**
   * Passes over the value of a skipped key at column `indent` (simple-yaml.ts's skipValue): false
   * when that reader reads it instead (a value on the key's line that starts with a quote, a
   * bracket or a node property, or a line that may leave a quote or bracket open).
   */
  private skipValue(restFrom: number, end: number, indent: number): boolean {
    const text = this.text;
    let value = restFrom;
    while (text.charCodeAt(value) === SPACE) value++;
    const c = value < end ? text.charCodeAt(value) : -1;
    const empty = c < 0 || c === HASH;
    if (!empty && (c === 34 || c === 39 || c === 91 || c === 123 || c === 38 || c === 42 || c === 33)) return false;
    const length = text.length;
    let start = this.pos;
    let after = start;
    while (start < length) {
      const at = contentAt(text, start);
      const lineEnd = lineEndFrom(text, at);
      const first = text.charCodeAt(at);
      if (at === lineEnd || first === HASH) {
        start = lineEnd + 1;
        continue;
      }
      const lineIndent = at - start;
      if (!inValue(text, at, lineEnd, lineIndent, indent, empty)) break;
      if (this.openerBefore(at, lineEnd) && mayOpenPastLine(text.slice(start, lineEnd), lineIndent)) {
        // Whether the quote or bracket is open past its line depends on what the lines above it
        // are (a block scalar's text, a plain scalar's, a key's value): told from their structure.
        const skimmed = this.skimValue(value, end, indent, empty);
        if (skimmed === undefined) return false;
        after = skimmed;
        break;
      }
      start = lineEnd + 1;
      after = start;
    }
    this.pos = after;
    this.found = false;
    return true;
  }

  /**
   * Where the value of a skipped key at column `indent`, starting at `value` on the key's line
   * (ending at `keyEnd`), ends (the start of the first line after it), told from the block structure of its lines: each line a key or a dash is a node's line,
   * whose value is nested below it, a block scalar or a plain scalar (the deeper lines below are
   * its text), or a quoted scalar (which ends at its closing quote, over lines at any
   * indentation). Undefined where a line is none of these forms (then the value is read as usual).
   */
  private skimValue(value: number, keyEnd: number, indent: number, empty: boolean): number | undefined {
    const text = this.text;
    const length = text.length;
    /** Lines deeper than this column are a scalar's text (-1: none is open), a plain scalar's or a block scalar's. */
    let textAbove = -1;
    let textKind = PLAIN_TEXT;
    /** A block scalar's indentation, its first line's (-1: none read yet). */
    let blockIndent = -1;
    let start = keyEnd + 1;
    if (!empty) {
      // On the key's line: a plain scalar or a block scalar's header (skipValue read the others).
      const next = this.skimNodeValue(value, keyEnd);
      if (next === undefined || next >= 0) return undefined;
      textAbove = indent;
      textKind = next;
    }
    let after = start;
    while (start < length) {
      const at = contentAt(text, start);
      const lineEnd = lineEndFrom(text, at);
      const first = text.charCodeAt(at);
      if (at === lineEnd || first === HASH) {
        // A comment line ends a plain scalar, and a block scalar it is less indented than.
        if (first === HASH && textAbove >= 0 && (textKind === PLAIN_TEXT || at - start <= textAbove || (blockIndent >= 0 && at - start < blockIndent))) textAbove = -1;
        start = lineEnd + 1;
        continue;
      }
      const lineIndent = at - start;
      if (!inValue(text, at, lineEnd, lineIndent, indent, empty)) break;
      start = lineEnd + 1;
      if (textAbove >= 0 && lineIndent > textAbove) {
        after = start;
        if (textKind === BLOCK_TEXT) {
          // Less indented than its first line: not this scalar's text (go-yaml refuses such a line).
          if (blockIndent < 0) blockIndent = lineIndent;
          else if (lineIndent < blockIndent) return undefined;
        } else {
          // A plain scalar's line: `: ` in it is a syntax error (go-yaml's), left to the full
          // parse to report; a comment ends the scalar.
          const line = text.slice(at, lineEnd);
          if (line.includes(': ') || line.trimEnd().endsWith(':')) return undefined;
          if (line.includes(' #')) textAbove = -1;
        }
        continue;
      }
      textAbove = -1;
      // A node's line: dashes, then a key and its value, or an item's value.
      let node = at;
      let column = lineIndent;
      let dashes = 0;
      while (dashAt(text, node, lineEnd)) {
        column = node - (at - lineIndent);
        dashes++;
        node++;
        while (text.charCodeAt(node) === SPACE) node++;
      }
      if (node >= lineEnd || text.charCodeAt(node) === HASH) {
        after = start;
        continue;
      }
      let nodeValue = node;
      if (this.readKey(node, lineEnd)) {
        column = node - (at - lineIndent);
        nodeValue = this.restFrom;
        while (text.charCodeAt(nodeValue) === SPACE) nodeValue++;
        if (nodeValue >= lineEnd || text.charCodeAt(nodeValue) === HASH) {
          after = start;
          continue;
        }
      } else if (dashes === 0) {
        // A scalar below its key, a key this reader does not read: not told here.
        return undefined;
      }
      const next = this.skimNodeValue(nodeValue, lineEnd);
      if (next === undefined) return undefined;
      if (next < 0) {
        textAbove = column;
        textKind = next;
        blockIndent = -1;
      } else start = next;
      after = start;
    }
    return after;
  }

  /**
   * The value of a node that starts at `from` on its line (ending at `lineEnd`): PLAIN_TEXT or
   * BLOCK_TEXT for a plain or block scalar (the deeper lines below are its text), the start of
   * the line after a quoted scalar or flow collection that closes with nothing but a comment
   * after it, or undefined for the other forms.
   */
  private skimNodeValue(from: number, lineEnd: number): number | undefined {
    const text = this.text;
    const c = text.charCodeAt(from);
    if (c === 124 || c === 62) return BLOCK_HEADER.test(text.slice(from, lineEnd)) ? BLOCK_TEXT : undefined;
    if (c === 34 || c === 39) {
      const close = closingQuoteFrom(text, from);
      if (close < 0) return undefined;
      // An escape go-yaml does not know is a syntax error, left to the full parse to report.
      if (c === 34 && text.slice(from, close).replace(KNOWN_ESCAPE, '').includes('\\')) return undefined;
      const lineAfter = lineEndFrom(text, close);
      // Only a comment may follow (`"a": b` is a key this reader does not read).
      return restIsEmpty(text.slice(close + 1, lineAfter)) ? lineAfter + 1 : undefined;
    }
    if (c === 91 || c === 123) {
      const lineStart = text.lastIndexOf('\n', from) + 1;
      return mayOpenPastLine(text.slice(lineStart, lineEnd), from - lineStart) ? undefined : lineEnd + 1;
    }
    // Node properties, aliases and the other indicators: not told here.
    if (c === 38 || c === 33 || c === 42 || c === 63 || c === COLON || c === 44 || c === 93 || c === 125 || c === 37 || c === 64 || c === 96) return undefined;
    // A plain scalar; `: ` in it is a key this reader does not read.
    const line = text.slice(from, lineEnd);
    const comment = line.indexOf(' #');
    const plain = comment < 0 ? line : line.slice(0, comment);
    return plain.includes(': ') || plain.trimEnd().endsWith(':') ? undefined : PLAIN_TEXT;
  }

  /** Whether a quote or bracket is in [from, to): found with one search ahead, reused while it lies ahead. */
  private openerBefore(from: number, to: number): boolean {
    if (this.opener === -1) return false;
    if (this.opener < from) {
      OPENER.lastIndex = from;
      const match = OPENER.exec(this.text);
      this.opener = match === null ? -1 : match.index;
      if (this.opener < 0) return false;
    }
    return this.opener < to;
  }
}

/**
 * The value of one YAML document (its text, without `---` lines) when it is in this reader's
 * subset and its root is a mapping, exactly as readSimpleDocument reads it; undefined otherwise.
 */
export function readCommonDocument(text: string, options: ReadOptions = {}): Record<string, unknown> | undefined {
  if (DECLINED_CHARACTERS.test(text)) return undefined;
  try {
    const reader = new LineReader(text, options.skip);
    const indent = reader.peek();
    if (indent < 0 || reader.isItem()) return undefined;
    const value = reader.mapping(indent);
    // Lines left over (a shallower one after the root's, a document marker) mean it is not one document read here.
    return reader.peek() < 0 ? value : undefined;
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}
