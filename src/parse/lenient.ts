/**
 * What kubectl's decoder reads and `yaml` does not. kubectl reads manifests with go-yaml v2 (the
 * sigs.k8s.io/yaml fork), whose scanner does not check the indentation of a quoted scalar's
 * continuation lines: a long CEL expression in double quotes whose later lines start at the key's
 * own column (or at column 1) is read, folded as usual. YAML 1.2 and `yaml` reject it. Its
 * scanner also reads `\'` in double quotes (an apostrophe), which `yaml` rejects; and it rejects
 * what `yaml` reads: `\/` (YAML 1.2's escape) and `\u`/`\U` escapes of surrogates
 * (goRejectedEscape). Its scanner also cuts flow collections and tags otherwise (goScanRewrites).
 *
 * Such a scalar is replaced, before `yaml` parses the text, by a quoted scalar of the same length
 * on one line (so every offset, and so every position, stays that of the file), and its value is
 * put back on the parsed node afterwards, folded by `yaml` from the scalar's own text with its
 * continuation lines indented. What go-yaml also rejects stays an error: a document marker line
 * inside the quotes, an unclosed quote, a multi-line quoted mapping key.
 */
import { Lexer, isScalar, parseDocument, visit, type Document } from 'yaml';
import { GO_YAML } from './go-yaml-schema.js';

/** A quoted scalar read as go-yaml reads it: where it is and what it says. */
export interface RepairedScalar {
  readonly start: number;
  /** Exclusive: after the closing quote. */
  readonly end: number;
  /** The scalar as written (quotes included). */
  readonly source: string;
}

export interface Repaired {
  /** The text with each repaired scalar on one line, at the same offsets. */
  readonly text: string;
  readonly scalars: readonly RepairedScalar[];
}

/**
 * Lexing is linear, and each repair lexes its document again: past this many characters lexed in
 * all for a file, nothing is repaired and the file is reported as `yaml` reports it. Real files
 * have a handful of such scalars per document: a file gets 64 times its length (64 repairs of
 * each of its documents), at least 64,000 characters and at most 8 million (a generated CRD of
 * 150 KB with 24 descriptions in single quotes lexes 3.6 million: hold-out 15). Work is then at
 * most 64 times the input for any number of files: 3 million for every file, however small,
 * made 400 hostile files of 10 KB lex for 75 s (s39a 11).
 */
export const MAX_REPAIR_WORK = 8_000_000;
const MIN_REPAIR_WORK = 64_000;
const REPAIR_WORK_PER_CHARACTER = 64;

/** repairQuotedScalars' budget for a file of this length. */
function repairBudget(length: number): number {
  return Math.min(MAX_REPAIR_WORK, Math.max(MIN_REPAIR_WORK, REPAIR_WORK_PER_CHARACTER * length));
}

/** The lexer's control tokens, which stand for no characters of the text. */
const CONTROL_TOKENS = new Set(['\x02', '\x18', '\x1f']);

/** Where documents start: kubectl splits at every line that starts with `---`, and no repair crosses one. */
function documentStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n---'); at >= 0; at = text.indexOf('\n---', at + 4)) starts.push(at + 1);
  return starts;
}

/**
 * The quoted scalars and flow collections `yaml`'s lexer cuts at an under-indented line,
 * repaired; undefined when there are none. Called only for text `yaml` reported errors in. Each
 * document is repaired on its own, so the work grows with the repairs of one document only.
 */
