/**
 * Most documents in a repository are Deployments, Services and ConfigMaps that the linter never
 * reads. Building a YAML document for each is most of the run's time and memory, so documents
 * whose text cannot be one of the kinds we read are recognised from their text and not parsed.
 *
 * The test is conservative: a document is parsed when its text contains the name of a kind we
 * read anywhere (not just after `kind:`), or anything that could spell such a name without
 * writing it (an escape in a double-quoted string, an escaped line break). A file that contains
 * a suppression directive, a YAML directive (`%YAML`) or content on a `---` line is parsed whole.
 */
import type { PositionRecords } from './position-records.js';
import { isUtf8 } from 'node:buffer';

/**
 * Every kind the linter reads contains one of these (see src/model/recognize.ts): webhook
 * configurations, admission policies and their bindings, Namespaces, CRDs (for discovery), and
 * Lists of any of them; and every object of the admission group has its apiVersion (a kind the
 * group never had is reported: rule unknown-kind).
 */
const READ_KIND_NAMES = ['WebhookConfiguration', 'AdmissionPolicy', 'Namespace', 'CustomResourceDefinition', 'List', 'admissionregistration.k8s.io/'];
const READ_KIND_PARTS = new RegExp(READ_KIND_NAMES.join('|'));
/**
 * Every kind that carries a pod (src/model/types.ts WORKLOAD_KINDS) contains one of these: `Pod`
 * (and PodTemplate), `Job` (and CronJob). Workloads are read only where a Pod Security level
 * other than privileged can apply (src/engine/load-run.ts); they are never read otherwise.
 */
export const WORKLOAD_KIND_NAMES = ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController'] as const;
const WORKLOAD_KIND_PARTS = new RegExp(WORKLOAD_KIND_NAMES.join('|'));
/**
 * `"\x57ebhook…"`, `"\u0057…"`, a line break escaped inside a double-quoted string, or a
 * `!!binary` scalar (base64 that sigs.k8s.io/yaml decodes to the kind's name).
 */
const SPELLED_OTHERWISE = /\\[xuU]|\\\r?\n|binary/;
/** SPELLED_OTHERWISE.test, the pattern tried only on a text with a backslash (a search for one character is many times quicker). */
function spelledOtherwise(text: string): boolean {
  return text.includes('\\') ? SPELLED_OTHERWISE.test(text) : text.includes('binary');
}
/**
 * What every suppression comment starts with (src/engine/suppressions.ts). A file holding one
 * must be seen by the suppression checks (unused-suppression), so it is parsed whole.
 */
export const SUPPRESSION_MARK = 'admission-lint-';
const MARKER_LINE = /^(?:---|\.\.\.)/m;

export type Prefiltered =
  /** Parse the text as it is. */
  | { readonly mode: 'all' }
  /** Nothing to parse: every document is of a kind the linter does not read, or settled from its value. */
  | { readonly mode: 'none'; readonly documents: number; readonly skipped: number; readonly settled?: number; readonly values?: readonly ValueDocument[] }
  /**
   * Parse `text`: the file with the documents we do not read blanked out, at the same offsets
   * (each becomes `~`, a null, followed by spaces; line breaks stay), so positions, document
   * indexes and the document count are those of the original file.
   */
  | { readonly mode: 'masked'; readonly text: string; readonly documents: number; readonly skipped: number; readonly blanked: readonly number[]; readonly settled?: number; readonly values?: readonly ValueDocument[] };

/**
 * A document taken from its value (src/parse/read.ts): blanked like the documents not read, but
 * an object all the same, whose positions are found only if something asks for them.
 */
export interface ValueDocument {
  /** Its index in the stream. */
  readonly index: number;
  /** Its text: [start, end) of the file's text. */
  readonly start: number;
  readonly end: number;
  /** The offset of its first content character. */
  readonly firstContent: number;
  readonly value: Readonly<Record<string, unknown>>;
  /** Its nodes' positions, when the fast reader wrote them as it read it (then it is never parsed). */
  readonly positions?: PositionRecords;
}

/**
 * What reading a document's value (src/parse/simple-yaml.ts, without positions) settled, when it
 * did: `read`, an object the caller took in full from the value (it is counted as read:
 * `settled`); `other`, a document of a kind the caller does not read. Undefined: the document
 * needs the full parse. Given by src/parse/read.ts.
 */
