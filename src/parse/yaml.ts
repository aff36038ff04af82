/**
 * The only module that knows the `yaml` package. It turns a file's text into documents and the
 * manifests inside them (a document's root object, or each item of a `List`), and answers
 * "where in the file is this field path?" for the engine.
 */
import { firstAbove, lastAtOrBefore, pushAll } from '../collections.js';
import { parseAllDocuments, isAlias, isMap, isScalar, isSeq, Parser, visit, YAMLParseError, type Document, type Node, type YAMLMap } from 'yaml';
import type { FieldPath } from '../field-path.js';
import { templateIn } from '../text/placeholder.js';
import { InternalError } from '../errors.js';
import type { SourceFile } from '../load/sources.js';
import { goRefusesAliases } from './go-alias-limit.js';
import { locateSimple } from './simple-positions.js';
import { PositionIndex } from './positions.js';
import { documentLines, prefilter, type Settle, type ValueDocument, type ValueOf } from './prefilter.js';
import { byStart, goRejectedEscape, goScanRewrites, repairQuotedScalars, restoreValues } from './lenient.js';
import { ObjectMemo } from '../cache.js';
import { GO_YAML, parseAsGoYaml, reportDuplicateKeys } from './go-yaml-schema.js';

/** 1-based line and column; the end is exclusive. */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface LocatedSpan extends Span {
  /** False when the path is not written and the span is its closest written ancestor. */
  readonly exact: boolean;
}

export interface SyntaxProblem {
  readonly documentIndex: number;
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly span: Span;
  /**
   * For a syntax error: the document holds template syntax (`{{ … }}`, `${VAR}`), so it is an
   * unrendered template rather than broken YAML. The first placeholder, as written.
   */
  readonly template?: string;
  /**
   * For an error that keeps a document from being read: the document's text (or its kind, when
   * that was read), so that analyses that conclude from an object's absence can tell whether this
   * document could be it (src/match/unreadable.ts). Undefined there: it could be anything.
   */
  readonly documentText?: string;
}

/** An object in a document: the document's root, or one item of a List. */
export interface Manifest {
  readonly file: SourceFile;
  readonly documentIndex: number;
  /** Where the object sits inside its document: [] for the root, ['items', 2] for a List item. */
  readonly basePath: FieldPath;
  readonly apiVersion: string | undefined;
  readonly kind: string | undefined;
  /**
   * The object as plain data, or a problem (alias bomb) that stops it from being read. Called
   * once: the YAML document is let go then, and only its positions are kept.
   */
  toValue(): { value: unknown } | { problem: SyntaxProblem };
  /** Where a field path of this object is in the file; falls back to the closest written ancestor. */
  locate(path: FieldPath, part?: 'pair' | 'key' | 'value'): LocatedSpan;
  /** The line the object starts on: `locate([]).line`, known without positions for an object taken from its value. */
  startLine(): number;
}

export interface ParsedFile {
  readonly source: SourceFile;
  readonly documentCount: number;
  /** Documents recognised from their text as kinds the linter does not read, or settled from their value, and not parsed (src/parse/prefilter.ts). */
  readonly unparsed: number;
  /** Of those, the documents the caller read in full from their value (src/parse/read.ts): set only when there are some. */
  readonly settled?: number;
  readonly problems: readonly SyntaxProblem[];
  readonly manifests: readonly Manifest[];
  spanAt(start: number, end: number): Span;
}

/**
 * The API server reads manifests through sigs.k8s.io/yaml, which resolves scalars much as YAML 1.1
 * does (`yes`, `on` are booleans; `<<` merges): src/parse/go-yaml-schema.ts.
 */
const PARSE_OPTIONS = { ...GO_YAML, prettyErrors: false, logLevel: 'error' } as const;
const GO_PARSE_OPTIONS = { prettyErrors: false, logLevel: 'error' } as const;
/** Whether kubectl refuses a document for its aliases (src/parse/go-alias-limit.ts), found once per document. */
const refusesAliases = new ObjectMemo<Document, boolean>();

export interface ParseOptions {
  /** Recognise documents of other kinds from their text and leave them unparsed (default true). */
  readonly prefilter?: boolean;
  /** With the prefilter: the documents to parse, from their text (default: those that may be a kind we read). */
  readonly reads?: (documentText: string) => boolean;
  /** With the prefilter: of the documents `reads` wants, those settled without a parse (src/parse/read.ts). */
  readonly settle?: Settle;
  /**
   * With the prefilter: of the documents `reads` wants and `settle` does not settle, those taken
   * from their value (src/parse/read.ts); each is parsed only when a position in it is asked for.
   */
  readonly byValue?: ValueOf;
}

/** A file that was not read (larger than the limit): one problem, no documents. */
export function unreadFile(path: string, size: number, limit: number): ParsedFile {
  const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  const span = { line: 1, column: 1, endLine: 1, endColumn: 1 };
  return {
    source: { path, text: null },
    documentCount: 0,
    unparsed: 0,
    problems: [{ documentIndex: 0, severity: 'error', code: 'FILE_TOO_LARGE', message: `the file is ${mib(size)}, over the ${mib(limit)} limit, and was not read`, span }],
    manifests: [],
    spanAt: () => span,
  };
}

