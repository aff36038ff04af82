/**
 * The admission objects of one file's text, read and defaulted as `lint` and `defaults` read
 * them (src/parse/yaml.ts, src/recognize/), for planning edits and for proving them.
 */
import type { FieldPath } from '../field-path.js';
import type { PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { documentLines, prefilter } from '../parse/prefilter.js';
import { parseFile } from '../parse/yaml.js';
import { recognize } from '../recognize/recognize.js';

export type FixableObject = WebhookConfigurationObject | PolicyObject;

export interface FileObjects {
  readonly objects: readonly FixableObject[];
  /** Syntax errors in the file (an edit must not add one). */
  readonly errors: number;
  readonly documents: number;
}

/**
 * Documents that may be an admission object (a webhook configuration, a policy or binding, a List
 * of them), from their text; the others (CRDs, workloads) are blanked and not parsed. Spellings
 * that hide a kind's name (escapes, `!!binary`) are parsed, as the linter's prefilter does.
 */
export function mayBeAdmission(documentText: string): boolean {
  // `List` only as a kind: a CRD names its own list kind (`listKind: WidgetList`).
  return /WebhookConfiguration|AdmissionPolicy|kind['"]?\s*:\s*['"]?List\b|\\[xuU]|\\\r?\n|!!binary|:binary>/.test(documentText);
}

/** The text with the documents that cannot be admission objects blanked, at the same offsets (src/parse/prefilter.ts). */
export function admissionText(text: string): string {
  const filtered = prefilter(text, mayBeAdmission);
  return filtered.mode === 'masked' ? filtered.text : text;
}

/**
 * The text with only the documents on `lines` (1-based: where the findings an edit is planned for
 * are) left to parse, of those that may be admission objects. Each other document becomes a null
 * and one comment line of its length (`~ ####…`): offsets and document indexes stay the file's
 * (line numbers do not: nothing planned or proven reads them), and a parse reads a long comment
 * much faster than the prefilter's lines of spaces. Planning and proving then read the documents
 * an edit may touch, not the whole file. A file whose documents the line scan of the prefilter
 * (src/parse/prefilter.ts) cannot tell apart is read as `admissionText` gives it.
 */
export function documentsOnLines(text: string, lines: readonly number[]): string {
  const documents = documentLines(text);
  if (documents === undefined) return admissionText(text);
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  const spans = lines.map((line) => [starts[line - 1] ?? text.length, (starts[line] ?? text.length + 1) - 1] as const);
  const kept = (document: { start: number; end: number }): boolean => spans.some(([from, to]) => from <= document.end && to >= document.start) && mayBeAdmission(text.slice(document.start, document.end));
  const blank = documents.filter((document) => document.firstContent >= 0 && !kept(document));
  const pieces: string[] = [];
  let at = 0;
  for (const document of blank) {
    const length = document.end - document.firstContent;
    pieces.push(text.slice(at, document.firstContent), length === 1 ? '~' : `~ ${'#'.repeat(length - 2)}`);
    at = document.end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

/**
 * The admission objects of a text narrowed by documentsOnLines (or one document of it), read and
 * defaulted as `lint` reads them. It is parsed as it is: the narrowing did the prefilter's work.
 */
export function readObjects(path: string, text: string): FileObjects {
  const parsed = parseFile({ path, text }, { prefilter: false });
  const objects: FixableObject[] = [];
  for (const manifest of parsed.manifests) {
    const recognized = recognize(manifest);
    if (recognized.type === 'webhook-configuration' || recognized.type === 'admission-policy') objects.push(recognized.object);
  }
  return { objects, errors: parsed.problems.filter((problem) => problem.severity === 'error').length, documents: parsed.documentCount };
}

export function sameKey(a: { readonly documentIndex: number; readonly basePath: FieldPath }, b: { readonly documentIndex: number; readonly basePath: FieldPath }): boolean {
  return a.documentIndex === b.documentIndex && a.basePath.length === b.basePath.length && a.basePath.every((segment, i) => segment === b.basePath[i]);
}

/** Data as a string that ignores key order: two effective configurations are the same when these are. */
export function canonical(value: unknown): string {
  const seen = new Set<object>();
  const walk = (node: unknown): unknown => {
    if (node instanceof Date) return { $date: node.toISOString() };
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node)) return '$cycle';
    seen.add(node);
    const out = Array.isArray(node) ? node.map(walk) : Object.fromEntries(Object.keys(node).sort().map((key) => [key, walk((node as Record<string, unknown>)[key])]));
    seen.delete(node);
    return out;
  };
  return JSON.stringify(walk(value));
}
