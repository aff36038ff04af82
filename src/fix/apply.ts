/**
 * Applying text edits to a file's text. Edits that replace or remove text must not overlap;
 * insertions at one offset are kept in the order given, and an edit planned twice (two
 * findings asking for the same insertion) is made once.
 */
import type { TextEdit } from './types.js';

/** The edits without repeats, sorted by offset; undefined when two of them overlap. */
export function normalizeEdits(edits: readonly TextEdit[]): TextEdit[] | undefined {
  const seen = new Set<string>();
  const unique: TextEdit[] = [];
  for (const edit of edits) {
    const key = `${edit.start}:${edit.end}:${edit.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(edit);
  }
  // Stable: insertions at one offset keep their order.
  const sorted = unique.map((edit, order) => ({ edit, order })).sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.order - b.order).map(({ edit }) => edit);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const current = sorted[i]!;
    if (current.start < previous.end) return undefined;
    if (current.start === previous.start && previous.end > previous.start) return undefined;
  }
  return sorted;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string | undefined {
  const sorted = normalizeEdits(edits);
  if (sorted === undefined) return undefined;
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
