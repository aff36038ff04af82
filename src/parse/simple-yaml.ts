/**
 * A reader for the plain block YAML most manifests are written in, many times cheaper than `yaml`,
 * for one purpose: to look at a document without building its syntax tree, when what is found
 * decides that the document needs no more (src/psa/screen.ts: a workload that passes its
 * namespace's Pod Security levels has no finding, and is never parsed).
 *
 * It returns exactly the value `yaml` (YAML 1.1, merge keys, unique keys: src/parse/yaml.ts) gives
 * for the document, or undefined whenever the document uses anything beyond the subset:
 *
 * - block mappings and sequences indented with spaces (a sequence may sit at its key's
 *   indentation), `- key: value` items, comments, blank lines;
 * - one-line scalars: plain, single-quoted, double-quoted without escapes; one-line flow
 *   sequences and flow mappings of such scalars;
 * - plain scalars resolved with `yaml`'s own YAML 1.1 tests for null and booleans; decimal
 *   integers without sign, underscore or leading zero. Any other plain scalar that starts like a
 *   number, a timestamp or .inf/.nan is not read.
 *
 * Not read (undefined): tabs, anchors, aliases, tags, merge keys, block scalars, multi-line
 * scalars, escapes, complex keys, duplicate keys, keys that are not strings, directives and
 * document markers inside the text, a root that is not a mapping. Equality with `yaml` is tested
 * on every manifest of the fixtures and the real-world corpus, and on generated documents
 * (test/simple-yaml.test.ts).
 */

/** `yaml`'s YAML 1.1 tests (schema/yaml-1.1/bool.js, schema/common/null.js). */
const TRUE = /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const FALSE = /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;
/**
 * The other plain scalars `yaml`'s YAML 1.1 schema does not read as strings (schema/yaml-1.1:
 * int.js, float.js, merge.js, timestamp.js): this reader leaves them to `yaml`.
 */
const NOT_STRINGS = [
  /^[-+]?0b[0-1_]+$/,
  /^[-+]?0[0-7_]+$/,
  /^[-+]?[0-9][0-9_]*$/,
  /^[-+]?0x[0-9a-fA-F_]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
  /^<<$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/,
];
/** A document marker or directive: the text is a stream of documents, not one. */
const STREAM_LINE = /^(?:---|\.\.\.)(?:[ \r]|$)|^%/m;
const MAYBE_NOT_STRING = /^[-+.0-9<eE]/;
const PLAIN_KEY = /^([A-Za-z_][A-Za-z0-9_.\/-]*)[ ]*:(?: |$)/;
/** Characters a plain scalar may not start with (indicators), besides those that start numbers. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`<=]/;

class NotSimple extends Error {}

function fail(): never {
  throw new NotSimple();
}

interface Line {
  readonly indent: number;
  readonly text: string;
}

/** A plain scalar's value, as `yaml` resolves it in YAML 1.1; NotSimple for the forms this reader leaves to `yaml`. */
function plainValue(text: string): unknown {
  if (NULL.test(text)) return null;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  if (DECIMAL.test(text)) return Number(text);
  if (INDICATOR.test(text)) fail();
  // Each of those patterns starts with a sign, a digit, a dot, `<<` or (`e5`, read as a float) an e.
  if (MAYBE_NOT_STRING.test(text) && NOT_STRINGS.some((pattern) => pattern.test(text))) fail();
  return text;
}

/** The value of a quoted scalar at the start of `text`, and where it ends. */
function quoted(text: string): { value: string; end: number } {
  const quote = text[0];
  if (quote === '"') {
    const close = text.indexOf('"', 1);
    if (close < 0 || text.slice(1, close).includes('\\')) fail();
    return { value: text.slice(1, close), end: close + 1 };
  }
  let value = '';
  let at = 1;
  for (;;) {
    const close = text.indexOf("'", at);
    if (close < 0) fail();
    value += text.slice(at, close);
    if (text[close + 1] === "'") {
      value += "'";
      at = close + 2;
      continue;
    }
    return { value, end: close + 1 };
  }
}

/** Nothing but spaces, or spaces and a comment, may follow a value. */
function restIsEmpty(text: string): boolean {
  return text.trim() === '' || /^ +#/.test(text);
}

/** A flow item (in `[…]` or a flow mapping's value): a quoted or plain scalar without flow indicators. */
function flowScalar(text: string): unknown {
  const item = text.trim();
  if (item === '') fail();
  if (item[0] === '"' || item[0] === "'") {
    const { value, end } = quoted(item);
    if (item.slice(end).trim() !== '') fail();
    return value;
  }
  if (/[[\]{}#]|: |:$/.test(item)) fail();
  return plainValue(item);
}

/** Splits the inside of a one-line flow collection at its commas (none inside quotes). */
function flowItems(inside: string): string[] {
  if (inside.trim() === '') return [];
  const items: string[] = [];
  let start = 0;
  for (let at = 0; at < inside.length; at++) {
    const c = inside[at];
    if (c === '"' || c === "'") {
      at += quoted(inside.slice(at)).end - 1;
    } else if (c === ',') {
      items.push(inside.slice(start, at));
      start = at + 1;
    }
  }
  items.push(inside.slice(start));
  return items;
}

function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || key === '<<' || Object.prototype.hasOwnProperty.call(object, key)) fail();
  object[key] = value;
}

