/**
 * Text edits at known places in a YAML file, for `lint --fix` (src/fix/). The file is never
 * re-serialised: each edit inserts, replaces or removes characters at offsets that `yaml`'s
 * node ranges give, so comments, key order, quoting, flow or block style, indentation, line
 * endings and the other documents stay as they were. Where a place cannot be edited that way
 * (an alias, an anchored node that other places share, an empty map, a key already written),
 * no edit is made.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar, type Document, type Node, type Pair } from 'yaml';
import type { FieldPath } from '../field-path.js';
import { parseAsGoYaml } from './go-yaml-schema.js';

/** Replace `text.slice(start, end)` with `text` (start === end: an insertion). */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A file's documents, parsed as src/parse/yaml.ts parses them (YAML 1.1, merge keys), with their source ranges. */
export interface EditableFile {
  readonly text: string;
  readonly documents: readonly Document[];
}

/** `parseText`: the text to parse, when some documents are blanked at the same offsets (src/parse/prefilter.ts); edits read `text`. */
export function editableFile(text: string, parseText: string = text): EditableFile {
  return { text, documents: parseAsGoYaml(parseText, { logLevel: 'silent' }) };
}

/** The document's text, for checks on it (placeholders). */
export function documentText(file: EditableFile, documentIndex: number): string | undefined {
  const doc = file.documents[documentIndex];
  if (!doc?.range) return undefined;
  return file.text.slice(doc.range[0], doc.range[2]);
}

/** Anchors that an alias names somewhere in the document: editing such a node edits every place that uses it. */
function aliasedAnchors(doc: Document): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (isAlias(node)) names.add(node.source);
    else if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (item && typeof item === 'object' && 'key' in item) {
          walk((item as Pair).key);
          walk((item as Pair).value);
        } else walk(item);
      }
    }
  };
  walk(doc.contents);
  return names;
}

/**
 * The node at `path`, or undefined when the path leads through an alias, a shared anchor, or
 * nowhere. Map keys must be plain scalars equal to the segment.
 */
function nodeAt(doc: Document, path: FieldPath): Node | undefined {
  if (doc.errors.length > 0) return undefined;
  const shared = aliasedAnchors(doc);
  let node: unknown = doc.contents;
  for (const segment of path) {
    if (isAlias(node)) return undefined;
    if ((isMap(node) || isSeq(node) || isScalar(node)) && node.anchor !== undefined && shared.has(node.anchor)) return undefined;
    if (typeof segment === 'number') {
      if (!isSeq(node)) return undefined;
      node = node.items[segment];
    } else {
      if (!isMap(node)) return undefined;
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === segment);
      if (pair === undefined) return undefined;
      node = pair.value;
    }
  }
  if (isAlias(node) || node === null || node === undefined) return undefined;
  if ((isMap(node) || isSeq(node) || isScalar(node)) && node.anchor !== undefined && shared.has(node.anchor)) return undefined;
  return node as Node;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of the line break that ends the line holding `offset` (text.length when the line is the last). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline < 0) return text.length;
  return newline > 0 && text[newline - 1] === '\r' ? newline - 1 : newline;
}

/** The file's line break: CRLF when its first line ends so. */
export function lineBreakOf(text: string): string {
  const newline = text.indexOf('\n');
  return newline > 0 && text[newline - 1] === '\r' ? '\r\n' : '\n';
}

