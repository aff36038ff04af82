/**
 * src/parse/simple-yaml.ts readSimplePositions writes the position index `yaml`'s parse gives
 * (src/parse/positions.ts): every node's kind, size, range and key range, on every document of the
 * fixtures and both corpora that it reads, and in written cases of each form; or it declines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseAllDocuments, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GO_YAML } from '../src/parse/go-yaml-schema.js';
import { PositionIndex } from '../src/parse/positions.js';
import { documentLines } from '../src/parse/prefilter.js';
import { readSimpleDocument, readSimplePositions } from '../src/parse/simple-yaml.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const PARSE_OPTIONS = { ...GO_YAML, prettyErrors: false, logLevel: 'error' } as const;

interface Counts {
  read: number;
  declined: number;
  /** Documents the fast reader reads without positions. */
  readable: number;
  mismatches: string[];
}

/** The index of each document of the file's own parse, by the offset of its root mapping. */
function parsedIndexes(text: string): Map<number, PositionIndex> {
  const found = new Map<number, PositionIndex>();
  const docs = parseAllDocuments(text, PARSE_OPTIONS);
  for (const doc of Array.isArray(docs) ? docs : []) {
    const range = doc.contents?.range;
    if (doc.errors.length === 0 && isMap(doc.contents) && range) found.set(range[0], PositionIndex.of(doc, doc.contents as Node));
  }
  return found;
}

function describeDifference(text: string, expected: PositionIndex, actual: { data: Int32Array; keys: readonly (string | undefined)[] }): string | undefined {
  const a = expected.records();
  if (a.data.length !== actual.data.length) return `nodes ${a.data.length / 7} vs ${actual.data.length / 7}`;
  for (let i = 0; i < a.data.length; i++) {
    if (a.data[i] !== actual.data[i]) {
      const node = Math.floor(i / 7);
      const field = ['kind', 'size', 'start', 'end', 'keyStart', 'keyEnd', 'target'][i % 7];
      const at = (offset: number) => JSON.stringify(text.slice(Math.max(0, offset - 15), offset) + '⟂' + text.slice(offset, offset + 15));
      return `node ${node} (${a.keys[node]}) ${field}: parse ${a.data[i]} ${at(a.data[i]!)} vs reader ${actual.data[i]} ${at(actual.data[i]!)}`;
    }
  }
  for (let i = 0; i < a.keys.length; i++) if (a.keys[i] !== actual.keys[i]) return `node ${i} key ${a.keys[i]} vs ${actual.keys[i]}`;
  return undefined;
}

function compareText(text: string, label: string, counts: Counts): void {
  let parsed: Map<number, PositionIndex> | undefined;
  for (const document of documentLines(text) ?? []) {
    if (document.firstContent < 0) continue;
    const documentText = text.slice(document.start, document.end);
    if (readSimpleDocument(documentText) !== undefined) counts.readable++;
    const read = readSimplePositions(documentText, document.start, text.charCodeAt(document.end) === 10);
    if (read === undefined) {
      counts.declined++;
      continue;
    }
    counts.read++;
    expect(read.value).toEqual(readSimpleDocument(documentText));
    parsed ??= parsedIndexes(text);
    const index = parsed.get(document.firstContent);
    if (index === undefined) {
      counts.mismatches.push(`${label}: the parse found no document at ${document.firstContent}`);
      continue;
    }
    const difference = describeDifference(text, index, read.positions);
    if (difference !== undefined && counts.mismatches.length < 10) counts.mismatches.push(`${label}: ${difference}`);
  }
}

function compareFiles(files: readonly string[]): Counts {
  const counts: Counts = { read: 0, declined: 0, readable: 0, mismatches: [] };
  for (const file of files) compareText(readFileSync(file, 'utf8'), file, counts);
  return counts;
}

