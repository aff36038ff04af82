/**
 * Objects taken from their value (src/parse/read.ts `byValue`: positions on demand) are the
 * objects the full parse gives: the same documents, kinds, values, and every position of every
 * field path, found by parsing the document alone only when asked for (issue 23).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldPath } from '../src/field-path.js';
import { readFile, type ValueRead } from '../src/parse/read.js';
import { parseFile, type Manifest, type ParsedFile } from '../src/parse/yaml.js';
import { form, renderForm } from './yaml-forms.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');

/** Every document the fast reader reads is taken from its value (not a List: its items are the objects). */
const EVERY_DOCUMENT: ValueRead = { admits: () => true, value: (value) => !Array.isArray(value.items) };

/** Every field path written in a value, with paths that are not written below each mapping. */
function pathsOf(value: unknown, prefix: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [prefix];
  if (Array.isArray(value)) {
    value.forEach((item, index) => out.push(...pathsOf(item, [...prefix, index])));
    out.push([...prefix, value.length]);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...prefix, key]));
    out.push([...prefix, 'not-written', 'below']);
  }
  return out;
}

/** What a file's reading gives, positions included, with `compare` asked of the objects. */
function describeFile(file: ParsedFile): unknown {
  return { documentCount: file.documentCount, unparsed: file.unparsed, settled: file.settled, problems: file.problems, manifests: file.manifests.map((m) => [m.documentIndex, m.basePath, m.kind, m.apiVersion]) };
}

/** Compares a file read with objects taken from their value against the full parse; returns how many were taken from their value. */
function compareFile(path: string, text: string): number {
  const source = { path, text };
  const full = parseFile(source, { reads: () => true });
  const byValue = readFile(source, { reads: () => true, byValue: EVERY_DOCUMENT });
  expect(describeFile(byValue), path).toEqual(describeFile(full));
  // The objects parsed for their value only: those the full parse has at the same place.
  let taken = 0;
  byValue.manifests.forEach((manifest: Manifest, index) => {
    const expected = full.manifests[index]!;
    const value = manifest.toValue();
    const expectedValue = expected.toValue();
    expect(JSON.stringify(value), path).toBe(JSON.stringify(expectedValue));
    expect(manifest.startLine(), path).toBe(expected.locate([]).line);
    if (!('value' in value)) return;
    // Every field path of an ordinary object; an even sample of 600 of a large one (a CRD's schema).
    const all = pathsOf(value.value);
    const step = Math.ceil(all.length / 600);
    const paths = all.filter((_, i) => i % step === 0 || i === all.length - 1);
    const places = (of: Manifest): string[] => paths.flatMap((fieldPath) => (['pair', 'key', 'value'] as const).map((part) => `${JSON.stringify(fieldPath)} ${part} ${JSON.stringify(of.locate(fieldPath, part))}`));
    const [got, want] = [places(manifest), places(expected)];
    // One comparison per object (a CRD has thousands of paths); the first difference when they differ.
    if (got.join('\n') !== want.join('\n')) expect(got.find((place, i) => place !== want[i]), path).toBe(want.find((place, i) => place !== got[i]));
    taken++;
  });
  return taken;
}

describe('objects taken from their value, positions on demand', () => {
  it('are the objects of the full parse, every position included, on every document of the fixtures and both corpora', () => {
    const files = [
      ...yamlFiles(join(ROOT, 'fixtures')),
      ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures')),
      ...yamlFiles(join(ROOT, 'test', 'corpus')),
      ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world')),
    ];
    let taken = 0;
    for (const path of files) taken += compareFile(path, readFileSync(path, 'utf8'));
    // Most documents are in the fast reader's subset: the comparison covers them.
    expect(taken).toBeGreaterThan(500);
  }, 120_000);

  it('are the objects of the full parse in generated streams (forms of rendered manifests, other documents around them, comments, CRLF)', () => {
    let taken = 0;
    const entry = fc.tuple(fc.constantFrom('a', 'b', 'args', 'x'), form, fc.boolean());
    const documentArb = fc.tuple(fc.array(entry, { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 2), fc.boolean(), fc.constantFrom('', '# a comment\n', '\n\n'));
    fc.assert(
      fc.property(fc.array(documentArb, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(), fc.constantFrom('', '\n# trailing\n', '\n...\n'), (documents, leadingMarker, crlf, tail) => {
        const texts = documents.map(([entries, base, compact, lead]) => {
          const lines = entries.map(([key, f, inSequence], i) => {
            const pad = ' '.repeat(base);
            if (!inSequence) return `${pad}${key}${i}:${renderForm(f, base + 2)}`;
            const dash = base + (compact ? 0 : 2);
            return `${pad}${key}${i}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}`;
          });
          return `${lead}apiVersion: v1\nkind: Namespace\n${base > 0 ? 'root:\n' : ''}${lines.join('\n')}\n`;
        });
        let text = (leadingMarker ? '---\n' : '') + texts.join('---\n') + tail;
        if (crlf) text = text.replace(/\n/g, '\r\n');
        taken += compareFile('generated.yaml', text);
      }),
      { seed: 20261206, numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(1000);
  }, 60_000);

  it('give the place and value of a Namespace after another document', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\n---\n# the namespace\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels: {pod-security.kubernetes.io/enforce: restricted}\n';
    const file = readFile({ path: 'n.yaml', text }, { byValue: { admits: (document) => document.includes('Namespace'), value: (value) => value.kind === 'Namespace' } });
    expect(file.manifests.map((m) => [m.documentIndex, m.kind])).toEqual([[1, 'Namespace']]);
    const [manifest] = file.manifests;
    expect(manifest!.startLine()).toBe(5);
    expect(manifest!.locate(['metadata', 'labels', 'pod-security.kubernetes.io/enforce'])).toEqual({ line: 9, column: 12, endLine: 9, endColumn: 58, exact: true });
    expect(manifest!.toValue()).toEqual({ value: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } });
  });
});