export type Settled = 'read' | 'other';
export type Settle = (documentText: string) => Settled | undefined;
/** The value of a document that the caller takes from its value, positions on demand (src/parse/read.ts); undefined: parse it. */
export type ValueOf = (documentText: string, start: number, lineBreakAfter: boolean) => { readonly value: Readonly<Record<string, unknown>>; readonly positions?: PositionRecords } | undefined;

/** A document of the stream, as line-based offsets into the text. */
interface DocumentLines {
  /** Where the masking may start: after the `---` marker, or at the first content line. */
  readonly start: number;
  /** Where the document's last line ends (before the next marker or after its `...`). */
  end: number;
  /** The offset of the first content character, or -1 for a document without content. */
  firstContent: number;
}

/** The text or bytes being scanned; documents are found the same way in both. */
interface Scanned {
  readonly length: number;
  codeAt(index: number): number;
  /** The next line feed at or after `from`, or -1. */
  lineFeedFrom(from: number): number;
  /** The line feed before the next line at or after `from` that starts with `---`, `...` or `%`, or -1. */
  markerLineFrom(from: number): number;
}

/** The first content character of [from, to), or -1 when the line is blank or a comment. */
function contentStart(scanned: Scanned, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = scanned.codeAt(i);
    // space, tab, carriage return, BOM
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) continue;
    return c === 35 /* # */ ? -1 : i;
  }
  return -1;
}

/** `---` or `...` at the start of the line, followed by a blank or the end of the line. */
function isMarker(scanned: Scanned, at: number, lineEnd: number, char: number): boolean {
  if (scanned.codeAt(at) !== char || scanned.codeAt(at + 1) !== char || scanned.codeAt(at + 2) !== char) return false;
  if (at + 3 >= lineEnd) return true;
  const next = scanned.codeAt(at + 3);
  return next === 32 || next === 9 || next === 13;
}

/**
 * The documents of a YAML stream as `yaml` counts them: an explicit `---` starts one; content
 * outside a document starts one; `...` ends one (and, outside a document, is an empty one).
 * Returns undefined for a stream this line scan cannot follow safely (directives, content on a
 * marker line), which is then parsed in full. Scans by character: this runs on every file.
 */