export function parseFile(source: SourceFile, options: ParseOptions = {}): ParsedFile {
  const text = source.text ?? '';
  const lineCounter = new LineIndex(text);
  const spanAt = (start: number, end: number): Span => toSpan(text, lineCounter, start, end);
  if (source.text === null) {
    return {
      source,
      documentCount: 0,
      unparsed: 0,
      problems: [{ documentIndex: 0, severity: 'error', code: 'NOT_UTF8', message: 'the file is not valid UTF-8 text', span: { line: 1, column: 1, endLine: 1, endColumn: 1 } }],
      manifests: [],
      spanAt,
    };
  }
  // `yaml` keeps about 1 KB per document, even an empty one: 20 MB of `---` lines exhausted the
  // heap. A file with more documents than this is not parsed, and says so.
  const markers = countMarkerLines(text, MAX_DOCUMENTS + 1);
  if (markers > MAX_DOCUMENTS) {
    const span = spanAt(0, 0);
    return {
      source,
      documentCount: markers,
      unparsed: 0,
      problems: [{ documentIndex: 0, severity: 'error', code: 'TOO_MANY_DOCUMENTS', message: `the file has more than ${MAX_DOCUMENTS} documents and was not read`, span }],
      manifests: [],
      spanAt,
    };
  }
  // Documents larger than the API server accepts are never parsed: blanked here, reported below.
  const oversized = text.length > MAX_OBJECT_BYTES ? blankOversized(text) : undefined;
  const readText = oversized?.text ?? text;
  // A line kubectl stops at is reported with the documents `yaml` finds: such a file is parsed.
  // So is one with a line separator (lineSeparatorProblems): its documents are not read from their value.
  const separated = source.lineSeparators !== undefined && source.lineSeparators.length > 0;
  const byValue = options.byValue !== undefined && !KUBECTL_SPLIT_LINE.test(text) && !separated ? options.byValue : undefined;
  const filtered = options.prefilter === false ? ({ mode: 'all' } as const) : prefilter(readText, options.reads, separated ? undefined : options.settle, byValue);
  const settled = filtered.mode !== 'all' && filtered.settled !== undefined ? { settled: filtered.settled } : {};
  const place = { source, text, lineCounter };
  const valued = (documents: readonly ValueDocument[] | undefined): Manifest[] => (documents ?? []).map((document) => valueManifest({ ...place, documentIndex: document.index }, document));
  if (filtered.mode === 'none' && oversized === undefined) return { source, documentCount: filtered.documents, unparsed: filtered.skipped, ...settled, problems: [], manifests: valued(filtered.values), spanAt };
  if (filtered.mode === 'none') {
    // Only oversized documents could be read: each is reported, nothing is parsed.
    const problems = oversized!.documents.map((document) => oversizedProblem(document, documentIndexAt(readText, document.marker), spanAt));
    return { source, documentCount: filtered.documents, unparsed: filtered.skipped - problems.length, ...settled, problems, manifests: valued(filtered.values), spanAt };
  }
  let list = parseDocuments(filtered.mode === 'masked' ? filtered.text : readText);
  let unparsed = 0;
  let settledParts = {};
  /** The documents taken from their value, by index: blanked in the text `yaml` parsed. */
  let values = new Map<number, ValueDocument>();
  if (filtered.mode === 'masked') {
    unparsed = filtered.skipped;
    settledParts = settled;
    values = new Map((filtered.values ?? []).map((document) => [document.index, document]));
    // The line scan and `yaml` disagree on where documents are: trust `yaml`, on the whole text
    // (every document parsed, none settled or taken from its value).
    if (list.length !== filtered.documents) {
      list = parseDocuments(readText);
      unparsed = 0;
      settledParts = {};
      values = new Map();
    }
  }
  const problems: SyntaxProblem[] = [];
  const tooLarge = new Set<number>();
  for (const document of oversized?.documents ?? []) {
    const index = list.findIndex((doc) => doc.range !== undefined && doc.range !== null && doc.range[0] <= document.marker && document.marker < Math.max(doc.range[2], doc.range[0] + 1));
    if (index < 0) continue;
    tooLarge.add(index);
    problems.push(oversizedProblem(document, index, spanAt));
  }
  const manifests: Manifest[] = [];
  list.forEach((doc, documentIndex) => {
    if (tooLarge.has(documentIndex)) return;
    const value = values.get(documentIndex);
    if (value !== undefined) {
      manifests.push(valueManifest({ ...place, documentIndex }, value));
      return;
    }
    let tooDeep = false;
    const template = doc.errors.length > 0 && doc.range ? templateIn(text.slice(doc.range[0], doc.range[2])) : undefined;
    const marked = template === undefined ? {} : { template };
    // What a document that does not parse holds runs to the next document's start: `yaml` may end
    // its range where it stopped reading (an unrendered `{{- if }}` line), and what follows is
    // still this document's text (an analysis of absence asks whether it may hold a kind: s46c).
    const documentEnd = doc.range === undefined ? undefined : Math.max(doc.range[2], list[documentIndex + 1]?.range?.[0] ?? text.length);
    const documentText = doc.range && documentEnd !== undefined ? text.slice(doc.range[0], documentEnd) : undefined;
    const unread = documentText === undefined ? {} : { documentText };
    for (const error of doc.errors) {
      // Past the JS stack, `yaml` reports one error per remaining node: one finding says it all.
      if (error.message.includes('Maximum call stack size exceeded')) {
        if (!tooDeep) problems.push({ documentIndex, severity: 'error', code: 'TOO_DEEP', message: 'the document nests too deeply to be read', span: spanAt(error.pos[0], error.pos[0] + 1), ...unread });
        tooDeep = true;
        continue;
      }
      const end = tokenEnd(text, error.pos);
      const message = error.code === 'DUPLICATE_KEY' ? `duplicate key "${text.slice(error.pos[0], end)}"` : cleanMessage(error.message);
      problems.push({ documentIndex, severity: 'error', code: error.code, message, span: spanAt(error.pos[0], end), ...marked, ...(error.code === 'DUPLICATE_KEY' ? {} : unread) });
    }
    for (const warning of doc.warnings) {
      problems.push({ documentIndex, severity: 'warning', code: warning.code, message: cleanMessage(warning.message), span: spanAt(warning.pos[0], tokenEnd(text, warning.pos)) });
    }
    // A document with syntax errors is not read further: what it means is a guess. A key written
    // twice is reported, and the document read as kubectl reads it (the last value wins).
    if (doc.errors.some((error) => error.code !== 'DUPLICATE_KEY')) return;
    // Too many aliases to resolve: not read (not even its kind), and reported whatever it is.
    const aliases = doc.range && ALIAS_SYNTAX.test(text.slice(doc.range[0], doc.range[2])) ? aliasProblem({ source, text, lineCounter, documentIndex }, doc) : undefined;
    if (aliases !== undefined) {
      problems.push({ ...aliases, ...unread });
      return;
    }
    collectManifests(source, text, lineCounter, doc, documentIndex, manifests);
  });
  pushAll(problems, kubectlSplitProblems(text, list, spanAt));
  const blanked = new Set(filtered.mode === 'masked' && list.length === filtered.documents ? filtered.blanked : []);
  pushAll(problems, lineSeparatorProblems(source.lineSeparators, list, (index) => !blanked.has(index) || values.has(index), spanAt));
  return { source, documentCount: list.length, unparsed, ...settledParts, problems, manifests, spanAt };
}

