/**
 * The fixes and suggestions of a report's findings, for the formats that carry them (SARIF
 * `fixes`, rdjson `suggestions`, stylish with `--show-fixes`): planned and proven as `--fix-dry-run` does (nothing written),
 * with their edits as positions in the file.
 */
import type { Finding } from '../engine/finding.js';
import { normalizeEdits } from './apply.js';
import { fixFiles } from './fix-files.js';
import type { Fix, TextEdit } from './types.js';

export interface EditPosition {
  readonly line: number;
  /** 1-based, in UTF-16 code units (SARIF's default). */
  readonly column: number;
  /** 1-based, in UTF-8 bytes (reviewdog's). */
  readonly byteColumn: number;
}

export interface FindingFix {
  readonly description: string;
  /** `fix`: --fix applies it; `suggestion`: it changes behaviour, a person decides. */
  readonly kind: 'fix' | 'suggestion';
  /** `replaced`: the text between start and end, as the file has it ('' for an insertion). */
  readonly edits: readonly { readonly start: EditPosition; readonly end: EditPosition; readonly text: string; readonly replaced: string }[];
}

export type FixesOf = (finding: Finding) => readonly FindingFix[];

function positionAt(text: string, offset: number): EditPosition {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return { line, column: offset - lineStart + 1, byteColumn: Buffer.byteLength(text.slice(lineStart, offset), 'utf8') + 1 };
}

/**
 * A fix's edits in order, those that touch (insertions at one place, one after another) made one:
 * a suggested change on a pull request is one edit, not several that each apply alone.
 */
function joinedEdits(edits: readonly TextEdit[]): TextEdit[] {
  const joined: TextEdit[] = [];
  for (const edit of normalizeEdits(edits) ?? edits) {
    const last = joined.at(-1);
    if (last !== undefined && last.end === edit.start) joined[joined.length - 1] = { start: last.start, end: edit.end, text: last.text + edit.text };
    else joined.push(edit);
  }
  return joined;
}

const keyOf = (item: Pick<Finding, 'file' | 'ruleId' | 'documentIndex' | 'fieldPath' | 'line'>): string => `${item.file}\u0000${item.ruleId}\u0000${item.documentIndex}\u0000${item.fieldPath ?? ''}\u0000${item.line}`;

export function fixesForFindings(findings: readonly Finding[], options: { readonly paths: readonly string[]; readonly cwd: string; readonly stdin?: Uint8Array }): FixesOf {
  const outcomes = fixFiles({ findings, paths: options.paths, cwd: options.cwd, dryRun: true, ...(options.stdin ? { stdin: options.stdin } : {}) });
  const byFinding = new Map<string, FindingFix[]>();
  for (const outcome of outcomes) {
    const source = outcome.source;
    if (source === undefined) continue;
    const add = (fix: Fix): void => {
      const list = byFinding.get(keyOf(fix)) ?? [];
      const entry: FindingFix = { description: fix.description, kind: fix.kind, edits: joinedEdits(fix.edits).map((edit) => ({ start: positionAt(source, edit.start), end: positionAt(source, edit.end), text: edit.text, replaced: source.slice(edit.start, edit.end) })) };
      // Two findings at one place (one rule, two messages) plan the same edit: it is one fix (SARIF wants unique items).
      if (!list.some((known) => JSON.stringify(known) === JSON.stringify(entry))) list.push(entry);
      byFinding.set(keyOf(fix), list);
    };
    outcome.applied.forEach(add);
    outcome.suggestions.forEach(add);
  }
  return (finding) => byFinding.get(keyOf(finding)) ?? [];
}