function scanDocuments(scanned: Scanned, from = 0): DocumentLines[] | undefined {
  const documents: DocumentLines[] = [];
  let open: DocumentLines | undefined;
  let lineStart = from;
  while (lineStart <= scanned.length) {
    let lineEnd = scanned.lineFeedFrom(lineStart);
    if (lineEnd < 0) lineEnd = scanned.length;
    if (scanned.codeAt(lineStart) === 37 /* % */) return undefined;
    if (isMarker(scanned, lineStart, lineEnd, 45 /* - */)) {
      if (contentStart(scanned, lineStart + 3, lineEnd) >= 0) return undefined;
      open = { start: lineStart + 3, end: lineEnd, firstContent: -1 };
      documents.push(open);
    } else if (isMarker(scanned, lineStart, lineEnd, 46 /* . */)) {
      // Content after `...` is a syntax error of the full parse's to report (s38a 2): the whole text is parsed.
      if (contentStart(scanned, lineStart + 3, lineEnd) >= 0) return undefined;
      if (open === undefined) documents.push({ start: lineStart, end: lineStart, firstContent: -1 });
      open = undefined;
    } else {
      if (open !== undefined && open.firstContent >= 0) {
        // Inside a document with content, only a marker or directive line changes anything: every
        // line up to it is the document's.
        const next = scanned.markerLineFrom(lineStart);
        open.end = next < 0 ? scanned.length : next;
        if (next < 0) break;
        lineStart = next + 1;
        continue;
      }
      const at = contentStart(scanned, lineStart, lineEnd);
      if (at >= 0) {
        if (open === undefined) {
          open = { start: lineStart, end: lineEnd, firstContent: at };
          documents.push(open);
        } else if (open.firstContent < 0) open.firstContent = at;
      }
      if (open !== undefined) open.end = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  return documents;
}

export function documentLines(text: string): DocumentLines[] | undefined {
  return scanDocuments({
    length: text.length,
    codeAt: (i) => text.charCodeAt(i),
    lineFeedFrom: (from) => text.indexOf('\n', from),
    markerLineFrom: firstOfNeedles((needle, from) => text.indexOf(MARKER_NEEDLES[needle]!, from), MARKER_NEEDLES.length),
  });
}

/**
 * The first of several needles at or after `from`, or -1. Each needle's last position is kept:
 * the scans ask with growing `from`, and searching every needle to the end of the text for each
 * document would make a stream of many small documents quadratic (s38e 3: 60,000 documents, 70 s).
 */
function firstOfNeedles(search: (needleIndex: number, from: number) => number, needles: number): (from: number) => number {
  // -2: not searched yet; -1: absent from the last search's start on.
  const found = new Array<number>(needles).fill(-2);
  let lastFrom = 0;
  return (from) => {
    if (from < lastFrom) found.fill(-2);
    lastFrom = from;
    let first = -1;
    for (let i = 0; i < needles; i++) {
      if (found[i] === -2 || (found[i]! >= 0 && found[i]! < from)) found[i] = search(i, from);
      const at = found[i]!;
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    return first;
  };
}

const MARKER_NEEDLES = ['\n---', '\n...', '\n%'];

/**
 * A document that may be a v1 Service (src/engine/load-run.ts reads them only in inputs that hold
 * a webhook configuration). Escapes that could spell the kind are caught by `mightBeRead`.
 */
export function mightBeService(text: string): boolean {
  return text.includes('Service');
}

/** A document that may be a NetworkPolicy (read where Services are). */
export function mightBeNetworkPolicy(text: string): boolean {
  return text.includes('NetworkPolicy');
}

/**
 * Whether a document may be a Secret with a private key in the clear: its kind is named. Its
 * values are not searched here: a base64 value may be split across lines (a `|` block), which
 * no search for the encoded text survives.
 */
export function mightHoldPrivateKey(text: string): boolean {
  return text.includes('Secret');
}

const WEBHOOK_CONFIGURATION_BYTES = Buffer.from('WebhookConfiguration');
const SERVICE_BYTES = Buffer.from('Service');

/** Whether a file's bytes may hold a Service (its kind spelled out; escapes are caught by mightBeRead's readers). */
export function bytesMayHoldService(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(SERVICE_BYTES);
}

const NETWORK_POLICY_BYTES = Buffer.from('NetworkPolicy');

/** Whether a file's bytes may hold a NetworkPolicy (its kind spelled out). */
export function bytesMayHoldNetworkPolicy(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(NETWORK_POLICY_BYTES);
}

/**
 * A network plugin's own policy kinds (CiliumNetworkPolicy, GlobalNetworkPolicy and a
 * NetworkPolicy of another group, AdminNetworkPolicy…): `…NetworkPolicy` after a letter, or a
 * NetworkPolicy of another group than networking.k8s.io. They may let the API server in where
 * the Kubernetes policies do not; the linter does not read them.
 */
const OTHER_NETWORK_POLICY = /[A-Za-z]NetworkPolicy|apiVersion:\s*["']?(?!networking\.k8s\.io\/)[^\s"']*\/[^\s"']*["']?\s*\n\s*kind:\s*["']?NetworkPolicy|kind:\s*["']?NetworkPolicy["']?\s*\n\s*apiVersion:\s*["']?(?!networking\.k8s\.io\/)/;

/** Whether a file's bytes may hold a network plugin's own policy (see OTHER_NETWORK_POLICY). */
export function bytesMayHoldOtherNetworkPolicy(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.includes(NETWORK_POLICY_BYTES) && OTHER_NETWORK_POLICY.test(buffer.toString('latin1'));
}

/** Whether a file's bytes name a webhook configuration's kind: then its Services are read too. */
export function bytesNameWebhookConfiguration(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(WEBHOOK_CONFIGURATION_BYTES);
}

const KIND_PART_BYTES = [...READ_KIND_NAMES, SUPPRESSION_MARK, 'binary'].map((part) => Buffer.from(part));
const WORKLOAD_PART_BYTES = WORKLOAD_KIND_NAMES.map((part) => Buffer.from(part));
const BACKSLASH = 92;
/** After a backslash: x, u, U, line feed, carriage return (see SPELLED_OTHERWISE). */
const ESCAPE_LETTERS = new Set([120, 117, 85, 10, 13]);

/**
 * The same decision as `prefilter`, made on a file's bytes before they are decoded: most files
 * of a repository are then never turned into a string at all. Returns the document counts for a
 * file of UTF-8 text with nothing in it to read, and undefined for every other file (decode it,
 * then `prefilter` the text).
 */
export function skimBytes(bytes: Uint8Array, options: { readonly workloads?: boolean } = {}): { readonly documents: number; readonly skipped: number } | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const part of KIND_PART_BYTES) if (buffer.includes(part)) return undefined;
  if (options.workloads === true) for (const part of WORKLOAD_PART_BYTES) if (buffer.includes(part)) return undefined;
  if (mayHoldEscape(buffer)) return undefined;
  // Not UTF-8: decoding reports it. (Bytes are only compared with ASCII below, so multi-byte
  // characters cannot look like markers.)
  if (!isUtf8(buffer)) return undefined;
  const bom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return countDocuments(buffer, bom);
}

const BINARY = Buffer.from('binary');

/** An escape that could spell a kind's (or a namespace's) name: see SPELLED_OTHERWISE. */
function mayHoldEscape(buffer: Buffer): boolean {
  for (let at = buffer.indexOf(BACKSLASH); at >= 0; at = buffer.indexOf(BACKSLASH, at + 1)) {
    if (ESCAPE_LETTERS.has(buffer[at + 1] ?? -1)) return true;
  }
  return false;
}

/**
 * Whether a file's bytes may hold a workload in one of `namespaces` (undefined: in any
 * namespace): a workload kind's name, and a namespace's name or an escape or `!!binary` that could
 * spell one. Conservative like skimBytes: false means no document of the file can be such a
 * workload, whatever YAML makes of it.
 */
export function bytesMayHoldWorkload(bytes: Uint8Array, namespaces: NamespaceNames | readonly string[] | undefined): boolean {
  const found = workloadBytes(bytes);
  return found !== 'none' && (found === 'spelled' || namespaces === undefined || namespacesIn(bytes, namespaces));
}

/**
 * What a file's bytes say of workloads: `none` (no document can be one), `named` (a workload
 * kind's name is there), `spelled` (an escape or `!!binary` could spell one, and a namespace's
 * name): see bytesMayHoldWorkload.
 */
export function workloadBytes(bytes: Uint8Array): 'none' | 'named' | 'spelled' {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.includes(BINARY) || mayHoldEscape(buffer)) return 'spelled';
  return WORKLOAD_PART_BYTES.some((part) => buffer.includes(part)) ? 'named' : 'none';
}

const NAMESPACE_KEY = Buffer.from('namespace');

function isLabelByte(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45; // a-z 0-9 -
}

/**
 * The values of every `namespace:` key in a file (metadata.namespace, a Service reference's
 * namespace, …), read from the bytes; undefined when one is written in a way this scan does not
 * follow (a nested value, an alias, a block scalar, a value that is no namespace name). With
 * `workloadBytes` not `spelled`, a document in namespace N holds `namespace: N` in one of the
 * forms this scan reads (or names no namespace): a document whose namespace is not among these
 * values cannot be in N. Keys that only end in `namespace` (`x-namespace:`) are other keys. An
 * explicit key (`? namespace`) gives undefined: its value is not on its line.
 */
export function namespaceValues(bytes: Uint8Array): string[] | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Set<string>();
  for (let at = buffer.indexOf(NAMESPACE_KEY); at >= 0; at = buffer.indexOf(NAMESPACE_KEY, at + 1)) {
    const before = at > 0 ? buffer[at - 1]! : 10;
    if (isLabelByte(before) || (before >= 65 && before <= 90) || before === 95 || before === 46) continue;
    let i = at + NAMESPACE_KEY.length;
    if (buffer[i] === 34 || buffer[i] === 39) i++; // the key's closing quote
    while (buffer[i] === 32 || buffer[i] === 9) i++;
    if (buffer[i] !== 58) {
      // An explicit key (`? namespace`, its value on the next `:` line): kubectl reads it, this
      // scan does not follow it, so it cannot say which namespaces the file names.
      let back = at - 1;
      if (buffer[back] === 34 || buffer[back] === 39) back--;
      while (buffer[back] === 32 || buffer[back] === 9) back--;
      if (buffer[back] === 63 /* ? */) return undefined;
      continue; // not a key: `namespaceSelector`, `metadata.namespace` in a fieldPath
    }
    i++;
    while (buffer[i] === 32 || buffer[i] === 9) i++;
    const quote = buffer[i] === 34 || buffer[i] === 39 ? buffer[i] : undefined;
    if (quote !== undefined) i++;
    const start = i;
    while (i < buffer.length && isLabelByte(buffer[i]!)) i++;
    const value = buffer.toString('latin1', start, i);
    if (quote !== undefined) {
      if (buffer[i] !== quote) return undefined;
      i++;
    }
    while (buffer[i] === 32 || buffer[i] === 9) i++;
    const next = buffer[i];
    if (!(next === undefined || next === 10 || next === 13 || next === 35 || next === 44 || next === 125)) return undefined;
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(value)) return undefined;
    values.add(value);
  }
  return [...values];
}