export function repairQuotedScalars(text: string): Repaired | undefined {
  if (!/["'[{]/.test(text)) return undefined;
  const starts = documentStarts(text);
  const parts: string[] = [];
  const scalars: RepairedScalar[] = [];
  const budget = { work: 0, limit: repairBudget(text.length) };
  let changed = false;
  for (let index = 0; index < starts.length; index++) {
    const start = starts[index]!;
    const end = starts[index + 1] ?? text.length;
    const chunk = text.slice(start, end);
    const repaired = /["'[{]/.test(chunk) ? repairDocument(chunk, budget) : undefined;
    // Past the budget nothing is repaired: the file is reported as `yaml` reports it.
    if (budget.work > budget.limit) return undefined;
    if (repaired === undefined) {
      parts.push(chunk);
      continue;
    }
    changed = true;
    parts.push(repaired.text);
    for (const scalar of repaired.scalars) scalars.push({ start: scalar.start + start, end: scalar.end + start, source: scalar.source });
  }
  return changed ? { text: parts.join(''), scalars } : undefined;
}

function repairDocument(text: string, budget: { work: number; readonly limit: number }): Repaired | undefined {
  let current = text;
  const scalars: RepairedScalar[] = [];
  let changed = false;
  for (;;) {
    budget.work += current.length;
    if (budget.work > budget.limit) break;
    const cut = firstCut(current);
    if (cut === undefined) break;
    if (cut.kind === 'quote') {
      const end = closingQuote(current, cut.at);
      if (end < 0 || isKey(current, end)) break;
      const source = text.slice(cut.at, end);
      scalars.push({ start: cut.at, end, source });
      current = current.slice(0, cut.at) + source[0] + ' '.repeat(end - cut.at - 2) + source[0] + current.slice(end);
    } else {
      const flat = flattenFlow(current, cut.at);
      if (flat === undefined) break;
      current = current.slice(0, cut.at) + flat + current.slice(cut.at + flat.length);
    }
    changed = true;
  }
  return changed ? { text: current, scalars } : undefined;
}

/**
 * The first place the lexer cuts short: a quoted scalar it ends before its closing quote, or a
 * flow collection it ends at an under-indented line (the offset of its outermost `[` or `{`).
 */
function firstCut(text: string): { kind: 'quote' | 'flow'; at: number } | undefined {
  let offset = 0;
  let depth = 0;
  let flowStart = -1;
  for (const token of new Lexer().lex(text)) {
    if (token === '\x18' && flowStart >= 0) return { kind: 'flow', at: flowStart };
    if (token.length === 1 && CONTROL_TOKENS.has(token)) continue;
    const first = token[0];
    if ((first === '"' || first === "'") && !closes(token)) return { kind: 'quote', at: offset };
    if (first === '"' && token.includes("\\'") && goEscapes(token) !== token) return { kind: 'quote', at: offset };
    if (token === '[' || token === '{') {
      if (depth === 0) flowStart = offset;
      depth++;
    } else if ((token === ']' || token === '}') && depth > 0) depth--;
    offset += token.length;
  }
  return undefined;
}

/**
 * The flow collection that opens at `start` on one line, at the same length: line breaks and
 * comments become spaces (quoted scalars are kept as written). Undefined where that could change
 * a value (a plain scalar that goes on on the next line is folded; this would not) or go-yaml
 * does not read it either (a document marker line, no closing bracket).
 */
export function flattenFlow(text: string, start: number): string | undefined {
  let depth = 0;
  const out: string[] = [];
  // The last character written that is not a blank, and the next text character that is not
  // whitespace: kept as the walk goes, so that each line break costs what it reads (trimming the
  // output or searching the rest of the text at each break was quadratic: s38e 4).
  let lastNonBlank = '';
  let nextNonSpace = -1;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = closingQuote(text, i);
      if (end < 0) return undefined;
      out.push(text.slice(i, end));
      lastNonBlank = text[end - 1]!;
      i = end - 1;
      continue;
    }
    if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out.push(' '.repeat(stop - i));
      i = stop - 1;
      continue;
    }
    if (c === '\n' || c === '\r') {
      const marker = text.slice(i + 1, i + 4);
      if (c === '\n' && (marker === '---' || marker === '...') && /^\s?$/.test(text[i + 4] ?? '')) return undefined;
      if (nextNonSpace <= i) {
        nextNonSpace = i + 1;
        while (nextNonSpace < text.length && /\s/.test(text[nextNonSpace]!)) nextNonSpace++;
      }
      const after = text[nextNonSpace] ?? '';
      // A plain scalar on both sides of the break: it folds to one space, which flattening would not give.
      if (lastNonBlank !== '' && !'[{,:"\''.includes(lastNonBlank) && !',]}#:'.includes(after)) return undefined;
      out.push(' ');
      continue;
    }
    out.push(c);
    if (!/\s/.test(c)) lastNonBlank = c;
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return out.join('');
    }
  }
  return undefined;
}

