/**
 * The one entry to reading a file's documents: it decides how much reading each document needs,
 * and the text of a document goes one way, from the cheapest step to the dearest:
 *
 * 1. its text (src/parse/prefilter.ts): a document whose text names no kind the caller reads
 *    (`reads`) is counted and never parsed;
 * 2. its value (src/parse/simple-yaml.ts, no positions): a document the caller can settle from
 *    its value alone (`settle`: a workload that passes its namespace's Pod Security levels has no
 *    finding, so it needs no positions) is read by the fast reader and not parsed;
 * 3. the full parse with positions (src/parse/yaml.ts) for every other document: those the fast
 *    reader declines, and those whose value does not settle them.
 *
 * Files are first skimmed on their bytes (src/parse/prefilter.ts skimBytes) by src/engine/load-run.ts;
 * what is left comes here.
 */
import type { SourceFile } from '../load/sources.js';
import type { Settled } from './prefilter.js';
import { readSimpleDocument } from './simple-yaml.js';
import { parseFile, type ParsedFile } from './yaml.js';

export type { Settled } from './prefilter.js';

/** Which documents a value may settle, and what it settles. */
export interface ValueSettle {
  /** Of the documents `reads` wants, those worth reading for their value, from their text (a cheap test, asked first). */
  readonly admits: (documentText: string) => boolean;
  /** `read` (taken in full from the value, counted), `other` (not a kind the caller reads), or undefined: parse it. */
  readonly value: (value: Readonly<Record<string, unknown>>) => Settled | undefined;
}

export interface DocumentReads {
  /** The documents to read at all, from their text (default: those that may be a kind the linter reads). */
  readonly reads?: (documentText: string) => boolean;
  readonly settle?: ValueSettle;
}

/** What a document's value settles, when the fast reader reads it and the caller's test admits it. */
export function settleDocument(documentText: string, settle: ValueSettle): Settled | undefined {
  if (!settle.admits(documentText)) return undefined;
  const value = readSimpleDocument(documentText);
  return value === undefined ? undefined : settle.value(value);
}

/** A file's documents, each read as far as it needs (above); `settled` counts those read in full from their value. */
export function readFile(source: SourceFile, options: DocumentReads = {}): ParsedFile {
  const { reads, settle } = options;
  return parseFile(source, { ...(reads !== undefined ? { reads } : {}), ...(settle !== undefined ? { settle: (text: string) => settleDocument(text, settle) } : {}) });
}
