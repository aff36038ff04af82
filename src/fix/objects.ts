/**
 * The admission objects of one file's text, read and defaulted as `lint` and `defaults` read
 * them (src/parse/yaml.ts, src/recognize/), for planning edits and for proving them.
 */
import type { FieldPath } from '../field-path.js';
import type { PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { parseFile } from '../parse/yaml.js';
import { recognize } from '../recognize/recognize.js';

export type FixableObject = WebhookConfigurationObject | PolicyObject;

export interface FileObjects {
  readonly objects: readonly FixableObject[];
  /** Syntax errors in the file (an edit must not add one). */
  readonly errors: number;
  readonly documents: number;
}

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