/** A key and what follows its colon, or undefined when `text` does not start with `key:`. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (text[0] === '"' || text[0] === "'") {
    const { value, end } = quoted(text);
    const after = text.slice(end).trimStart();
    if (!after.startsWith(':') || (after.length > 1 && after[1] !== ' ')) return undefined;
    return { key: value, rest: after.slice(1) };
  }
  const match = PLAIN_KEY.exec(text);
  if (match === null) return undefined;
  if (typeof plainValue(match[1]!) !== 'string') fail();
  return { key: match[1]!, rest: text.slice(match[0].length) };
}

/** A value written on the line of its key or dash; undefined when there is none (it follows on the next lines). */
function inlineValue(text: string): { value: unknown } | undefined {
  const value = text.trim();
  if (value === '' || value.startsWith('#')) return undefined;
  const first = value[0]!;
  if (first === '"' || first === "'") {
    const { value: scalar, end } = quoted(value);
    if (!restIsEmpty(value.slice(end))) fail();
    return { value: scalar };
  }
  if (first === '[' || first === '{') {
    const close = value.indexOf(first === '[' ? ']' : '}');
    if (close < 0 || !restIsEmpty(value.slice(close + 1))) fail();
    const inside = value.slice(1, close);
    if (/[[\]{}]/.test(inside)) fail();
    const items = flowItems(inside);
    if (first === '[') return { value: items.map(flowScalar) };
    const object: Record<string, unknown> = {};
    for (const item of items) {
      const entry = splitKey(item.trim());
      if (entry === undefined) fail();
      setKey(object, entry.key, flowScalar(entry.rest));
    }
    return { value: object };
  }
  // A plain scalar ends at a comment; `key: a: b` is not YAML.
  const comment = value.search(/ #/);
  const plain = (comment < 0 ? value : value.slice(0, comment)).trimEnd();
  if (/: |:$/.test(plain)) fail();
  return { value: plainValue(plain) };
}

class Reader {
  at = 0;
  constructor(private readonly lines: Line[]) {}

  private get line(): Line | undefined {
    return this.lines[this.at];
  }

  private static isItem(text: string): boolean {
    return text === '-' || text.startsWith('- ');
  }

  block(indent: number): unknown {
    return Reader.isItem(this.line!.text) ? this.sequence(indent) : this.mapping(indent);
  }

  /** What follows a key or dash whose line has no value: a deeper block, a sequence at the key's indentation, or null. */
  private below(indent: number, sequenceAtIndent: boolean): unknown {
    const next = this.line;
    if (next !== undefined && next.indent > indent) return this.block(next.indent);
    if (sequenceAtIndent && next !== undefined && next.indent === indent && Reader.isItem(next.text)) return this.sequence(indent);
    return null;
  }

  /** A value on its key's or dash's line: nothing may continue it on deeper lines. */
  private closed(value: unknown, indent: number): unknown {
    if (this.line !== undefined && this.line.indent > indent) fail();
    return value;
  }

  mapping(indent: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    while (this.line !== undefined && this.line.indent === indent && !Reader.isItem(this.line.text)) {
      const entry = splitKey(this.line.text);
      if (entry === undefined) fail();
      this.at++;
      const inline = inlineValue(entry.rest);
      setKey(object, entry.key, inline === undefined ? this.below(indent, true) : this.closed(inline.value, indent));
    }
    if (this.line !== undefined && this.line.indent > indent) fail();
    return object;
  }

  sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    while (this.line !== undefined && this.line.indent === indent && Reader.isItem(this.line.text)) {
      const after = this.line.text.slice(1);
      const content = after.trimStart();
      const column = indent + 1 + (after.length - content.length);
      if (content === '' || content.startsWith('#')) {
        this.at++;
        items.push(this.below(indent, false));
      } else if (Reader.isItem(content)) {
        fail();
      } else if (splitKey(content) !== undefined) {
        // `- key: value`: a mapping whose keys are at the content's column.
        this.lines[this.at] = { indent: column, text: content };
        items.push(this.mapping(column));
      } else {
        this.at++;
        const inline = inlineValue(content);
        items.push(inline === undefined ? null : this.closed(inline.value, indent));
      }
    }
    if (this.line !== undefined && this.line.indent > indent) fail();
    return items;
  }
}

/**
 * The value of one YAML document (its text, without `---` lines), as `yaml` reads it, when the
 * document is in the subset above and its root is a mapping; undefined otherwise.
 */
export function readSimpleDocument(text: string): Record<string, unknown> | undefined {
  if (text.includes('\t') || text.includes('\\') || STREAM_LINE.test(text)) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    lines.push({ indent: line.length - content.length, text: content.trimEnd() });
  }
  if (lines.length === 0) return undefined;
  try {
    const reader = new Reader(lines);
    if (lines[0]!.text === '-' || lines[0]!.text.startsWith('- ')) return undefined;
    const value = reader.mapping(lines[0]!.indent);
    // Lines left over (a shallower one after the root's) mean the document is not what it seemed.
    return reader.at === lines.length ? value : undefined;
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}
