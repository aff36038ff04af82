/**
 * The one entry to reading a file's documents: it decides how much reading each document needs,
 * and the text of a document goes one way, from the cheapest step to the dearest:
 *
 * 1. its text (src/parse/prefilter.ts): a document whose text names no kind the caller reads
 *    (`reads`) is counted and never parsed;
 * 2. its value (src/parse/simple-yaml.ts, no positions): a document the caller can settle from
 *    its value alone (`settle`: a workload that passes its namespace's Pod Security levels has no
 *    finding, so it needs no positions) is read by the fast reader and not parsed;
 * 3. its value, positions on demand: a document the caller takes from its value (`byValue`: a
 *    Namespace) is read by the fast reader and becomes an object like any other, but its document
 *    is parsed only if a position in it is asked for (a finding, a suppression), and then alone;
 *    or, for the documents `byValue.positions` names (admission objects), with the positions the
 *    fast reader writes as it reads, never parsed;
 * 4. the full parse with positions (src/parse/yaml.ts) for every other document: those the fast
 *    reader declines, and those whose value does not settle them.
 *
 * Files are first skimmed on their bytes (src/parse/prefilter.ts skimBytes) by src/engine/load-run.ts;
 * what is left comes here.
 */
import type { SourceFile } from '../load/sources.js';
import type { Settled } from './prefilter.js';
import type { PositionRecords } from './position-records.js';
import { readCommonDocument } from './common-yaml.js';
import { readSimpleDocument, readSimplePositions } from './simple-yaml.js';
import { mayHoldAlias, parseFile, type ParsedFile } from './yaml.js';

export type { Settled } from './prefilter.js';

/** Which documents a value may settle, and what it settles. */
export interface ValueSettle {
  /** Of the documents `reads` wants, those worth reading for their value, from their text (a cheap test, asked first). */
  readonly admits: (documentText: string) => boolean;
  /** `read` (taken in full from the value, counted), `other` (not a kind the caller reads), or undefined: parse it. */
  readonly value: (value: Readonly<Record<string, unknown>>) => Settled | undefined;
  /** Keys `value` never looks at, at any depth: their values are not read (src/parse/simple-yaml.ts ReadOptions). */
  readonly skip?: ReadonlySet<string>;
}

/** Which documents are taken from their value, their positions found only when asked for. */
export interface ValueRead {
  /** Those worth reading for their value, from their text (a cheap test, asked first). */
  readonly admits: (documentText: string) => boolean;
  /** Whether the object is taken from this value (`positioned`: read with its positions). */
  readonly value: (value: Readonly<Record<string, unknown>>, positioned: boolean) => boolean;
  /**
   * Of those admitted, the documents whose positions the fast reader writes as it reads them
   * (objects that nearly always have a finding): they are never parsed. One it cannot read so is
   * parsed (not taken from its value).
   */
  readonly positions?: (documentText: string) => boolean;
}

export interface DocumentReads {
  /** The documents to read at all, from their text (default: those that may be a kind the linter reads). */
  readonly reads?: (documentText: string) => boolean;
  readonly settle?: ValueSettle;
  /** Of the documents `reads` wants and `settle` does not settle, those taken from their value. */
  readonly byValue?: ValueRead;
}

/** What a document's value settles, when the fast reader reads it and the caller's test admits it. */
export function settleDocument(documentText: string, settle: ValueSettle): Settled | undefined {
  if (!settle.admits(documentText)) return undefined;
  const options = settle.skip === undefined ? {} : { skip: settle.skip };
  const value = readCommonDocument(documentText, options) ?? readSimpleDocument(documentText, options);
  return value === undefined ? undefined : settle.value(value);
}

/**
 * The value of a document taken from its value, when the fast reader reads it and the caller
 * takes it. A document that may hold an alias is parsed: `yaml` limits how many it expands
 * (src/parse/yaml.ts reports the document then), which the fast reader does not count.
 */
export function documentValue(documentText: string, byValue: ValueRead, start: number, lineBreakAfter: boolean): { value: Readonly<Record<string, unknown>>; positions?: PositionRecords } | undefined {
  if (!byValue.admits(documentText) || mayHoldAlias(documentText)) return undefined;
  let read;
  try {
    read = byValue.positions?.(documentText) === true ? readSimplePositions(documentText, start, lineBreakAfter) : { value: readSimpleDocument(documentText) };
  } catch (error) {
    // Nested past the stack: the full parse reports the document (TOO_DEEP).
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  return read?.value !== undefined && byValue.value(read.value, read.positions !== undefined) ? (read as { value: Readonly<Record<string, unknown>>; positions?: PositionRecords }) : undefined;
}

/** A file's documents, each read as far as it needs (above); `settled` counts those read in full from their value. */
export function readFile(source: SourceFile, options: DocumentReads = {}): ParsedFile {
  const { reads, settle, byValue } = options;
  return parseFile(source, {
    ...(reads !== undefined ? { reads } : {}),
    ...(settle !== undefined ? { settle: (text: string) => settleDocument(text, settle) } : {}),
    ...(byValue !== undefined ? { byValue: (text: string, start: number, lineBreakAfter: boolean) => documentValue(text, byValue, start, lineBreakAfter) } : {}),
  });
}
