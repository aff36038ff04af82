/**
 * Most documents in a repository are Deployments, Services and ConfigMaps that the linter never
 * reads. Building a YAML document for each is most of the run's time and memory, so documents
 * whose text cannot be one of the kinds we read are recognised from their text and not parsed.
 *
 * The test is conservative: a document is parsed when its text contains the name of a kind we
 * read anywhere (not just after `kind:`), or anything that could spell such a name without
 * writing it (an escape in a double-quoted string, an escaped line break). A file that contains
 * a suppression directive, a YAML directive (`%YAML`) or content on a `---` line is parsed whole.
 */

/**
 * Every kind the linter reads contains one of these (see src/model/recognize.ts): webhook
 * configurations, admission policies and their bindings, Namespaces, CRDs (for discovery), and
 * Lists of any of them.
 */
const READ_KIND_PARTS = /WebhookConfiguration|AdmissionPolicy|Namespace|CustomResourceDefinition|List/;
/** `"\x57ebhook…"`, `"\u0057…"` or a line break escaped inside a double-quoted string. */
const SPELLED_OTHERWISE = /\\[xuU]|\\\r?\n/;
/** Must be seen by the suppression checks (unused-suppression), so the file is parsed. */
const DIRECTIVE = 'admission-lint-';

export type Prefiltered =
  /** Parse the text as it is. */
  | { readonly mode: 'all' }
  /** Nothing to parse: every document is of a kind the linter does not read. */
  | { readonly mode: 'none'; readonly documents: number; readonly skipped: number }
  /**
   * Parse `text`: the file with the documents we do not read blanked out, at the same offsets
   * (each becomes `~`, a null, followed by spaces; line breaks stay), so positions, document
   * indexes and the document count are those of the original file.
   */
  | { readonly mode: 'masked'; readonly text: string; readonly documents: number; readonly skipped: number; readonly blanked: readonly number[] };

/** A document of the stream, as line-based offsets into the text. */
interface DocumentLines {
  /** Where the masking may start: after the `---` marker, or at the first content line. */
  readonly start: number;
  /** Where the document's last line ends (before the next marker or after its `...`). */
  end: number;
  /** The offset of the first content character, or -1 for a document without content. */
  firstContent: number;
}

const MARKER = /^---(?:[ \t\r]|$)/;
const END_MARKER = /^\.\.\.(?:[ \t\r]|$)/;

function contentStart(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    // space, tab, carriage return, BOM
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) continue;
    return c === 35 /* # */ ? -1 : i;
  }
  return -1;
}

/**
 * The documents of a YAML stream as `yaml` counts them: an explicit `---` starts one; content
 * outside a document starts one; `...` ends one (and, outside a document, is an empty one).
 * Returns undefined for a stream this line scan cannot follow safely (directives, content on a
 * marker line), which is then parsed in full.
 */
export function documentLines(text: string): DocumentLines[] | undefined {
  const documents: DocumentLines[] = [];
  let open: DocumentLines | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (line.charCodeAt(0) === 37 /* % */) return undefined;
    if (MARKER.test(line)) {
      if (contentStart(line.slice(3)) >= 0) return undefined;
      open = { start: lineStart + 3, end: lineEnd, firstContent: -1 };
      documents.push(open);
    } else if (END_MARKER.test(line)) {
      if (open === undefined) documents.push({ start: lineStart, end: lineStart, firstContent: -1 });
      open = undefined;
    } else {
      const at = contentStart(line);
      if (at >= 0) {
        if (open === undefined) {
          open = { start: lineStart, end: lineEnd, firstContent: lineStart + at };
          documents.push(open);
        } else if (open.firstContent < 0) open.firstContent = lineStart + at;
      }
      if (open !== undefined) open.end = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  return documents;
}

function mightBeRead(text: string): boolean {
  return READ_KIND_PARTS.test(text) || SPELLED_OTHERWISE.test(text);
}

export function prefilter(text: string): Prefiltered {
  if (text.includes(DIRECTIVE)) return { mode: 'all' };
  const whole = mightBeRead(text);
  // Most files: nothing in them is read, and a line scan that only counts documents is enough.
  const documents = documentLines(text);
  if (documents === undefined) return { mode: 'all' };
  const withContent = documents.filter((document) => document.firstContent >= 0);
  if (!whole) return { mode: 'none', documents: documents.length, skipped: withContent.length };
  const blank = withContent.filter((document) => !mightBeRead(text.slice(document.start, document.end)));
  const blanked = blank.map((document) => documents.indexOf(document));
  if (blank.length === 0) return { mode: 'all' };
  const pieces: string[] = [];
  let at = 0;
  for (const document of blank) {
    pieces.push(text.slice(at, document.firstContent), '~');
    pieces.push(text.slice(document.firstContent + 1, document.end).replace(/[^\n]/g, ' '));
    at = document.end;
  }
  pieces.push(text.slice(at));
  // Text before the first content character of a blanked document (a comment after `---`) is kept:
  // it cannot hold content, and keeping it leaves the masked text the same length.
  return { mode: 'masked', text: pieces.join(''), documents: documents.length, skipped: blank.length, blanked };
}