/**
 * Namespace names, prepared once for the searches below (a labelled run asks them of every file,
 * with the same few hundred names).
 */
export class NamespaceNames {
  readonly set: ReadonlySet<string>;
  /** The names grouped by their first characters (byPrefix). */
  readonly groups: ReadonlyMap<string, readonly string[]>;

  constructor(readonly names: readonly string[]) {
    this.set = new Set(names);
    this.groups = byPrefix(names);
  }
}

function prepared(names: NamespaceNames | readonly string[]): NamespaceNames {
  return names instanceof NamespaceNames ? names : new NamespaceNames(names);
}

/**
 * Whether an object in the bytes (not `spelled`: see workloadBytes) may be in one of the
 * namespaces: one of its `namespace:` keys holds one of the names, or, where namespaceValues cannot
 * tell the keys' values, the bytes hold one of the names anywhere.
 */
export function namespacesIn(bytes: Uint8Array, namespaces: NamespaceNames | readonly string[]): boolean {
  const names = prepared(namespaces);
  // The values of the `namespace:` keys answer (each of hundreds of names searched for in every
  // file was most of a labelled repository's run): an object in N holds `namespace: N`.
  const values = namespaceValues(bytes);
  if (values !== undefined) return values.some((value) => names.set.has(value));
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return someNameIn(names.groups, (part) => buffer.includes(part));
}

