/**
 * Fixing one file's text: plan the findings' edits, apply those that keep behaviour, and prove
 * them: the edited text is read again and defaulted, and every object must be exactly what the
 * fixes say (the same effective configuration for a default made explicit; the same one in v1
 * for a move from v1beta1), with no new syntax error. A fix whose proof fails is dropped; the
 * rest are kept only if together they pass too. Suggestions are proven one by one, never applied.
 */
import type { Finding } from '../engine/finding.js';
import { formatFieldPath } from '../field-path.js';
import { editableFile, type EditableFile } from '../parse/edit.js';
import { applyEdits } from './apply.js';
import { admissionText, canonical, readObjects, sameKey, type FileObjects } from './objects.js';
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
    const mine = fixes.filter((fix) => sameKey(fix.object, key));
    const decodes = next.decodable === object.decodable || (next.decodable && mine.some((fix) => fix.decodes === true));
    if (!sameKey(key, { documentIndex: next.manifest.documentIndex, basePath: next.manifest.basePath }) || next.kind !== object.kind || !decodes) return false;
    const expected = mine.reduce<unknown>((effective, fix) => fix.expect(effective), object.effective);
    if (canonical(expected) !== canonical(next.effective)) return false;
    return mine.every((fix) => fix.written.every((field) => !next.defaulted.has(formatFieldPath(field))));
  });
}

/**
 * A proof of fixes reads the whole file again. Fixes are proven one by one when together they
 * fail, within a budget (the file's size times the proofs, 16 Mi characters): beyond it they are
 * all dropped, so a large generated file never costs one full parse per finding.
 */
const SEPARATE_PROOF_BUDGET = 16 * 1024 * 1024;
const withinBudget = (text: string, proofs: number): boolean => text.length * proofs <= SEPARATE_PROOF_BUDGET;

/**
 * A suggestion's edits are inside one document: it is proven on that document alone (read as a
 * file of its own), so each proof costs one document, not the whole file.
 */
function documentProver(path: string, file: EditableFile): (fix: Fix) => boolean {
  const beforeByDocument = new Map<number, FileObjects>();
  return (fix) => {
    const range = file.documents[fix.object.documentIndex]?.range;
    if (range === undefined || fix.edits.some((edit) => edit.start < range[0] || edit.end > range[2])) return false;
    const slice = file.text.slice(range[0], range[2]);
    let before = beforeByDocument.get(fix.object.documentIndex);
    if (before === undefined) beforeByDocument.set(fix.object.documentIndex, (before = readObjects(path, slice)));
    const edited = applyEdits(slice, fix.edits.map((edit) => ({ ...edit, start: edit.start - range[0], end: edit.end - range[0] })));
    // In the slice the document is the first: the fix's object is its document's.
    return edited !== undefined && proven(path, before, edited, [{ ...fix, object: { ...fix.object, documentIndex: 0 } }]);
  };
}

export function fixFileText(path: string, text: string, findings: readonly Finding[]): FileFixResult {
  const before = readObjects(path, text);
  // Edits are planned on the documents that may be admission objects; the others (CRDs, say) are not parsed.
  const file = editableFile(text, admissionText(text));
  const planned = planFixes(findings, before.objects, file);
  const candidates = planned.filter((fix) => fix.kind === 'fix');
  const suggestionsPlanned = planned.filter((fix) => fix.kind === 'suggestion');
  const suggestions = suggestionsPlanned.filter(documentProver(path, file));
  if (candidates.length === 0) return { text: undefined, applied: [], dropped: [], suggestions };
  const all = applyEdits(text, candidates.flatMap((fix) => fix.edits));
  if (all !== undefined && proven(path, before, all, candidates)) return { text: all === text ? undefined : all, applied: candidates, dropped: [], suggestions };
  if (!withinBudget(text, candidates.length)) return { text: undefined, applied: [], dropped: candidates, suggestions };
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