/**
 * A U+2028 or U+2029 in a document the linter reads (src/load/sources.ts decodeSource): go-yaml
 * ends the line there but keeps the character in the scalar it ends, where `yaml` folds a line
 * feed (`"x<LS>y"` is "x\u2028y" for kubectl, "x y" here); a CEL expression or a label value
 * with one is not what the API server gets. One warning per document, at the first.
 */
function lineSeparatorProblems(offsets: readonly number[] | undefined, documents: readonly Document.Parsed[], read: (documentIndex: number) => boolean, spanAt: (start: number, end: number) => Span): SyntaxProblem[] {
  if (offsets === undefined || offsets.length === 0) return [];
  const byDocument = new Map<number, number[]>();
  // The documents with a range, in order, and where each starts: searched by halving, not walked
  // per separator (s39a 3: 50,000 documents with one each took 33 s).
  const ranged = documents.flatMap((doc, at) => (doc.range !== undefined && doc.range !== null ? [at] : []));
  const starts = ranged.map((at) => documents[at]!.range[0]);
  for (const offset of offsets) {
    // The last document that starts at or before it (a blanked document's range ends at its `~`).
    const last = lastAtOrBefore(starts, offset);
    const index = last < 0 ? -1 : ranged[last]!;
    if (index < 0 || !read(index)) continue;
    const found = byDocument.get(index);
    if (found === undefined) byDocument.set(index, [offset]);
    else found.push(offset);
  }
  return [...byDocument].map(([documentIndex, [first, ...others]]) => ({
    documentIndex,
    severity: 'warning' as const,
    code: 'LINE_SEPARATOR',
    message: `a line or paragraph separator (U+2028, U+2029)${others.length > 0 ? ` and ${others.length} more` : ''}: kubectl keeps it in the value it ends, the linter read a line break`,
    span: spanAt(first!, first! + 1),
  }));
}

