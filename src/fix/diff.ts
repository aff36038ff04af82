/**
 * A unified diff (`diff -u`, as `git apply` and `patch -p1` read it) of a file before and after
 * known edits. The edits say which lines changed, so no line-matching algorithm is needed: each
 * group of changed lines becomes a hunk with three lines of context, hunks that touch merge.
 */
import { normalizeEdits } from './apply.js';
import type { TextEdit } from './types.js';

const CONTEXT = 3;

/** Lines with their line breaks, so a CRLF file's diff says CRLF and a missing final newline shows. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

function printLine(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n\\ No newline at end of file\n`;
}

export function unifiedDiff(path: string, text: string, edits: readonly TextEdit[]): string {
  const sorted = normalizeEdits(edits);
  if (sorted === undefined || sorted.length === 0) return '';
  const lines = splitLines(text);
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length;
  }
  if (starts.length === 0) starts.push(0);
  // Changed line ranges [first, last] of the old text, one per edit, merged when they share a line.
  const groups: { first: number; last: number; edits: TextEdit[] }[] = [];
  for (const edit of sorted) {
    const first = lineOf(starts, edit.start);
    const last = Math.max(first, lineOf(starts, Math.max(edit.start, edit.end - 1)));
    const previous = groups[groups.length - 1];
    if (previous !== undefined && first <= previous.last) {
      previous.last = Math.max(previous.last, last);
      previous.edits.push(edit);
    } else groups.push({ first, last, edits: [edit] });
  }
  // An absolute path is named from the root (`a/tmp/x.yaml`), as git names paths.
  const name = path.replace(/^\/+/, '');
  const out: string[] = [`--- a/${name}\n`, `+++ b/${name}\n`];
  let index = 0;
  // Lines the hunks before this one added (minus those they removed): where it starts in the new text.
  let delta = 0;
  while (index < groups.length) {
    // A hunk: groups whose context overlaps.
    let end = index;
    while (end + 1 < groups.length && groups[end + 1]!.first - groups[end]!.last <= 2 * CONTEXT + 1) end++;
    const from = Math.max(0, groups[index]!.first - CONTEXT);
    const to = Math.min(lines.length - 1, groups[end]!.last + CONTEXT);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let line = from;
    for (let g = index; g <= end; g++) {
      const group = groups[g]!;
      for (; line < group.first; line++, oldCount++, newCount++) body.push(printLine(' ', lines[line]!));
      const oldText = lines.slice(group.first, group.last + 1).join('');
      const base = starts[group.first] ?? 0;
      let newText = '';
      let at = 0;
      for (const edit of group.edits) {
        newText += oldText.slice(at, edit.start - base) + edit.text;
        at = edit.end - base;
      }
      newText += oldText.slice(at);
      // An insertion at the end of a line leaves that line as it was: it is context, not a change.
      const before = splitLines(oldText);
      const after = splitLines(newText);
      let same = 0;
      while (same < before.length && same < after.length && before[same] === after[same]) same++;
      let tail = 0;
      while (tail < before.length - same && tail < after.length - same && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
      const context = (line: string): void => {
        body.push(printLine(' ', line));
        oldCount++;
        newCount++;
      };
      before.slice(0, same).forEach(context);
      for (const removed of before.slice(same, before.length - tail)) {
        body.push(printLine('-', removed));
        oldCount++;
      }
      for (const added of after.slice(same, after.length - tail)) {
        body.push(printLine('+', added));
        newCount++;
      }
      before.slice(before.length - tail).forEach(context);
      line = group.last + 1;
    }
    for (; line <= to; line++, oldCount++, newCount++) body.push(printLine(' ', lines[line]!));
    const range = (start: number, count: number): string => (count === 0 ? `${start},0` : count === 1 ? `${start + 1}` : `${start + 1},${count}`);
    out.push(`@@ -${range(from, oldCount)} +${range(from + delta, newCount)} @@\n`, ...body);
    delta += newCount - oldCount;
    index = end + 1;
  }
  return out.join('');
}
