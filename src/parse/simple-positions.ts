/**
 * Positions in a document the fast reader read (src/parse/simple-yaml.ts), found from its lines
 * without parsing it: the key, value or pair at a path of mapping keys whose value is a scalar on
 * the key's own line. A Namespace taken from its value gets its findings (a label that is there or
 * missing) at such paths; parsing the document with `yaml` only to place them cost more than
 * reading it (0.2 to 0.4 ms a document). Any other path, or a form the line scan does not know,
 * gives undefined and the caller parses (src/parse/yaml.ts). The offsets are those `yaml`'s
 * parse gives, as src/parse/positions.ts reads them: test/simple-positions.test.ts compares them
 * on every document of the fixtures and both corpora.
 *
 * Only for documents readSimpleDocument read: their keys are unique, there are no tabs in their
 * structure, anchors, tags, aliases on collections, or flow collections over several lines, and
 * every scalar that goes on over lines does so on lines deeper than its key.
 */
import type { FieldPath } from '../field-path.js';
import { lineKey, quotedEnd } from './simple-yaml.js';

export interface SimpleLocated {
  readonly start: number;
  readonly end: number;
}

/** A line of the text from `start`: where its content begins (after the spaces) and ends (before `\r\n`). */
interface TextLine {
  readonly start: number;
  readonly indent: number;
  readonly content: number;
  readonly end: number;
  /** Where the next line starts (past the text's end when this is the last). */
  readonly next: number;
}

function lineAt(text: string, start: number, limit: number): TextLine {
  let content = start;
  while (content < limit && text.charCodeAt(content) === 32) content++;
  let end = text.indexOf('\n', content);
  if (end < 0 || end > limit) end = limit;
  const next = end + 1;
  if (end > content && text.charCodeAt(end - 1) === 13) end--;
  return { start, indent: content - start, content, end, next };
}

/** Blank lines and comment lines hold no node. */
function holdsNothing(text: string, line: TextLine): boolean {
  return line.content === line.end || text.charCodeAt(line.content) === 35;
}

/**
 * The offsets (in `text`) of `part` of the field at `path` in the document whose root mapping
 * starts at `firstContent` and which ends at `end`, or undefined (see above).
 */
export function locateSimple(text: string, firstContent: number, end: number, path: FieldPath, part: 'pair' | 'key' | 'value'): SimpleLocated | undefined {
  if (path.length === 0) return undefined;
  const rootLine = text.lastIndexOf('\n', firstContent - 1) + 1;
  let indent = firstContent - rootLine;
  let at = rootLine;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (typeof segment !== 'string') return undefined;
    // The keys of the mapping at `indent`, from `at`: deeper lines belong to the values before.
    let found: { line: TextLine; length: number; rest: string } | undefined;
    while (at < end) {
      const line = lineAt(text, at, end);
      at = line.next;
      if (holdsNothing(text, line) || line.indent > indent) continue;
      if (line.indent < indent) return undefined;
      const lineText = text.slice(line.content, line.end);
      // A sequence at its key's indentation (`key:\n- item`) is that key's value.
      if (lineText === '-' || lineText.startsWith('- ')) continue;
      const entry = lineKey(lineText);
      if (entry === undefined) return undefined;
      if (entry.key === segment) {
        found = { line, length: entry.length, rest: entry.rest };
        break;
      }
    }
    if (found === undefined) return undefined;
    const { line, length, rest } = found;
    const keyStart = line.content;
    const keyEnd = keyStart + length;
    const valueText = rest.trimStart();
    const valueStart = line.end - valueText.length;
    const empty = valueText === '' || valueText.startsWith('#');
    if (i < path.length - 1) {
      // A mapping below the key: its keys are at the indentation of its first line.
      if (!empty) return undefined;
      let below = at;
      let first: TextLine | undefined;
      while (below < end) {
        const candidate = lineAt(text, below, end);
        below = candidate.next;
        if (!holdsNothing(text, candidate)) {
          first = candidate;
          break;
        }
      }
      if (first === undefined || first.indent <= indent) return undefined;
      indent = first.indent;
      continue;
    }
    if (part === 'key') return { start: keyStart, end: keyEnd };
    if (empty) return undefined;
    const valueEnd = scalarEnd(text, valueStart, line.end);
    if (valueEnd === undefined) return undefined;
    // A plain scalar may go on over deeper lines: then it is not on its key's line alone.
    for (let next = at; next < end; ) {
      const following = lineAt(text, next, end);
      next = following.next;
      if (holdsNothing(text, following)) continue;
      if (following.indent > indent) return undefined;
      break;
    }
    return part === 'value' ? { start: valueStart, end: valueEnd } : { start: keyStart, end: valueEnd };
  }
  return undefined;
}

/** Where a scalar written whole from `start` to its line's end (`lineEnd`) ends; undefined for any other node. */
function scalarEnd(text: string, start: number, lineEnd: number): number | undefined {
  const c = text[start];
  if (c === '"' || c === "'") {
    const close = quotedEnd(text.slice(start, lineEnd));
    return close < 0 ? undefined : start + close;
  }
  // Collections, block scalars, node properties and aliases are left to the parse.
  if (c === undefined || '[{|>&*!'.includes(c)) return undefined;
  const comment = text.indexOf(' #', start);
  let valueEnd = comment < 0 || comment > lineEnd ? lineEnd : comment;
  while (valueEnd > start && (text.charCodeAt(valueEnd - 1) === 32 || text.charCodeAt(valueEnd - 1) === 9)) valueEnd--;
  return valueEnd;
}
