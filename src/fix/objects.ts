/**
 * The admission objects of one file's text, read and defaulted as `lint` and `defaults` read
 * them (src/parse/yaml.ts, src/recognize/), for planning edits and for proving them.
 */
import type { FieldPath } from '../field-path.js';
import type { PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { prefilter } from '../parse/prefilter.js';
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

export function readObjects(path: string, text: string): FileObjects {
  const parsed = parseFile({ path, text }, { reads: mayBeAdmission });
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