describe('positions the fast reader writes as it reads', () => {
  it('are the parse positions of every document of the fixtures', () => {
    const result = compareFiles([...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures'))]);
    expect(result.mismatches).toEqual([]);
    // Not a reader that declines everything: nearly every document it reads, it reads with positions.
    expect(result.read).toBeGreaterThan(result.readable * 0.95);
  });

  it('are the parse positions of every document of both corpora', () => {
    const result = compareFiles([...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world'))]);
    expect(result.mismatches).toEqual([]);
    expect(result.read).toBeGreaterThan(result.readable * 0.85);
  });

  const cases: Record<string, string> = {
    'a blank line after a mapping': 'm:\n  name: x\n\nspec: 1\n',
    'a comment after a value': 'm:\n  name: x   # tail\nspec: 1\n',
    'empty values': 'm:\n  name:\nspec: 1\n',
    'an empty value with spaces': 'm:\n  name:   \n  o: 1\n',
    'an empty value with a comment': 'm:\n  name: # c\n  o: 1\n',
    'empty items': 'm:\n  - a\n  -\n  - b\n  -   # c\n',
    'a literal block scalar before a blank line': 'm:\n  name: |\n    foo\n\n  o: 1\n',
    'a stripped block scalar before blank lines': 'm:\n  name: |-\n    foo\n\n\nspec: 1\n',
    'a folded block scalar at the end': 'm:\n  name: >\n    foo\n    bar\n  o: 1',
    'a quoted scalar over lines': 'm:\n  name: "a\n    b"  # c\n  o: 1\n',
    'a single-quoted scalar over lines': "m:\n  name: 'a\n\n    b'\n  o: 1\n",
    'a plain scalar over lines': 'm:\n  name: a\n    b\n\n    c\n  o: 1\n',
    'a sequence at its key\'s indentation': 'm:\n- a\n- b\nspec: 1\n',
    'empty flow collections': 'm: []\nspec: {}\n',
    'nested flow collections': 'm: [a, {b: c, "d": [e, \'f\']}, g]   # c\np: {x: [y, {}], z: []}\n',
    'no line break at the end': 'm:\n  name: x',
    'blank lines at the end': 'm:\n  name: x\n\n',
    'items that are mappings': 'm:\n  -   name: x\n      o: 2\n  - p: [1]\n    q:\n      - r\n',
    'a null value': 'm: null\np: x\n',
    'CRLF line breaks': 'm:\r\n  name: x\r\n  e:\r\n  l:\r\n  - a\r\n',
    'quoted keys': '"m":\n  \'name\': x\n  "a b" : c\n',
    'a scalar below its key': 'm:\n  name:\n    x\n  q:\n    "y"\n',
    'a document among others': '# head\nkind: A\n---\n# comment before the root\nm:\n  n: |\n    x\n---\nk: v\n...\n',
    'CRLF documents': 'm:\r\n  a1: x\r\n---\r\np:\r\n- a\r\n- |\r\n  b\r\n---\r\nq: "r"',
    'a block scalar before a marker': 'm: |\n  x\n\n---\np: >-\n  y\n...\n',
    'a document that ends without a line break': 'm:\n  a1: [x]\n---\np: "q"',
    'an empty value with a comment before a line of spaces (s38a)': 'apiVersion: v1\nkind: # c\n   ',
    'an empty item with a comment before blank lines (s38a)': 'm:\n- a\n- # c\n\n  \np: 1\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`agree on ${name}`, () => {
      const counts: Counts = { read: 0, declined: 0, readable: 0, mismatches: [] };
      compareText(text, name, counts);
      expect(counts.mismatches).toEqual([]);
      expect(counts.read).toBe(counts.readable);
      expect(counts.read).toBeGreaterThan(0);
    });
  }

  it('leave to the parse what it reports: a key past 1024 characters, nesting past 256 levels (s38a 1, 3)', () => {
    for (const key of [`team${' '.repeat(1030)}`, `"${'a'.repeat(1030)}"`]) {
      expect(readSimpleDocument(`m:\n  ${key}: a\n`)).toBeUndefined();
      expect(readSimplePositions(`m:\n  ${key}: a\n`, 0, false)).toBeUndefined();
    }
    expect(readSimpleDocument(`m: {${'k'.repeat(1030)}: a}\n`)).toBeUndefined();
    expect(readSimpleDocument(`m:\n  ${'a'.repeat(1000)}: a\n`)).toBeDefined();
    const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' x\n';
    expect(readSimpleDocument(deep(200))).toBeDefined();
    expect(readSimpleDocument(deep(300))).toBeUndefined();
    expect(readSimpleDocument(`m: ${'['.repeat(300)}${']'.repeat(300)}\n`)).toBeUndefined();
    expect(readSimpleDocument(`m: ${'['.repeat(100)}${']'.repeat(100)}\n`)).toBeDefined();
  });

  it('leave to the parse comment lines inside the root, and anchors', () => {
    for (const text of ['m:\n  name: x\n  # c\nspec: 1\n', 'm:\n  name: x\n# c\n', 'm: &a x\np: *a\n']) {
      expect(readSimpleDocument(text)).toBeDefined();
      expect(readSimplePositions(text, 0, false)).toBeUndefined();
    }
    // Comments before the root are no one's.
    expect(readSimplePositions('# a\n# b\nm: 1\n', 0, false)).toBeDefined();
  });
});
