/**
 * src/parse/simple-positions.ts gives the offsets `yaml`'s parse gives (src/parse/positions.ts),
 * or nothing: for every path of mapping keys in every document the fast reader reads, in the
 * fixtures, the upstream Pod Security fixtures and both corpora, and in written cases of each form
 * it reads or declines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseAllDocuments, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { FieldPath } from '../src/field-path.js';
import { GO_YAML } from '../src/parse/go-yaml-schema.js';
import { PositionIndex } from '../src/parse/positions.js';
import { documentLines } from '../src/parse/prefilter.js';
import { locateSimple } from '../src/parse/simple-positions.js';
import { readSimpleDocument } from '../src/parse/simple-yaml.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const PARSE_OPTIONS = { ...GO_YAML, prettyErrors: false, logLevel: 'error' } as const;
const PARTS = ['pair', 'key', 'value'] as const;

/** The document's positions as src/parse/yaml.ts finds them: its text parsed alone, offsets shifted. */
function parsedPositions(text: string, start: number, end: number, firstContent: number): PositionIndex | undefined {
  const markerEnd = text.indexOf('\n', end + 1);
  const alone = text.slice(start, markerEnd < 0 ? text.length : markerEnd);
  const doc = parseAllDocuments(alone, PARSE_OPTIONS);
  const found = (Array.isArray(doc) ? doc : []).find((candidate) => candidate.errors.length === 0 && isMap(candidate.contents) && candidate.contents.range[0] === firstContent - start);
  return found === undefined ? undefined : PositionIndex.of(found, found.contents as Node, start);
}

/** Every path of string keys in a value: to its scalars and to its collections. */
function paths(value: unknown, prefix: FieldPath = []): FieldPath[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...paths(item, [...prefix, key])]);
}

/** A span's end as src/parse/yaml.ts toSpan reads it: trailing white space is not in the span. */
function trimmedEnd(text: string, start: number, end: number): number {
  let at = Math.min(end, text.length);
  while (at > start && /\s/.test(text[at - 1]!)) at--;
  return at;
}

/** Compares every path of every document the fast reader reads in `text`. */
function compareText(text: string, label: string, counts: { located: number; declined: number; mismatches: string[] }): void {
  for (const document of documentLines(text) ?? []) {
    if (document.firstContent < 0) continue;
    const value = readSimpleDocument(text.slice(document.start, document.end));
    if (value === undefined) continue;
    const index = parsedPositions(text, document.start, document.end, document.firstContent);
    if (index === undefined) {
      counts.mismatches.push(`${label}: the parse found no document where the reader read one`);
      continue;
    }
    // A key of one mapping asked of another that lacks it: the parse gives the closest field, the scan nothing.
    const everyKey = new Set(paths(value).map((path) => path[path.length - 1] as string));
    for (const path of [[], ...paths(value)]) {
      const mapping = path.reduce<unknown>((item, key) => (item as Record<string, unknown>)[key as string], value);
      if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping)) continue;
      for (const key of everyKey) {
        if (Object.hasOwn(mapping, key)) continue;
        if (locateSimple(text, document.firstContent, document.end, [...path, key], 'pair') !== undefined && counts.mismatches.length < 5) {
          counts.mismatches.push(`${label} ${JSON.stringify([...path, key])}: found where it is not written`);
        }
      }
    }
    for (const path of paths(value)) {
      for (const part of PARTS) {
        const simple = locateSimple(text, document.firstContent, document.end, path, part);
        if (simple === undefined) {
          counts.declined++;
          continue;
        }
        counts.located++;
        const parsed = index.locate(path, part);
        const same = parsed.exact && parsed.start === simple.start && trimmedEnd(text, parsed.start, parsed.end) === trimmedEnd(text, simple.start, simple.end);
        if (!same && counts.mismatches.length < 5) {
          counts.mismatches.push(`${label} ${JSON.stringify(path)} ${part}: ${JSON.stringify(text.slice(simple.start, simple.end))} vs ${JSON.stringify(text.slice(parsed.start, parsed.end))}`);
        }
      }
    }
  }
}

