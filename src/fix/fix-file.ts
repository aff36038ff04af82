/**
 * Fixing one file's text: plan the findings' edits, apply those that keep behaviour, and prove
 * them: the edited text is read again and defaulted, and every object must be exactly what the
 * fixes say (the same effective configuration for a default made explicit; the same one in v1
 * for a move from v1beta1), with no new syntax error. A fix whose proof fails is dropped; the
 * rest are kept only if together they pass too. Suggestions are proven one by one, never applied.
 */
import type { Finding } from '../engine/finding.js';
import { formatFieldPath } from '../field-path.js';
import { editableFile } from '../parse/edit.js';
import { applyEdits } from './apply.js';
import { canonical, readObjects, sameKey, type FileObjects } from './objects.js';
import { planFixes } from './plan.js';
import type { Fix } from './types.js';

export interface FileFixResult {
  /** The fixed text, or undefined when no fix applies. */
  readonly text: string | undefined;
  /** The fixes applied, in the order they were planned. */
  readonly applied: readonly Fix[];
  /** Fixes planned but dropped: their edits clash or their proof failed. */
  readonly dropped: readonly Fix[];
  /** Suggestions whose edits were proven on the text before any fix. */
  readonly suggestions: readonly Fix[];
}

/** Whether `after` (the text with `fixes` applied) holds what the fixes promise. */
function proven(path: string, before: FileObjects, afterText: string, fixes: readonly Fix[]): boolean {
  const after = readObjects(path, afterText);
  if (after.errors > before.errors || after.documents !== before.documents || after.objects.length !== before.objects.length) return false;
  return before.objects.every((object, i) => {
    const next = after.objects[i]!;
    const key = { documentIndex: object.manifest.documentIndex, basePath: object.manifest.basePath };
    if (!sameKey(key, { documentIndex: next.manifest.documentIndex, basePath: next.manifest.basePath }) || next.kind !== object.kind || next.decodable !== object.decodable) return false;
    const mine = fixes.filter((fix) => sameKey(fix.object, key));
    const expected = mine.reduce<unknown>((effective, fix) => fix.expect(effective), object.effective);
    if (canonical(expected) !== canonical(next.effective)) return false;
    return mine.every((fix) => fix.written.every((field) => !next.defaulted.has(formatFieldPath(field))));
  });
}

export function fixFileText(path: string, text: string, findings: readonly Finding[]): FileFixResult {
  const before = readObjects(path, text);
  const planned = planFixes(findings, before.objects, editableFile(text));
  const candidates = planned.filter((fix) => fix.kind === 'fix');
  const suggestions = planned.filter((fix) => {
    if (fix.kind !== 'suggestion') return false;
    const edited = applyEdits(text, fix.edits);
    return edited !== undefined && proven(path, before, edited, [fix]);
  });
  if (candidates.length === 0) return { text: undefined, applied: [], dropped: [], suggestions };
  const all = applyEdits(text, candidates.flatMap((fix) => fix.edits));
  if (all !== undefined && proven(path, before, all, candidates)) return { text: all === text ? undefined : all, applied: candidates, dropped: [], suggestions };
  // One at a time, keeping each that still proves with those kept before it.
  const applied: Fix[] = [];
  const dropped: Fix[] = [];
  let current: string | undefined;
  for (const fix of candidates) {
    const edited = applyEdits(text, [...applied, fix].flatMap((kept) => kept.edits));
    if (edited !== undefined && proven(path, before, edited, [...applied, fix])) {
      applied.push(fix);
      current = edited;
    } else dropped.push(fix);
  }
  return { text: current === text ? undefined : current, applied, dropped, suggestions };
}