/** A value written for YAML 1.1 and JSON alike: plain where that reads back as the same string, else double-quoted. */
export function yamlValue(value: unknown, json: boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => yamlValue(item, json)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${json ? JSON.stringify(key) : yamlValue(key, false)}: ${yamlValue(item, json)}`).join(', ')}}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  if (json || !/^[A-Za-z][A-Za-z0-9.\-/]*$/.test(text) || /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/.test(text)) return JSON.stringify(text);
  return text;
}

const INLINE_SCALARS = new Set([Scalar.PLAIN, Scalar.QUOTE_DOUBLE, Scalar.QUOTE_SINGLE]);

/**
 * Adds `key: value` to the map at `path`: in a block map, on its own line after the first pair
 * when that pair is one line (so `name:` stays first), else before the first key at its
 * indentation; in a flow map, before the first key. Undefined when the map cannot be edited so.
 */
export function insertPair(file: EditableFile, documentIndex: number, path: FieldPath, key: string, value: unknown): TextEdit | undefined {
  const doc = file.documents[documentIndex];
  if (doc === undefined) return undefined;
  const map = nodeAt(doc, path);
  if (!isMap(map) || map.items.length === 0) return undefined;
  if (map.items.some((item) => isScalar(item.key) && item.key.value === key)) return undefined;
  const first = map.items[0]!;
  if (!isScalar(first.key) || !first.key.range) return undefined;
  const text = file.text;
  const keyStart = first.key.range[0];
  if (map.flow) {
    const json = first.key.type === Scalar.QUOTE_DOUBLE;
    return { start: keyStart, end: keyStart, text: `${json ? JSON.stringify(key) : key}: ${yamlValue(value, json)}, ` };
  }
  const indent = keyStart - lineStart(text, keyStart);
  const eol = lineBreakOf(text);
  const pair = `${key}: ${yamlValue(value, false)}`;
  const firstValue = first.value;
  if (isScalar(firstValue) && firstValue.range && firstValue.type !== undefined && INLINE_SCALARS.has(firstValue.type) && !text.slice(keyStart, firstValue.range[1]).includes('\n')) {
    const at = lineEnd(text, firstValue.range[1]);
    return { start: at, end: at, text: `${eol}${' '.repeat(indent)}${pair}` };
  }
  return { start: keyStart, end: keyStart, text: `${pair}${eol}${' '.repeat(indent)}` };
}

/** Replaces the scalar at `path` with `value` written as text; undefined when it is not a one-line scalar. */
export function replaceScalar(file: EditableFile, documentIndex: number, path: FieldPath, value: string): TextEdit | undefined {
  const doc = file.documents[documentIndex];
  if (doc === undefined) return undefined;
  const node = nodeAt(doc, path);
  if (!isScalar(node) || !node.range || node.type === undefined || !INLINE_SCALARS.has(node.type)) return undefined;
  if (file.text.slice(node.range[0], node.range[1]).includes('\n')) return undefined;
  return { start: node.range[0], end: node.range[1], text: value };
}

/** Whether the scalar at `path` is written as a plain (unquoted) scalar. */
export function isPlainScalarAt(file: EditableFile, documentIndex: number, path: FieldPath): boolean {
  const doc = file.documents[documentIndex];
  const node = doc === undefined ? undefined : nodeAt(doc, path);
  return isScalar(node) && node.type === Scalar.PLAIN;
}

/**
 * Removes the item at `path` from its list: a block item's whole line(s), or a flow item with
 * its comma. Undefined when it is the only item (an empty list means something else) or not a
 * one-line scalar.
 */
export function removeItem(file: EditableFile, documentIndex: number, path: FieldPath): TextEdit | undefined {
  const doc = file.documents[documentIndex];
  const index = path[path.length - 1];
  if (doc === undefined || typeof index !== 'number') return undefined;
  const seq = nodeAt(doc, path.slice(0, -1));
  if (!isSeq(seq) || seq.items.length < 2) return undefined;
  const item = seq.items[index];
  if (!isScalar(item) || !item.range || item.type === undefined || !INLINE_SCALARS.has(item.type)) return undefined;
  const text = file.text;
  const [start, end] = item.range;
  if (text.slice(start, end).includes('\n')) return undefined;
  if (seq.flow) {
    const next = seq.items[index + 1];
    if (isScalar(next) && next.range) return { start, end: next.range[0], text: '' };
    const previous = seq.items[index - 1];
    if (isScalar(previous) && previous.range) return { start: previous.range[1], end, text: '' };
    return undefined;
  }
  const from = lineStart(text, start);
  if (!/^[ \t]*-[ \t]+$/.test(text.slice(from, start))) return undefined;
  const after = text.slice(end, lineEnd(text, end));
  if (!/^[ \t]*(?:#.*)?$/.test(after)) return undefined;
  const newline = text.indexOf('\n', end);
  return { start: from, end: newline < 0 ? text.length : newline + 1, text: '' };
}