/** A line that starts with `---` and has content after it, or a directive: see kubectlSplitProblems. */
const KUBECTL_SPLIT_LINE = /^(?:---[^\s#]|---[ \t]+[^\s#]|%)/m;

/**
 * Lines kubectl's YAML reader stops at, although YAML allows them: it splits a file at every line
 * that starts with `---` and takes only a comment after it (content there is "invalid Yaml
 * document separator"), so a directive (`%YAML`, `%TAG`) is a document of its own that go-yaml
 * cannot decode. kubectl applies nothing from there on; the linter reads on, and says so.
 */
function kubectlSplitProblems(text: string, documents: readonly Document.Parsed[], spanAt: (start: number, end: number) => Span): SyntaxProblem[] {
  if (!KUBECTL_SPLIT_LINE.test(text)) return [];
  const ends = documents.map((doc) => doc.range[2]);
  const documentAt = (offset: number): number => {
    const index = firstAbove(ends, offset);
    return index >= 0 ? index : Math.max(0, documents.length - 1);
  };
  const out: SyntaxProblem[] = [];
  for (const match of text.matchAll(/^(?:---([ \t]*[^\s#][^\n]*)|%[^\n]*)/gm)) {
    const start = match.index;
    const end = start + match[0].replace(/\r$/, '').length;
    const message =
      match[1] === undefined
        ? 'kubectl cannot read a YAML directive: it splits the file at --- lines and cannot decode the directive alone; remove it'
        : 'kubectl reads nothing after a --- line with content on it (invalid Yaml document separator); put the content on the next line';
    out.push({ documentIndex: documentAt(start), severity: 'error', code: 'KUBECTL_SPLIT', message, span: spanAt(start, end) });
  }
  return out;
}

/**
 * The largest request body the API server reads (k8s.io/apiserver pkg/server/config.go,
 * `MaxRequestBodyBytes: int64(3 * 1024 * 1024)`; pkg/endpoints/handlers/rest.go limitedReadBody
 * answers 413 Request Entity Too Large past it). An object larger than this is never admitted, so
 * it is reported and not parsed (a 13 MB Pod took 1.8 GB to parse).
 */
export const MAX_OBJECT_BYTES = 3 * 1024 * 1024;

interface OversizedDocument {
  /** Offset of the `~` that stands for it in the blanked text. */
  readonly marker: number;
  /** Offset of its first content character in the text. */
  readonly start: number;
  /** What it would weigh as a request body, at least (bytes outside comments and indentation). */
  readonly bytes: number;
}

const DOCUMENT_BOUNDARY = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/;

/**
 * The text with every document larger than MAX_OBJECT_BYTES blanked (a `~`, then spaces; line
 * breaks kept, so positions do not move). A document's weight counts its bytes without whole-line
 * comments and leading indentation: what its JSON request body holds at least. Boundaries are
 * lines that start with `---` or `...` (YAML ends any scalar there).
 */
function blankOversized(text: string): { text: string; documents: OversizedDocument[] } | undefined {
  const ranges: { start: number; end: number; bytes: number; first: number }[] = [];
  let current = { start: 0, end: 0, bytes: 0, first: -1 };
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    let from = lineStart;
    const boundary = text.startsWith('---', lineStart) || text.startsWith('...', lineStart) ? DOCUMENT_BOUNDARY.exec(text.slice(lineStart, lineStart + 4)) : null;
    if (boundary) {
      current.end = lineStart;
      ranges.push(current);
      current = { start: lineStart + 3, end: lineStart + 3, bytes: 0, first: -1 };
      from = lineStart + 3;
    }
    let content = from;
    while (content < lineEnd && (text[content] === ' ' || text[content] === '\t' || text[content] === '\r')) content++;
    if (content < lineEnd && text[content] !== '#') {
      if (current.first < 0) current.first = content;
      current.bytes += Buffer.byteLength(text.slice(content, lineEnd)) + 1;
    }
    lineStart = lineEnd + 1;
  }
  current.end = text.length;
  ranges.push(current);
  const over = ranges.filter((range) => range.first >= 0 && range.bytes > MAX_OBJECT_BYTES);
  if (over.length === 0) return undefined;
  const pieces: string[] = [];
  const documents: OversizedDocument[] = [];
  let at = 0;
  for (const range of over) {
    pieces.push(text.slice(at, range.first), '~', text.slice(range.first + 1, range.end).replace(/[^\n]+/g, (run) => ' '.repeat(run.length)));
    documents.push({ marker: range.first, start: range.first, bytes: range.bytes });
    at = range.end;
  }
  pieces.push(text.slice(at));
  return { text: pieces.join(''), documents };
}

/** Whether a document's text weighs more than the API server accepts (as blankOversized counts). */
export function exceedsObjectLimit(documentText: string): boolean {
  return documentText.length > MAX_OBJECT_BYTES && blankOversized(documentText) !== undefined;
}

/** The index of the document at `offset` (the line scan's count of documents up to it). */
function documentIndexAt(text: string, offset: number): number {
  return Math.max(0, (documentLines(text.slice(0, offset + 1))?.length ?? 1) - 1);
}

function oversizedProblem(document: OversizedDocument, documentIndex: number, spanAt: (start: number, end: number) => Span): SyntaxProblem {
  const kib = (bytes: number): string => `${Math.floor(bytes / 1024)} KiB`;
  return {
    documentIndex,
    severity: 'error',
    code: 'OBJECT_TOO_LARGE',
    message: `the document is at least ${kib(document.bytes)}, over the ${kib(MAX_OBJECT_BYTES)} (3 MiB) the API server accepts in a request, and was not read`,
    span: spanAt(document.start, document.start + 1),
  };
}

/** The most documents a file may have to be parsed (the 50 MB benchmark file has 23,236). */
export const MAX_DOCUMENTS = 100_000;

/** `---` lines, counted up to `stop` (a count past the limit is all that matters). */
function countMarkerLines(text: string, stop: number): number {
  let count = text.startsWith('---') ? 1 : 0;
  for (let at = text.indexOf('\n---'); at >= 0 && count < stop; at = text.indexOf('\n---', at + 4)) count++;
  return count;
}

/**
 * Stands for a `:` that ends a plain scalar in a flow collection (src/parse/lenient.ts
 * goScanRewrites) while `yaml` parses: a private-use character, so part of the scalar, and one
 * UTF-16 unit, so every offset stays. Put back in each value afterwards.
 */
const FLOW_COLON = '\ue000';

function parseDocuments(written: string): Document.Parsed[] {
  const rewrites = written.includes(FLOW_COLON) ? undefined : goScanRewrites(written, FLOW_COLON);
  if (rewrites === undefined) return parseText(written);
  const documents = parseText(rewrites.text);
  if (rewrites.colons) {
    for (const doc of documents) {
      visit(doc, {
        Scalar(_, node) {
          if (typeof node.value === 'string' && node.value.includes(FLOW_COLON)) node.value = node.value.replaceAll(FLOW_COLON, ':');
        },
      });
    }
  }
  return documents;
}

function parseText(text: string): Document.Parsed[] {
  const list = parseAsGoYaml(text, GO_PARSE_OPTIONS);
  if (!list.some((doc) => doc.errors.length > 0)) return asGoYamlReads(text, list);
  // Quoted scalars whose continuation lines kubectl reads and `yaml` does not (src/parse/lenient.ts).
  const repaired = repairQuotedScalars(text);
  if (repaired === undefined) return asGoYamlReads(text, list);
  const relist = parseAsGoYaml(repaired.text, GO_PARSE_OPTIONS);
  const scalars = byStart(repaired.scalars);
  for (const doc of relist) restoreValues(doc, scalars);
  return asGoYamlReads(text, relist);
}

/**
 * A scalar whose explicit tag does not fit it (`!!int abc`, `!!bool 1`): `yaml` warns and reads a
 * string, go-yaml refuses the document ("cannot decode !!str `abc` as a !!int").
 */
const GO_REFUSED_TAG = /^Unresolved tag: tag:yaml\.org,2002:(?:int|float|bool|null)$/;

/** The documents as kubectl's go-yaml reads them: what it refuses is an error. */
function asGoYamlReads(text: string, documents: Document.Parsed[]): Document.Parsed[] {
  for (const doc of documents) {
    const refused = doc.warnings.filter((warning) => warning.code === 'TAG_RESOLVE_FAILED' && GO_REFUSED_TAG.test(cleanMessage(warning.message)));
    if (refused.length === 0) continue;
    doc.warnings = doc.warnings.filter((warning) => !refused.includes(warning));
    for (const warning of refused) doc.errors.push(new YAMLParseError(warning.pos, 'TAG_RESOLVE_FAILED', `${cleanMessage(warning.message)}: the value does not fit the tag, and kubectl refuses the document`));
  }
  return withGoEscapeErrors(text, documents);
}

/** A file kubectl reads as a stream of JSON values (apimachinery's YAMLOrJSONDecoder: its first non-space character is `{`). */
const KUBECTL_READS_JSON = /^\ufeff?\s*\{/;

/** A `\/`, or a `\u`/`\U` escape, somewhere in the text: the only way to one go-yaml rejects. */
const MAYBE_GO_REJECTED_ESCAPE = /\\[/uU]/;

/**
 * The documents, each with an error for the first double-quoted scalar whose escape kubectl's
 * go-yaml rejects and `yaml` reads (src/parse/lenient.ts goRejectedEscape): kubectl refuses the
 * whole file then, so the document is not read as if it were applied.
 */
function withGoEscapeErrors(text: string, documents: Document.Parsed[]): Document.Parsed[] {
  // kubectl decodes a file that starts with `{` as JSON, where `\/` and surrogate pairs are escapes.
  if (!MAYBE_GO_REJECTED_ESCAPE.test(text) || KUBECTL_READS_JSON.test(text)) return documents;
  for (const doc of documents) {
    visit(doc, {
      Scalar(_, node) {
        if (node.type !== 'QUOTE_DOUBLE' || !node.range) return undefined;
        const source = text.slice(node.range[0], node.range[1]);
        const rejected = MAYBE_GO_REJECTED_ESCAPE.test(source) ? goRejectedEscape(source) : undefined;
        if (rejected === undefined) return undefined;
        const at = node.range[0] + rejected.at;
        doc.errors.push(new YAMLParseError([at, at + rejected.escape.length], 'BAD_DQ_ESCAPE', `kubectl's YAML parser (go-yaml v2) does not read the escape ${rejected.escape}`));
        return visit.BREAK;
      },
    });
  }
  return documents;
}

/** `yaml` often marks one character; widen that to the word it starts (a duplicate key, say). */
function tokenEnd(text: string, pos: [number, number]): number {
  if (pos[1] - pos[0] > 1) return pos[1];
  let end = pos[0];
  while (end < text.length && !/[\s:,\[\]{}]/.test(text[end]!)) end++;
  return Math.max(end, pos[1]);
}

function cleanMessage(message: string): string {
  // `yaml` appends " at line N, column M" plus a code frame; our findings carry positions already.
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** Every `!!binary` value (a Uint8Array) in the tree as the string go-yaml makes of its bytes. */
function binaryAsText(value: unknown, seen = new Set<object>()): unknown {
  if (value instanceof Uint8Array) return new TextDecoder('utf-8').decode(value);
  // Aliases share (and can nest) objects: visit each once.
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) (value as Record<string, unknown>)[key] = binaryAsText(item, seen);
  return value;
}

/** A string as sigs.k8s.io/yaml reads it: a string scalar, or the bytes of a `!!binary` one. */
function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function scalarString(doc: Document, node: unknown): string | undefined {
  const resolved = isAlias(node) ? node.resolve(doc) : node;
  return isScalar(resolved) ? asString(resolved.value) : undefined;
}

/** The value of a mapping's key; of its last pair when the key is written twice (go-yaml keeps the last). */
function lastValue(map: YAMLMap, key: string): unknown {
  for (let i = map.items.length - 1; i >= 0; i--) {
    const pair = map.items[i]!;
    if (isScalar(pair.key) && pair.key.value === key) return pair.value;
  }
  return undefined;
}

/**
 * `apiVersion` and `kind` of a mapping as kubectl reads them: written directly (also through an
 * alias or a `!!binary` tag), or else from the mapping's value, which resolves merge keys
 * (`<<: {kind: …}`) and alias keys. A document that names a kind we read in any of these ways
 * must be linted, or it would be applied unchecked.
 */
function typeFields(doc: Document, map: Node): { apiVersion: string | undefined; kind: string | undefined } {
  if (!isMap(map)) return { apiVersion: undefined, kind: undefined };
  let apiVersion = scalarString(doc, lastValue(map, 'apiVersion'));
  let kind = scalarString(doc, lastValue(map, 'kind'));
  if (apiVersion === undefined || kind === undefined) {
    try {
      const value = (refusesAliases.get(doc, () => goRefusesAliases(doc)) ? null : map.toJS(doc, { maxAliasCount: -1 })) as Record<string, unknown> | null;
      apiVersion ??= asString(value?.apiVersion);
      kind ??= asString(value?.kind);
    } catch {
      // An alias bomb: reading the object reports it.
    }
  }
  return { apiVersion, kind };
}

function collectManifests(source: SourceFile, text: string, lineCounter: LineIndex, doc: Document, documentIndex: number, out: Manifest[]): void {
  const root = doc.contents;
  if (!isMap(root)) return;
  const { apiVersion, kind } = typeFields(doc, root);
  const make = (node: Node, basePath: FieldPath, itemKind: string | undefined, itemApiVersion: string | undefined): Manifest =>
    makeManifest({ source, text, lineCounter, documentIndex }, { doc, node }, basePath, itemKind, itemApiVersion);
  const items = lastValue(root, 'items');
  // kubectl reads any object with an `items` list as a list, whatever its kind says
  // (Unstructured.IsList in apimachinery), and applies its items, not the object: `kind: List`,
  // typed lists (`ValidatingWebhookConfigurationList`), and a Namespace that has `items` alike.
  if (isSeq(items)) {
    const impliedKind = kind === undefined || kind === 'List' || !kind.endsWith('List') ? undefined : kind.slice(0, -'List'.length);
    items.items.forEach((item, index) => {
      const resolved = isAlias(item) ? item.resolve(doc) : item;
      if (!isMap(resolved)) return;
      const fields = typeFields(doc, resolved);
      const itemKind = fields.kind ?? impliedKind;
      const itemApiVersion = fields.apiVersion ?? (impliedKind !== undefined ? apiVersion : undefined);
      out.push(make(resolved, ['items', index], itemKind, itemApiVersion));
    });
    return;
  }
  out.push(make(root, [], kind, apiVersion));
}

interface ManifestPlace {
  readonly source: SourceFile;
  readonly text: string;
  readonly lineCounter: LineIndex;
  readonly documentIndex: number;
}

/**
 * A top-level function on purpose: its closures must hold the document only through `tree`,
 * so that it can be let go once the object is read (a closure inside collectManifests would
 * keep that function's `doc` alive for as long as the manifest lives).
 */
function makeManifest(place: ManifestPlace, read: { doc: Document; node: Node }, basePath: FieldPath, kind: string | undefined, apiVersion: string | undefined): Manifest {
  const { source, text, lineCounter, documentIndex } = place;
  /** The document is needed until the object is read; after that, positions come from the index. */
  let tree: { doc: Document; node: Node } | undefined = read;
  let positions: PositionIndex | undefined;
  const index = (): PositionIndex => (positions ??= PositionIndex.of(tree!.doc, tree!.node));
  return {
    file: source,
    documentIndex,
    basePath,
    apiVersion,
    kind,
    toValue() {
      if (tree === undefined) throw new InternalError('a manifest is read once (src/model/recognize.ts)');
      const value = readValue(place, tree.doc, tree.node, index());
      tree = undefined;
      return value;
    },
    locate(path, part = 'pair') {
      const found = index().locate(path, part);
      return { ...toSpan(text, lineCounter, found.start, found.end), exact: found.exact };
    },
    startLine() {
      const found = index().locate([], 'pair');
      return lineCounter.linePos(found.start).line;
    },
  };
}

/**
 * An object taken from its value (src/parse/read.ts: the fast reader's value is `yaml`'s): its
 * document was not parsed. Only when a position in it is asked for (a finding, a suppression) is
 * the document parsed, alone, at the offsets it has in the file, so every position is the one the
 * parse of the file gives. Its kind and apiVersion are those of the value, as typeFields reads
 * them for a document without merge keys, aliases or `!!binary` (which the fast reader does not read).
 */
function valueManifest(place: ManifestPlace, document: ValueDocument): Manifest {
  const { source, text, lineCounter, documentIndex } = place;
  let value: Readonly<Record<string, unknown>> | undefined = document.value;
  // Only the document's place is kept: the value is let go once it is read.
  const { start, end, firstContent } = document;
  // Written by the fast reader as it read the document, or found when first asked for.
  let positions: PositionIndex | undefined = document.positions === undefined ? undefined : PositionIndex.fromRecords(document.positions);
  const index = (): PositionIndex => (positions ??= documentPositions(text, start, end, firstContent));
  const { kind, apiVersion } = document.value;
  return {
    file: source,
    documentIndex,
    basePath: [],
    apiVersion: typeof apiVersion === 'string' ? apiVersion : undefined,
    kind: typeof kind === 'string' ? kind : undefined,
    toValue() {
      if (value === undefined) throw new InternalError('a manifest is read once (src/model/recognize.ts)');
      const read = value;
      value = undefined;
      return { value: read };
    },
    locate(path, part = 'pair') {
      // Most paths asked of such a document are read from its lines (src/parse/simple-positions.ts).
      const simple = positions === undefined ? locateSimple(text, firstContent, end, path, part) : undefined;
      if (simple !== undefined) return { ...toSpan(text, lineCounter, simple.start, simple.end), exact: true };
      const found = index().locate(path, part);
      return { ...toSpan(text, lineCounter, found.start, found.end), exact: found.exact };
    },
    startLine() {
      // The root mapping starts at the document's first content character (the fast reader reads
      // no tag, anchor or explicit key before it).
      return lineCounter.linePos(firstContent).line;
    },
  };
}

/**
 * The positions of one document of `text`: its text parsed alone, offsets shifted to the file's.
 * The marker line that ends it (`---`, `...`) is parsed with it: where a scalar ends depends on it
 * (a block scalar at the end of the text would take in the line break after it).
 */
function documentPositions(text: string, start: number, end: number, firstContent: number): PositionIndex {
  const markerEnd = text.indexOf('\n', end + 1);
  const alone = text.slice(start, markerEnd < 0 ? text.length : markerEnd);
  const parsed = parseAllDocuments(alone, PARSE_OPTIONS);
  if (Array.isArray(parsed)) for (const doc of parsed) reportDuplicateKeys(doc);
  const first = firstContent - start;
  const doc = (Array.isArray(parsed) ? parsed : []).find((candidate) => candidate.errors.length === 0 && isMap(candidate.contents) && candidate.contents.range[0] === first);
  if (doc === undefined) throw new InternalError(`the document at offset ${firstContent} of ${JSON.stringify(text.slice(firstContent, firstContent + 40))} is not the mapping its value was read from`);
  return PositionIndex.of(doc, doc.contents as Node, start);
}

/**
 * `yaml` resolves each alias by scanning the document's nodes, so reading a document costs about
 * aliases × nodes (10,000 aliases in a 20,000-node document: seconds). Past this budget the
 * document is not read, and says so, before anything resolves an alias. Real manifests have no
 * aliases or a handful.
 */
export const MAX_ALIAS_WORK = 20_000_000;
/** `*name` where YAML reads an alias (not inside quotes): most documents have none, and are not visited. */
const ALIAS_SYNTAX = /(?:^|[\s[{,:?-])\*[^\s"',\]}]/m;

/** Whether a document's text may hold an alias (`*name` where YAML reads one). */
export function mayHoldAlias(documentText: string): boolean {
  return ALIAS_SYNTAX.test(documentText);
}
const aliasCounts = new ObjectMemo<Document, { readonly nodes: number; readonly aliases: number }>();

function aliasProblem(place: ManifestPlace, doc: Document): SyntaxProblem | undefined {
  const counts = aliasCounts.get(doc, () => {
    let nodes = 0;
    let aliases = 0;
    visit(doc, (_key, node) => {
      nodes++;
      if (isAlias(node)) aliases++;
    });
    return { nodes, aliases };
  });
  if (counts.aliases * counts.nodes <= MAX_ALIAS_WORK) return undefined;
  const range = doc.contents?.range ?? [0, 0];
  return {
    documentIndex: place.documentIndex,
    severity: 'error',
    code: 'ALIAS_LIMIT',
    message: `cannot expand aliases: ${counts.aliases} aliases in a document of ${counts.nodes} nodes are too many to resolve`,
    span: toSpan(place.text, place.lineCounter, range[0], Math.min(range[1], range[0] + 1)),
  };
}

function readValue(place: ManifestPlace, doc: Document, node: Node, { collectionKey, nullKey, cyclicAlias }: Pick<PositionIndex, 'collectionKey' | 'nullKey' | 'cyclicAlias'>): { value: unknown } | { problem: SyntaxProblem } {
  const { text, lineCounter, documentIndex } = place;
  /** What kubectl cannot read in the object, at `range`. */
  const unreadable = (code: string, message: string, range: readonly [number, number]): { problem: SyntaxProblem } => ({
    problem: { documentIndex, severity: 'error', code, message, span: toSpan(text, lineCounter, range[0], range[1]) },
  });
  if (cyclicAlias) return unreadable('ALIAS_CYCLE', `the alias ${text.slice(cyclicAlias[0], cyclicAlias[1])} is inside the node its anchor names, which kubectl refuses ("anchor value contains itself")`, cyclicAlias);
  // Of a null key and a collection key, the first in the object is named.
  if (nullKey && !(collectionKey && collectionKey[0] < nullKey[0])) return unreadable('NULL_KEY', 'a mapping key is null (~ or null), which kubectl cannot turn into JSON ("unsupported map key"); quote it if it is a name', nullKey);
  if (collectionKey) return unreadable('COLLECTION_KEY', 'a mapping key is itself a mapping or list, often an unrendered template placeholder such as {{value}}; Kubernetes cannot read it', collectionKey);
  if (refusesAliases.get(doc, () => goRefusesAliases(doc))) {
    const range = doc.contents?.range ?? [0, 0, 0];
    return unreadable('EXCESSIVE_ALIASING', 'the document contains excessive aliasing: its aliases expand to more nodes than kubectl decodes, so kubectl refuses it', [range[0], Math.min(range[1], range[0] + 1)]);
  }
  try {
    // kubectl's limit is the one above: `yaml`'s own (maxAliasCount) refuses documents kubectl applies.
    const value: unknown = node.toJS(doc, { maxAliasCount: -1 });
    // `!!binary` scalars are bytes to `yaml`; sigs.k8s.io/yaml turns them into strings.
    // Looked for in the document's own text: the file's, for every document of a stream of
    // thousands, was quadratic (s39a 8). A `%TAG` handle may spell the tag elsewhere: then the value is walked.
    const handles = Object.entries(doc.directives?.tags ?? {}).some(([handle, prefix]) => handle !== '!!' || prefix !== 'tag:yaml.org,2002:');
    const own = doc.range && !handles ? text.slice(doc.range[0], doc.range[2]) : undefined;
    return { value: own === undefined || own.includes('binary') ? binaryAsText(value) : value };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const range = node.range ?? [0, 0, 0];
    return { problem: { documentIndex, severity: 'error', code: 'ALIAS_LIMIT', message: `cannot expand aliases: ${message}`, span: toSpan(text, lineCounter, range[0], range[1]) } };
  }
}

/**
 * Offsets to 1-based line and column, from the text itself. (yaml's LineCounter is fed by the
 * lexer, which can miss a line break while it recovers from a syntax error, and every later
 * position is then a line off.)
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  linePos(offset: number): { line: number; col: number } {
    const line = Math.max(0, lastAtOrBefore(this.starts, offset));
    return { line: line + 1, col: offset - this.starts[line]! + 1 };
  }
}

function toSpan(text: string, lineCounter: LineIndex, start: number, end: number): Span {
  // Block collections end after their last newline; a span ends where the last character is.
  let trimmedEnd = Math.max(start, Math.min(end, text.length));
  while (trimmedEnd > start && /\s/.test(text[trimmedEnd - 1]!)) trimmedEnd--;
  const from = lineCounter.linePos(start);
  const to = lineCounter.linePos(trimmedEnd);
  return { line: from.line, column: from.col, endLine: to.line, endColumn: to.col };
}

/**
 * A comment on a line of its own, or ending a line after a field (`trailing`); never text inside
 * a block scalar or a quoted string.
 */
export interface LineComment {
  /** The document the comment is in (a comment before `---` belongs to the document after it). */
  readonly documentIndex: number;
  /** Everything after the `#`, as written. */
  readonly text: string;
  /** The comment, from `#` to the end of its line. */
  readonly span: Span;
  /**
   * The field (key to end of value) or list item (with everything under it) that starts on the
   * next line that is not a comment line; undefined when that line has none (blank, `---`, end).
   * When several start there (`- name: x`), the outermost: the list item.
   */
  readonly next: Span | undefined;
  /** Set when the comment ends a line that holds YAML before it (`timeoutSeconds: 45  # …`). */
  readonly trailing?: true;
}

/** The offsets of the comments the YAML parser sees (so a `#` inside a string or scalar is none). */
function commentOffsets(text: string): Set<number> {
  const offsets = new Set<number>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (typeof value === 'object' && value !== null) {
      const token = value as { type?: unknown; offset?: unknown };
      if (token.type === 'comment' && typeof token.offset === 'number') offsets.add(token.offset);
      else for (const child of Object.values(value)) walk(child);
    }
  };
  for (const token of new Parser().parse(text)) walk(token);
  return offsets;
}

/**
 * The comments that stand on their own lines, in order, then those that end a line after a field
 * (`trailing`). Parses `text` again, so callers ask only for files that can hold something they
 * look for (the engine: suppression directives). `trailingMark`: only trailing comments that
 * contain it are returned (they are found with the YAML parser's own tokens).
 */
export function lineComments(text: string, trailingMark?: string): LineComment[] {
  const lineCounter = new LineIndex(text);
  const list = parseDocuments(text);
  /** Multi-line scalars (block scalars, quoted strings): a `#` line inside one is text. */
  const scalarRanges: [number, number][] = [];
  /** Per 1-based line: the outermost field or list item that starts there, as offsets. */
  const nodeAt = new Map<number, [number, number]>();
  const note = (start: number, end: number): void => {
    const line = lineCounter.linePos(start).line;
    const known = nodeAt.get(line);
    if (known === undefined || start < known[0] || (start === known[0] && end > known[1])) nodeAt.set(line, [start, end]);
  };
  for (const doc of list) {
    visit(doc, {
      Scalar(_, node) {
        const range = node.range;
        if (range && text.slice(range[0], range[1]).includes('\n')) scalarRanges.push([range[0], range[1]]);
      },
      Pair(_, pair) {
        const keyRange = (pair.key as Node | null)?.range;
        if (!keyRange) return;
        note(keyRange[0], (pair.value as Node | null)?.range?.[1] ?? keyRange[1]);
      },
      Seq(_, seq) {
        for (const item of seq.items) {
          const range = (item as Node | null)?.range;
          if (range) note(range[0], range[1]);
        }
      },
    });
  }
  const docEnds = list.map((doc) => doc.range[2]);
  const documentAt = (offset: number): number => {
    const index = firstAbove(docEnds, offset);
    return index >= 0 ? index : Math.max(0, list.length - 1);
  };
  // Scalars are leaves: their ranges do not overlap, so the one that may hold an offset is the
  // last that starts before it (found by halving: s39a 5, a walk per comment line was quadratic).
  scalarRanges.sort((a, b) => a[0] - b[0]);
  const scalarStarts = scalarRanges.map(([from]) => from);

  const lines = text.split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const isCommentLine = lines.map((line, index) => {
    const hash = line.search(/\S/);
    if (hash < 0 || line[hash] !== '#') return false;
    const at = starts[index]! + hash;
    const last = lastAtOrBefore(scalarStarts, at - 1);
    return last < 0 || at >= scalarRanges[last]![1];
  });
  /** Per line, the first line at or after the next that is not a comment line (s39a 4: walked per comment, a block of them was quadratic). */
  const afterComments = new Array<number>(lines.length + 1);
  afterComments[lines.length] = lines.length;
  for (let index = lines.length - 1; index >= 0; index--) afterComments[index] = isCommentLine[index] ? afterComments[index + 1]! : index;
  const comments: LineComment[] = [];
  /** The comment that starts at `hash` on line `index`, with the node the lines after it hold. */
  const commentAt = (index: number, hash: number, trailing: boolean): LineComment => {
    const line = lines[index]!;
    const start = starts[index]! + hash;
    const nextLine = afterComments[index + 1] ?? lines.length;
    const target = nextLine < lines.length ? nodeAt.get(nextLine + 1) : undefined;
    return {
      documentIndex: documentAt(start),
      text: line.slice(hash + 1).replace(/\r$/, ''),
      span: toSpan(text, lineCounter, start, starts[index]! + line.replace(/\r$/, '').length),
      next: target ? toSpan(text, lineCounter, target[0], target[1]) : undefined,
      ...(trailing ? { trailing: true } : {}),
    };
  };
  lines.forEach((line, index) => {
    if (isCommentLine[index]) comments.push(commentAt(index, line.indexOf('#'), false));
  });
  if (trailingMark === undefined) return comments;
  const marked = lines.map((line, index) => !isCommentLine[index] && line.includes(trailingMark));
  if (!marked.includes(true)) return comments;
  const offsets = commentOffsets(text);
  lines.forEach((line, index) => {
    if (!marked[index]) return;
    // The first `#` of the line that the parser reads as a comment.
    let hash = -1;
    for (let at = line.indexOf('#'); at >= 0; at = line.indexOf('#', at + 1)) {
      if (offsets.has(starts[index]! + at)) {
        hash = at;
        break;
      }
    }
    if (hash < 0 || !line.slice(hash).includes(trailingMark)) return;
    comments.push(commentAt(index, hash, true));
  });
  return comments;
}