/** Names grouped by their first characters: a text without a group's prefix holds none of its names. */
function byPrefix(names: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const prefix = name.slice(0, 4);
    const group = groups.get(prefix);
    if (group === undefined) groups.set(prefix, [name]);
    else group.push(name);
  }
  return groups;
}

/** Whether `holds` one of the names: each group's prefix is looked for first (hundreds of names share a few). */
function someNameIn(groups: ReadonlyMap<string, readonly string[]>, holds: (part: string) => boolean): boolean {
  for (const [prefix, group] of groups) if (holds(prefix) && group.some((name) => name === prefix || holds(name))) return true;
  return false;
}

/**
 * The documents to parse for workloads (see bytesMayHoldWorkload): those whose text names a
 * workload kind and one of `namespaces` (or could spell one); with `namespaces` undefined, every
 * document that names a workload kind.
 */
export function workloadDocuments(namespaces: NamespaceNames | readonly string[] | undefined): (documentText: string) => boolean {
  if (namespaces === undefined) return mightBeWorkload;
  const { set: names, groups } = prepared(namespaces);
  // The value of a `namespace:` key that is one of the names answers at once (hundreds of names
  // tested one by one against every document were most of a labelled repository's run).
  const named = (text: string): boolean => {
    NAMESPACE_VALUE.lastIndex = 0;
    for (let match = NAMESPACE_VALUE.exec(text); match !== null; match = NAMESPACE_VALUE.exec(text)) if (names.has(match[1]!)) return true;
    return someNameIn(groups, (part) => text.includes(part));
  };
  return (text) => spelledOtherwise(text) || (WORKLOAD_KIND_PARTS.test(text) && named(text));
}