function compareFiles(files: readonly string[]): { located: number; declined: number; mismatches: string[] } {
  const counts = { located: 0, declined: 0, mismatches: [] as string[] };
  for (const file of files) compareText(readFileSync(file, 'utf8'), file, counts);
  return counts;
}

describe('positions from the lines of a document the fast reader read', () => {
  it('are the parse positions on every path of the fixtures', () => {
    const result = compareFiles([...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures'))]);
    expect(result.mismatches).toEqual([]);
    // The scalars on their keys' lines are most paths: the scan is not a path that always declines.
    expect(result.located).toBeGreaterThan(result.declined);
  });

  it('are the parse positions on every path of both corpora', () => {
    const result = compareFiles([...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world'))]);
    expect(result.mismatches).toEqual([]);
    expect(result.located).toBeGreaterThan(1000);
  });

  const cases: Record<string, string> = {
    'a comment after a value': 'metadata:\n  name: x   # the name\n  labels:\n    a: "b"  # quoted\n',
    'quoted keys and values': 'metadata:\n  "name": \'it\'\'s\'\n  labels:\n    "pod-security.kubernetes.io/enforce": "restricted"\n',
    'a `#` inside a value': 'metadata:\n  name: a#b\n  annotations:\n    note: "a # b"\n    other: x #y\n',
    'CRLF line breaks': 'metadata:\r\n  name: x\r\n  labels:\r\n    a: b\r\n',
    'a space before the colon': 'metadata :\n  name : x\n  labels:\n    a:    b\n',
    'a sequence at its key\'s indentation before the key asked for': 'spec:\n  items:\n  - a: 1\n    b: 2\n  - c\n  name: x\n',
    'a scalar over several lines': 'metadata:\n  name: a\n    b\n  other: "c\n    d"\n  last: |\n    e\n',
    'blank lines and comment lines between keys': 'metadata:\n\n  # a comment\n  name: x\n\n  labels:\n\n    # another\n    a: b\n',
    'an indented root': '  metadata:\n    name: x\n    labels:\n      a: b\n',
    'empty values and flow values': 'metadata:\n  name:\n  labels: {}\n  annotations: {a: b}\n  finalizers: []\n',
    'keys YAML 1.1 reads as something else': 'metadata:\n  labels:\n    "on": x\n    "yes": y\n    off2: z\n',
    'a document after a marker': 'kind: A\n---\n# head\nmetadata:\n  name: x # c\n...\n',
    'a key of a later mapping': 'metadata:\n  labels:\n    a: b\nspec:\n  name: x\n  template:\n    metadata:\n      name: y\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`agree on ${name}`, () => {
      const counts = { located: 0, declined: 0, mismatches: [] as string[] };
      compareText(text, name, counts);
      expect(counts.mismatches).toEqual([]);
      expect(counts.located + counts.declined).toBeGreaterThan(0);
    });
  }

  it('decline what is not a scalar on its key\'s line, and paths with list indices', () => {
    const text = 'metadata:\n  name: a\n    b\n  labels:\n    a: b\n  block: |\n    x\nspec:\n  items:\n  - a\n';
    const [document] = documentLines(text)!;
    const at = (path: FieldPath, part: 'pair' | 'key' | 'value' = 'pair') => locateSimple(text, document!.firstContent, document!.end, path, part);
    expect(at(['metadata', 'name'])).toBeUndefined();
    expect(at(['metadata', 'labels'])).toBeUndefined();
    expect(at(['metadata', 'block'])).toBeUndefined();
    expect(at(['spec', 'items', 0])).toBeUndefined();
    expect(at(['metadata', 'missing'])).toBeUndefined();
    expect(at([])).toBeUndefined();
    expect(at(['metadata', 'labels', 'a'])).toEqual({ start: text.indexOf('a: b'), end: text.indexOf('a: b') + 4 });
    expect(at(['metadata', 'labels'], 'key')).toEqual({ start: text.indexOf('labels'), end: text.indexOf('labels') + 6 });
  });
});
