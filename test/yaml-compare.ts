/**
 * What the fast readers' tests (test/simple-yaml.test.ts, test/common-yaml.test.ts) compare
 * with: `yaml`'s value of a document, as src/parse/yaml.ts configures it, and a comparison that
 * lets skipped values (SKIPPED) stand for any value.
 */
import { parseAllDocuments } from 'yaml';
import { GO_YAML } from '../src/parse/go-yaml-schema.js';
import { documentLines } from '../src/parse/prefilter.js';
import { SKIPPED } from '../src/parse/simple-yaml.js';

const PARSE_OPTIONS = { ...GO_YAML, prettyErrors: false, logLevel: 'error' } as const;

/** What `yaml` reads from one document's text: its value, or undefined when it reports an error (or cannot resolve an alias). */
export function yamlValue(text: string): { value: unknown } | undefined {
  const documents = parseAllDocuments(text, PARSE_OPTIONS);
  if (!Array.isArray(documents) || documents.length !== 1) return undefined;
  const [document] = documents;
  if (document!.errors.length > 0) return undefined;
  try {
    return { value: document!.toJS({ maxAliasCount: 100 }) };
  } catch {
    return undefined;
  }
}

/** The documents of a file's text, as the prefilter's line scan splits them. */
export function documentsOf(text: string): string[] {
  const lines = documentLines(text);
  return lines === undefined ? [] : lines.map((document) => text.slice(document.start, document.end));
}

/** A value with SKIPPED (which JSON leaves out) written as a string, to compare. */
export function shown(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item === SKIPPED ? '<skipped>' : item));
}

/** Whether a reader's value (`read`) is `expected` but for values of `keys` it left SKIPPED. */
export function agrees(read: unknown, expected: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(read)) return Array.isArray(expected) && read.length === expected.length && read.every((item, i) => agrees(item, expected[i], keys));
  if (read === null || typeof read !== 'object') return Object.is(read, expected);
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return false;
  const readKeys = Object.keys(read);
  const expectedRecord = expected as Record<string, unknown>;
  if (readKeys.join('\0') !== Object.keys(expectedRecord).join('\0')) return false;
  return readKeys.every((key) => {
    const item = (read as Record<string, unknown>)[key];
    return (item === SKIPPED && keys.has(key)) || agrees(item, expectedRecord[key], keys);
  });
}
