/**
 * Positions are kept in a compact index once an object is read (src/parse/positions.ts). It must
 * answer exactly what a walk over the YAML document answers; the walk below is that reference.
 */
import fc from 'fast-check';
import { isAlias, isCollection, isMap, isScalar, isSeq, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { FieldPath } from '../src/field-path.js';
import { PositionIndex } from '../src/parse/positions.js';
import { seedTexts } from './fuzz/generators.js';

/** The walk over the document that the linter used before the index. */
function reference(doc: Document, root: Node, path: FieldPath, part: 'pair' | 'key' | 'value') {
  let node: unknown = root;
  let best: [number, number] = [root.range?.[0] ?? 0, root.range?.[1] ?? 0];
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const isLast = i === path.length - 1;
    if (isAlias(node)) node = node.resolve(doc);
    let next: unknown;
    let range: [number, number] | undefined;
    if (typeof segment === 'number' && isSeq(node)) {
      next = node.items[segment];
      const r = (next as Node | undefined)?.range;
      if (r) range = [r[0], r[1]];
    } else if (typeof segment === 'string' && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (pair) {
        next = pair.value;
        const keyRange = (pair.key as Node).range;
        const valueRange = (pair.value as Node | null)?.range;
        if (keyRange) {
          if (isLast && part === 'key') range = [keyRange[0], keyRange[1]];
          else if (isLast && part === 'value' && valueRange) range = [valueRange[0], valueRange[1]];
          else range = [keyRange[0], valueRange?.[1] ?? keyRange[1]];
        }
      }
    }
    if (range === undefined) return { start: best[0], end: best[1], exact: false };
    best = range;
    node = next;
  }
  return { start: best[0], end: best[1], exact: true };
}

/** Every path written in a value, plus paths one step past each (not written). */
function pathsOf(value: unknown, prefix: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  out.push(prefix, [...prefix, 'missing'], [...prefix, 7]);
  if (out.length > 400) return out;
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...prefix, index], out));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
  return out;
}

function documents(text: string): Document[] {
  const parsed = parseAllDocuments(text, { version: '1.1', merge: true, uniqueKeys: true });
  return (Array.isArray(parsed) ? parsed : []).filter((doc) => doc.errors.length === 0 && doc.contents !== null);
}

/** The first mapping key that is a collection, by a visit of the node (the linter's old check). */
function referenceCollectionKey(root: Node): [number, number] | undefined {
  let found: [number, number] | undefined;
  visit(root, {
    Pair(_, pair) {
      if (isCollection(pair.key) && pair.key.range) {
        found = [pair.key.range[0], pair.key.range[1]];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function expectSame(doc: Document, root: Node): void {
  const index = PositionIndex.of(doc, root);
  expect(index.collectionKey).toEqual(referenceCollectionKey(root));
  let value: unknown;
  try {
    value = root.toJS(doc, { maxAliasCount: 100 });
  } catch {
    return;
  }
  for (const path of pathsOf(value)) {
    for (const part of ['pair', 'key', 'value'] as const) expect(index.locate(path, part), JSON.stringify(path)).toEqual(reference(doc, root, path, part));
  }
}

describe('PositionIndex answers as the walk over the document does', () => {
  it('on every fixture document', () => {
    for (const text of seedTexts()) for (const doc of documents(text)) expectSame(doc, doc.contents as Node);
  });

  it('through aliases, merge keys, flow collections, null values and List items with anchors outside them', () => {
    const text = [
      'base: &base {a: 1, b: [x, y]}',
      'kind: List',
      'items:',
      '  - *base',
      '  - name: n',
      '    ref: *base',
      '    <<: *base',
      '    empty:',
      '    list: [1, null, 3]',
      '    nested: {k: [{deep: v}]}',
      '    ? complex',
      '    : value',
      '    42: number key',
      '    on: yes',
    ].join('\n');
    const [doc] = documents(text);
    expectSame(doc!, doc!.contents as Node);
    const items = (doc!.contents as unknown as { get(k: string, keep: true): { items: Node[] } }).get('items', true).items;
    for (const item of items) expectSame(doc!, (isAlias(item) ? item.resolve(doc!) : item) as Node);
    // An alias inside an item whose anchor is outside it.
    const index = PositionIndex.of(doc!, items[1]!);
    expect(index.locate(['ref', 'b', 1], 'pair')).toEqual(reference(doc!, items[1]!, ['ref', 'b', 1], 'pair'));
    expect(index.locate(['ref', 'b', 1], 'pair').exact).toBe(true);
  });

  it('finds the first collection key as a visit of the node does (unrendered placeholders)', () => {
    const cases = [
      'caBundle: {{caBundle}}\n',
      'a: 1\nb:\n  - {{x}}: 1\n  - c: {[y]: 2}\n',
      '? [k]\n: v\nz: {{late}}\n',
      '? \n: {[inside]: 1}\n',
      'plain: map\n',
    ];
    for (const text of cases) {
      const parsed = parseAllDocuments(text, { version: '1.1' });
      for (const doc of Array.isArray(parsed) ? parsed : []) expect(PositionIndex.of(doc, doc.contents as Node).collectionKey, text).toEqual(referenceCollectionKey(doc.contents as Node));
    }
    const [doc] = parseAllDocuments('caBundle: {{caBundle}}\n', { version: '1.1' }) as Document[];
    expect(PositionIndex.of(doc!, doc!.contents as Node).collectionKey).toEqual([11, 21]);
  });

  it('on generated documents', () => {
    const scalar = fc.oneof(fc.constantFrom('a', 'b', 'name', '42', 'on', '"q"', "'s'", ''), fc.integer().map(String));
    const yamlValue: fc.Arbitrary<string> = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, tie('flowMap'), tie('flowSeq')),
      flowMap: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', '1'), tie('value')), { maxLength: 4 }).map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
      flowSeq: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    })).value as fc.Arbitrary<string>;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), yamlValue), { minLength: 1, maxLength: 5 }), (pairs) => {
        const text = pairs.map(([k, v], i) => `${k}${i}: ${v}`).join('\n');
        for (const doc of documents(text)) expectSame(doc, doc.contents as Node);
      }),
      { seed: 20261203, numRuns: 300 },
    );
  });
});
