/**
 * Rendered input (`helm template`): helm writes `---` and then `# Source: <chart>/templates/<file>`
 * before each document. A stream in that shape is split into one input per template, so findings
 * name the template file; positions stay those of the rendered stream (the template has no such
 * lines), and each finding records the stream it was read from (`rendered`).
 */
import type { ParsedFile, Span } from '../parse/yaml.js';
import { fileNamed, type SourceFile } from './sources.js';

const DOCUMENT_MARKER = /^(---|\.\.\.)(\s|$)/;
/** Exactly helm's comment. A URL ("# Source: https://…", a note where YAML was copied from) is not a template. */
const SOURCE_COMMENT = /^# Source: (\S.*?)\s*$/;

/**
 * For each line (1-based index), the template whose document it is in, or null. A `# Source:`
 * comment counts only where helm puts it: on the first line of the stream or right after `---`.
 */
export function templateLines(text: string): (string | null)[] {
  const lines = text.split(/\r?\n/);
  const byLine: (string | null)[] = [null];
  let current: string | null = null;
  let atDocumentStart = true;
  for (const line of lines) {
    if (DOCUMENT_MARKER.test(line)) {
      current = null;
      atDocumentStart = true;
    } else {
      const match = atDocumentStart ? SOURCE_COMMENT.exec(line) : null;
      // Named as standard input is shown, a template would be taken for it (--stdin-filename, the formats).
      if (match && !match[1]!.includes('://')) current = fileNamed(match[1]!);
      atDocumentStart = false;
    }
    byLine.push(current);
  }
  return byLine;
}

/**
 * One parsed input, or — when it is rendered output with `# Source:` comments — one per template
 * (in the order the stream first names them). Documents without a comment keep the stream's name.
 * Document indexes stay those of the stream, like the lines.
 */
export function splitRendered(parsed: ParsedFile): ParsedFile[] {
  const text = parsed.source.text;
  if (text === null || !text.includes('# Source: ')) return [parsed];
  const byLine = templateLines(text);
  const lines = text.split(/\r?\n/);
  // A syntax error can be reported on the `---` that ends its document: that line is the next one's.
  const at = (line: number): string | null => byLine[line > 1 && DOCUMENT_MARKER.test(lines[line - 1] ?? '') ? line - 1 : line] ?? null;
  const templateOf = new Map<number, string | null>();
  for (const manifest of parsed.manifests) {
    if (!templateOf.has(manifest.documentIndex)) templateOf.set(manifest.documentIndex, at(manifest.startLine()));
  }
  for (const problem of parsed.problems) {
    if (!templateOf.has(problem.documentIndex)) templateOf.set(problem.documentIndex, at(problem.span.line));
  }
  if (![...templateOf.values()].some((template) => template !== null)) return [parsed];

  const stream = parsed.source.path;
  const groups = new Map<string, { source: SourceFile; documents: Set<number> }>();
  const sourceOf = (documentIndex: number): SourceFile => {
    const template = templateOf.get(documentIndex) ?? null;
    const path = template ?? stream;
    let group = groups.get(path);
    if (group === undefined) {
      const source: SourceFile = template === null ? parsed.source : { path, text, renderedFrom: stream };
      group = { source, documents: new Set() };
      groups.set(path, group);
    }
    group.documents.add(documentIndex);
    return group.source;
  };
  for (const index of [...templateOf.keys()].sort((a, b) => a - b)) sourceOf(index);

  const files = [...groups.values()].map(({ source, documents }) => ({
    source,
    documentCount: documents.size,
    unparsed: 0,
    problems: parsed.problems.filter((problem) => documents.has(problem.documentIndex)),
    manifests: parsed.manifests.filter((manifest) => documents.has(manifest.documentIndex)).map((manifest) => ({ ...manifest, file: source })),
    spanAt: parsed.spanAt,
  }));
  // Documents with nothing in them (empty, a bare scalar) still count in the summary.
  const counted = files.reduce((sum, file) => sum + file.documentCount, 0);
  files[0] = { ...files[0]!, documentCount: files[0]!.documentCount + parsed.documentCount - counted, unparsed: parsed.unparsed };
  return files;
}

/** Where in a rendered stream a finding is: the stream's path and the span in it. */
export interface RenderedPosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** The `rendered` field of a finding in a file that `splitRendered` made: where in the stream it is. */
export function renderedAt(source: SourceFile, span: Span): { readonly rendered?: RenderedPosition } {
  if (source.renderedFrom === undefined) return {};
  return { rendered: { file: source.renderedFrom, line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn } };
}