/** A `namespace:` key's value, as written in block or flow style (quoted or not): a candidate name, found in the text. */
const NAMESPACE_VALUE = /namespace["']?[ \t]*:[ \t]*["']?([a-z0-9][-a-z0-9]*)/g;

/** Whether a document's text names a workload kind (or could spell one): a workload in any namespace. */
export function mightBeWorkload(text: string): boolean {
  return WORKLOAD_KIND_PARTS.test(text) || spelledOtherwise(text);
}

const MARKER_NEEDLE_BYTES = MARKER_NEEDLES.map((needle) => Buffer.from(needle));

/**
 * What scanDocuments counts (documents, and those with content), without visiting every line:
 * inside a document that already has content, only the next `---`, `...` or `%` line can change
 * the count, and Buffer.indexOf finds it. This runs on nearly every file of a repository.
 */
export function countDocuments(buffer: Buffer, from = 0): { readonly documents: number; readonly skipped: number } | undefined {
  const scanned: Scanned = {
    length: buffer.length,
    codeAt: (i) => buffer[i] ?? -1,
    lineFeedFrom: (at) => buffer.indexOf(10, at),
    markerLineFrom: firstOfNeedles((needle, from) => buffer.indexOf(MARKER_NEEDLE_BYTES[needle]!, from), MARKER_NEEDLES.length),
  };
  let documents = 0;
  let withContent = 0;
  let open = false;
  let hasContent = false;
  let lineStart = from;
  while (lineStart <= buffer.length) {
    let lineEnd = buffer.indexOf(10, lineStart);
    if (lineEnd < 0) lineEnd = buffer.length;
    if (buffer[lineStart] === 37 /* % */) return undefined;
    if (isMarker(scanned, lineStart, lineEnd, 45 /* - */)) {
      if (contentStart(scanned, lineStart + 3, lineEnd) >= 0) return undefined;
      documents++;
      open = true;
      hasContent = false;
    } else if (isMarker(scanned, lineStart, lineEnd, 46 /* . */)) {
      if (!open) documents++;
      open = false;
    } else if (!open || !hasContent) {
      if (contentStart(scanned, lineStart, lineEnd) >= 0) {
        if (!open) documents++;
        open = true;
        hasContent = true;
        withContent++;
      }
    } else {
      // Nothing before the next marker or directive line can change the counts.
      const next = scanned.markerLineFrom(lineEnd);
      lineStart = (next < 0 ? buffer.length : next) + 1;
      continue;
    }
    lineStart = lineEnd + 1;
  }
  return { documents, skipped: withContent };
}

export function mightBeRead(text: string): boolean {
  return READ_KIND_PARTS.test(text) || spelledOtherwise(text);
}

/**
 * Which documents of `text` to parse: those `reads` may want (by default, those that may be a
 * kind we read), the others blanked; with `settle`, also those a wanted document's value settles
 * (src/parse/read.ts), counted in `settled` when they were read in full; with `byValue`, also
 * those taken from their value (`values`: objects whose positions are found on demand).
 */
export function prefilter(text: string, reads: (documentText: string) => boolean = mightBeRead, settle?: Settle, byValue?: ValueOf): Prefiltered {
  if (text.includes(SUPPRESSION_MARK)) return { mode: 'all' };
  let whole = reads(text);
  let settled = 0;
  const marked = MARKER_LINE.test(text);
  // A single document (no marker line) that may be read: nothing to blank, no need to scan.
  if (whole && !marked && settle !== undefined) {
    const answer = settle(text);
    if (answer !== undefined) {
      whole = false;
      if (answer === 'read') settled = 1;
    }
  }
  if (whole && !marked && byValue === undefined) return { mode: 'all' };
  // Nothing in it is read: a line scan that only counts documents is enough.
  const documents = documentLines(text);
  if (documents === undefined) return { mode: 'all' };
  const withContent = documents.filter((document) => document.firstContent >= 0);
  const counts = settled > 0 ? { settled } : {};
  if (!whole) return { mode: 'none', documents: documents.length, skipped: withContent.length, ...counts };
  const values: ValueDocument[] = [];
  const blank = withContent.filter((document) => {
    const documentText = text.slice(document.start, document.end);
    if (!reads(documentText)) return true;
    const answer = settle?.(documentText);
    if (answer === 'read') settled++;
    if (answer !== undefined) return true;
    const read = byValue?.(documentText, document.start, text.charCodeAt(document.end) === 10);
    if (read === undefined) return false;
    values.push({ index: documents.indexOf(document), start: document.start, end: document.end, firstContent: document.firstContent, ...read });
    return true;
  });
  const settledCounts = settled > 0 ? { settled } : {};
  const valueParts = values.length > 0 ? { values } : {};
  const skipped = blank.length - values.length;
  // With another test than the default (workloads, some of which need no parse), or documents
  // taken from their value: when the whole text passes but none of its documents needs the
  // parse, there is nothing to parse. (The default keeps its decisions as they are: skimBytes
  // makes the same ones on the bytes.)
  if ((reads !== mightBeRead || settle !== undefined || values.length > 0) && blank.length > 0 && blank.length === withContent.length) return { mode: 'none', documents: documents.length, skipped, ...settledCounts, ...valueParts };
  const blanked = blank.map((document) => documents.indexOf(document));
  if (blank.length === 0) return { mode: 'all' };
  const pieces: string[] = [];
  let at = 0;
  for (const document of blank) {
    pieces.push(text.slice(at, document.firstContent), '~');
    pieces.push(text.slice(document.firstContent + 1, document.end).replace(/[^\n]+/g, (run) => ' '.repeat(run.length)));
    at = document.end;
  }
  pieces.push(text.slice(at));
  // Text before the first content character of a blanked document (a comment after `---`) is kept:
  // it cannot hold content, and keeping it leaves the masked text the same length.
  return { mode: 'masked', text: pieces.join(''), documents: documents.length, skipped, blanked, ...settledCounts, ...valueParts };
}