/** Whether a lexed quoted-scalar token ends with its closing quote. */
function closes(token: string): boolean {
  const quote = token[0]!;
  if (token.length < 2 || token[token.length - 1] !== quote) return false;
  if (quote === "'") return true;
  let backslashes = 0;
  for (let i = token.length - 2; i > 0 && token[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * After the closing quote of the scalar that opens at `start`, as go-yaml scans it: `''` is a
 * quote inside single quotes, `\` escapes the next character inside double quotes, and a line
 * that starts with `---` or `...` followed by a blank ends the scalar with an error. -1 when the
 * scalar does not close.
 */
export function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      const marker = text.slice(i + 1, i + 4);
      if ((marker === '---' || marker === '...') && /^[\s]?$/.test(text[i + 4] ?? '')) return -1;
      continue;
    }
    if (quote === '"' && c === '\\') {
      i++;
      continue;
    }
    if (c !== quote) continue;
    if (quote === "'" && text[i + 1] === "'") {
      i++;
      continue;
    }
    return i + 1;
  }
  return -1;
}

/** A multi-line scalar followed by `:` is a mapping key, which go-yaml does not read either. */
function isKey(text: string, end: number): boolean {
  let i = end;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === ':' && (i + 1 >= text.length || /[\s,\]}]/.test(text[i + 1]!));
}

/**
 * The value go-yaml reads from a quoted scalar: `yaml` folds it once its continuation lines are
 * indented (leading blanks of a continuation line are not part of the value).
 */
function scalarValue(source: string, tag: string | undefined): unknown {
  const indented = (source[0] === '"' ? goEscapes(source) : source).replace(/\n/g, '\n ');
  const doc = parseDocument(`${tag === undefined ? '' : `!<${tag}> `}${indented}`, { ...GO_YAML, logLevel: 'error' });
  const node = doc.contents;
  return isScalar(node) ? node.value : undefined;
}

/** The repaired scalars by where they start, for restoreValues. */
export function byStart(scalars: readonly RepairedScalar[]): ReadonlyMap<number, RepairedScalar> {
  return new Map(scalars.map((scalar) => [scalar.start, scalar]));
}

/** Puts each repaired scalar's value on its node in a parsed document. */
export function restoreValues(doc: Document, scalars: ReadonlyMap<number, RepairedScalar>): void {
  if (scalars.size === 0 || !doc.range) return;
  const [from, , to] = doc.range;
  // Most documents of a file hold none: they are not visited.
  let any = false;
  for (const start of scalars.keys()) if (start >= from && start < to) any = true;
  if (!any) return;
  visit(doc, {
    Scalar(_, node) {
      const scalar = node.range ? scalars.get(node.range[0]) : undefined;
      if (scalar === undefined) return;
      node.value = scalarValue(scalar.source, node.tag);
    },
  });
}

/**
 * A double-quoted scalar's source with go-yaml's `\'` (an apostrophe, which `yaml` does not know)
 * written as `\x27`; every other escape as it is.
 */
function goEscapes(source: string): string {
  if (!source.includes("\\'")) return source;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c !== '\\' || i + 1 >= source.length) {
      out += c;
      continue;
    }
    out += source[i + 1] === "'" ? '\\x27' : c + source[i + 1]!;
    i++;
  }
  return out;
}

/**
 * The first escape in a double-quoted scalar's source that go-yaml rejects ("found unknown escape
 * character", "found invalid Unicode character escape code") and `yaml` reads, with its offset in
 * the source: `\/`, and `\u`/`\U` escapes of a surrogate.
 */
export function goRejectedEscape(source: string): { readonly at: number; readonly escape: string } | undefined {
  for (let i = 1; i < source.length - 1; i++) {
    if (source[i] !== '\\') continue;
    const next = source[i + 1];
    if (next === '/') return { at: i, escape: '\\/' };
    const digits = next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (digits > 0) {
      const hex = source.slice(i + 2, i + 2 + digits);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits ? Number.parseInt(hex, 16) : undefined;
      // (Past U+10FFFF `yaml` rejects it too.)
      if (code !== undefined && code >= 0xd800 && code <= 0xdfff) return { at: i, escape: source.slice(i, i + 2 + digits) };
    }
    i++;
  }
  return undefined;
}

/**
 * A `:` before `,]}`; a `?` before a non-blank where a flow entry starts; a tag (a `!` where a
 * token starts) before `,[]`: the only ways to what goScanRewrites finds. A CEL `.?field` or
 * `!has(x[0])` in a quoted expression is no start of one, so such a file is not lexed again.
 */
const MAYBE_GO_SCAN = /:[,\]}]|(?:^|[[{,])[ \t]*\?\S|(?:^|[\s[{,])![^\s]*[,[\]]/m;

/** The characters go-yaml reads in a tag (scannerc.go yaml_parser_scan_tag_uri, plus `!`). */
const GO_TAG_CHARACTER = /[0-9A-Za-z\-_;/?:@&=+$,.!~*'()[\]%]/;

/** Where go-yaml's scanner cuts differently from `yaml`'s, as same-length changes to the text. */
export interface GoScanRewrites {
  /** The text with every change made (the same length, so every offset stays). */
  readonly text: string;
  /** Whether a `:` that ends a plain scalar was replaced by `colon`, to be put back in the values. */
  readonly colons: boolean;
}

/**
 * What go-yaml's scanner reads otherwise than `yaml`'s (goyaml.v2/scannerc.go), rewritten so that
 * `yaml` reads what go-yaml does:
 * - in a flow collection, a plain scalar ends at `: ` or at `,?[]{}`, so a `:` just before `,`,
 *   `]` or `}` is its last character (`[b:, c]` is `["b:", "c"]`): the `:` becomes `colon`, put
 *   back in the value after the parse;
 * - in a flow collection, `?` is the explicit-key indicator even before a non-blank
 *   (`{?failurePolicy: Ignore}` sets failurePolicy): it becomes a space;
 * - a tag runs on through `,`, `[` and `]` (`{a: !,b: c}` is `{a: c}`): they become `_`, which
 *   changes only the tag's name (a tag go-yaml does not know, either way).
 * Undefined when there is nothing to rewrite.
 */
export function goScanRewrites(text: string, colon: string): GoScanRewrites | undefined {
  if (!MAYBE_GO_SCAN.test(text)) return undefined;
  const tokens = [...new Lexer().lex(text)];
  const changes = new Map<number, string>();
  let colons = false;
  let offset = 0;
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.length === 1 && CONTROL_TOKENS.has(token)) continue;
    const plain = tokens[i - 1] === '\x1f' && token !== '';
    if (token === '[' || token === '{') depth++;
    else if ((token === ']' || token === '}') && depth > 0) depth--;
    else if (token[0] === '!') {
      let end = offset + token.length;
      while (end < text.length && GO_TAG_CHARACTER.test(text[end]!)) end++;
      for (let at = offset + token.length; at < end; at++) if (text[at] === ',' || text[at] === '[' || text[at] === ']') changes.set(at, '_');
    } else if (depth > 0 && plain) {
      if (token[0] === '?' && token.length > 1) changes.set(offset, ' ');
      if (token[0] !== '"' && token[0] !== "'" && tokens[i + 1] === ':') {
        // An empty value between the `:` and the indicator is a scalar marker and an empty token.
        const next = tokens[i + 2] === '\x1f' && tokens[i + 3] === '' ? tokens[i + 4] : tokens[i + 2];
        if (next === ',' || next === ']' || next === '}') {
          changes.set(offset + token.length, colon);
          colons = true;
        }
      }
    }
    offset += token.length;
  }
  if (changes.size === 0) return undefined;
  let rewritten = '';
  let from = 0;
  for (const at of [...changes.keys()].sort((a, b) => a - b)) {
    rewritten += `${text.slice(from, at)}${changes.get(at)!}`;
    from = at + 1;
  }
  return { text: rewritten + text.slice(from), colons };
}
