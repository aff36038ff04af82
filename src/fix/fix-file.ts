/**
 * Fixing one file's text: plan the findings' edits, apply those that keep behaviour, and prove
 * them: the edited text is read again and defaulted, and every object must be exactly what the
 * fixes say (the same effective configuration for a default made explicit; the same one in v1
 * for a move from v1beta1), with no new syntax error. A fix whose proof fails is dropped; the
 * rest are kept only if together they pass too. Suggestions are proven on their document (together
 * first, then one by one), never applied. Only the documents holding a finding an edit is planned
 * for are read (documentsOnLines): a proof costs those documents, not the file.
 */
import type { Finding } from '../engine/finding.js';
import { formatFieldPath } from '../field-path.js';
import { editableFile, type EditableFile } from '../parse/edit.js';
import { applyEdits } from './apply.js';
import { canonical, documentsOnLines, readObjects, sameKey, type FileObjects } from './objects.js';
import { mayPlanEdit, planFixes } from './plan.js';
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
 * file of its own), so each proof costs one document, not the whole file. The suggestions of one
 * document are alternatives, each proven on its own; they are tried together first (one more
 * read of the document for all of them), and one by one only when together they fail (their
 * edits clash, or one fails its proof).
 */
function proveSuggestions(path: string, file: EditableFile, suggestions: readonly Fix[]): Fix[] {
  const byDocument = new Map<number, Fix[]>();
  for (const fix of suggestions) byDocument.set(fix.object.documentIndex, [...(byDocument.get(fix.object.documentIndex) ?? []), fix]);
  const accepted = new Set<Fix>();
  for (const [documentIndex, fixes] of byDocument) {
    const range = file.documents[documentIndex]?.range;
    if (range === undefined) continue;
    const slice = file.text.slice(range[0], range[2]);
    const before = readObjects(path, slice);
    const holds = (tried: readonly Fix[]): boolean => {
      if (tried.some((fix) => fix.edits.some((edit) => edit.start < range[0] || edit.end > range[2]))) return false;
      const edited = applyEdits(slice, tried.flatMap((fix) => fix.edits).map((edit) => ({ ...edit, start: edit.start - range[0], end: edit.end - range[0] })));
      // In the slice the document is the first: the fixes' object is its document's.
      return edited !== undefined && proven(path, before, edited, tried.map((fix) => ({ ...fix, object: { ...fix.object, documentIndex: 0 } })));
    };
    for (const fix of fixes.length > 1 && holds(fixes) ? fixes : fixes.filter((one) => holds([one]))) accepted.add(fix);
  }
  return suggestions.filter((fix) => accepted.has(fix));
}

export function fixFileText(path: string, text: string, findings: readonly Finding[]): FileFixResult {
  // Only the documents with a finding an edit is planned for are read (and of them, those that
  // may be admission objects): planned, edited and proven there. The edits touch nothing else.
  const planning = findings.filter(mayPlanEdit);
  if (planning.length === 0) return { text: undefined, applied: [], dropped: [], suggestions: [] };
  const parseText = documentsOnLines(text, planning.map((finding) => finding.line));
  const before = readObjects(path, parseText);
  const file = editableFile(text, parseText);
  const planned = planFixes(planning, before.objects, file);
  const candidates = planned.filter((fix) => fix.kind === 'fix');
  const suggestions = proveSuggestions(path, file, planned.filter((fix) => fix.kind === 'suggestion'));
  if (candidates.length === 0) return { text: undefined, applied: [], dropped: [], suggestions };
  // Proven on the read documents with the edits made; the file gets the same edits.
  const provenOn = (fixes: readonly Fix[]): string | undefined => {
    const edits = fixes.flatMap((fix) => fix.edits);
    const parsedAfter = applyEdits(parseText, edits);
    return parsedAfter !== undefined && proven(path, before, parsedAfter, fixes) ? applyEdits(text, edits) : undefined;
  };
  const all = provenOn(candidates);
  if (all !== undefined) return { text: all === text ? undefined : all, applied: candidates, dropped: [], suggestions };
  if (!withinBudget(text, candidates.length)) return { text: undefined, applied: [], dropped: candidates, suggestions };
  // One at a time, keeping each that still proves with those kept before it.
  const applied: Fix[] = [];
  const dropped: Fix[] = [];
  let current: string | undefined;
  for (const fix of candidates) {
    const edited = provenOn([...applied, fix]);
    if (edited !== undefined) {
      applied.push(fix);
      current = edited;
    } else dropped.push(fix);
  }
  return { text: current === text ? undefined : current, applied, dropped, suggestions };
}
