/**
 * src/parse/simple-yaml.ts returns exactly what `yaml` (as src/parse/yaml.ts configures it) reads,
 * or nothing: on every document of the fixtures, the upstream Pod Security fixtures, the
 * real-world corpora, and generated documents full of the scalars YAML 1.1 reads as something
 * other than strings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { psaWorkloadOf } from '../src/psa/workloads.js';
import { readSimpleDocument, SKIPPED } from '../src/parse/simple-yaml.js';
import { POD_SECURITY_UNREAD_KEYS } from '../src/psa/screen.js';
import { form, keyArb, node, render, renderForm, skippedFormDocuments } from './yaml-forms.js';
import { agrees, documentsOf, shown, yamlValue } from './yaml-compare.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
/** Generated cases are seeded, so that a failure in CI is the same in a rerun; FUZZ_SEED explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);
/** Every document of `files`: how many the simple reader read, and the first disagreement. */
function compare(files: readonly string[]): { documents: number; read: number; mismatches: string[] } {
  let documents = 0;
  let read = 0;
  const mismatches: string[] = [];
  for (const file of files) {
    for (const document of documentsOf(readFileSync(file, 'utf8'))) {
      documents++;
      const simple = readSimpleDocument(document);
      if (simple === undefined) continue;
      read++;
      const expected = yamlValue(document);
      if (expected === undefined || JSON.stringify(expected.value) !== JSON.stringify(simple)) {
        if (mismatches.length < 5) mismatches.push(`${file}: ${JSON.stringify(simple).slice(0, 200)} vs ${JSON.stringify(expected?.value ?? 'an error').slice(0, 200)}`);
      }
    }
  }
  return { documents, read, mismatches };
}

/**
 * With keys skipped: every document the reader reads in full it also reads with keys skipped, and
 * the value is yaml's but for skipped values (when yaml reads the document at all: the lines of a
 * skipped value are not checked).
 */
function compareSkipping(texts: Iterable<string>, keys: ReadonlySet<string>): { read: number; skippedSome: number; mismatches: string[] } {
  let read = 0;
  let skippedSome = 0;
  const mismatches: string[] = [];
  for (const text of texts) {
    const skipped = readSimpleDocument(text, { skip: keys });
    // (An alias of an anchor inside a skipped value cannot be resolved: then the document is declined.)
    if (readSimpleDocument(text) !== undefined && skipped === undefined && !/\*[^\s]/.test(text)) mismatches.push(`declined only when skipping: ${text.slice(0, 200)}`);
    if (skipped === undefined) continue;
    const expected = yamlValue(text);
    if (expected === undefined) continue;
    read++;
    if (shown(skipped).includes('<skipped>')) skippedSome++;
    if (!agrees(skipped, expected.value, keys) && mismatches.length < 5) mismatches.push(`${text.slice(0, 300)}\n=> ${shown(skipped).slice(0, 300)}\nvs ${shown(expected.value).slice(0, 300)}`);
  }
  return { read, skippedSome, mismatches };
}

describe('the simple YAML reader', () => {
  it('agrees with yaml on every fixture and the upstream Pod Security fixtures', () => {
    const result = compare([...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures'))]);
    expect(result.mismatches).toEqual([]);
    // It is meant for ordinary manifests: it reads most of them.
    expect(result.read / result.documents).toBeGreaterThan(0.5);
  });

  it('agrees with yaml on the real-world corpora', () => {
    const result = compare([...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world'))]);
    expect(result.mismatches).toEqual([]);
  });

  it('with keys skipped (the Pod Security screen), reads the rest exactly on the fixtures and both corpora', () => {
    const files = [...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world'))];
    const result = compareSkipping(files.flatMap((file) => documentsOf(readFileSync(file, 'utf8'))), POD_SECURITY_UNREAD_KEYS);
    expect(result.mismatches).toEqual([]);
    expect(result.skippedSome).toBeGreaterThan(100);
  });

  it('with keys skipped, agrees with yaml on generated documents of every form, skipped or read', () => {
    const texts = skippedFormDocuments(SEED, 10000);
    const result = compareSkipping(texts, new Set(['args', 'env']));
    expect(result.mismatches).toEqual([]);
    expect(result.skippedSome).toBeGreaterThan(2000);
  });

  it('with keys skipped, leaves to yaml an alias whose anchor a skipped value may redefine', () => {
    // Found by the generated cases above: `*a` names the last node anchored `a`, and that may be
    // inside a value the reader passed over (then it would give the earlier node's value).
    const text = 'a0: &a x\nenv:\n  - &a z\nb: *a\n';
    expect(yamlValue(text)?.value).toEqual({ a0: 'x', env: ['z'], b: 'z' });
    expect(readSimpleDocument(text, { skip: new Set(['env']) })).toBeUndefined();
    expect(readSimpleDocument(text)).toEqual({ a0: 'x', env: ['z'], b: 'z' });
    expect(compareSkipping([text, 'env:\n  - a&b\nk: &a x\nb: *a\n'], new Set(['env'])).mismatches).toEqual([]);
  });

  it('with keys skipped, reads as usual a skipped value with a quote or bracket its line leaves open', () => {
    // go-yaml reads a quoted scalar to its closing quote, over lines at any indentation: passing
    // over the value by indentation would read the string's lines as keys (attack s49a Y2).
    const skip = { skip: new Set(['env']) };
    // (A comment inside a flow collection hides a bracket that would close it: attack s49b Y1.)
    for (const [open, close] of [['"', '"'], ["'", "'"], ['{a: b,', '}'], ['{a: b, # }', '}'], ['[a, # ]', ']']]) {
      const text = `c:\n  env:\n    - value: ${open}hello\n  securityContext:\n    privileged: false\n  w: x${close}\n`;
      expect(readSimpleDocument(text, skip), text).toBeUndefined();
    }
    // Closed within the value, it is read (not skipped), as yaml reads it.
    const closed = 'env:\n  - name: JAVA_OPTS\n    value: "-Xms256m\n      -Xmx512m"\nlast: 1\n';
    expect(readSimpleDocument(closed, skip)).toEqual({ env: [{ name: 'JAVA_OPTS', value: '-Xms256m -Xmx512m' }], last: 1 });
    // An apostrophe inside a word opens nothing: the value is skipped.
    expect(readSimpleDocument("env:\n  - value: it's\nlast: 1\n", skip)).toEqual({ env: SKIPPED, last: 1 });
  });

  it('reads at least 95 % of the workload documents of the fixtures and both corpora without the full parse (issue 23)', () => {
    let workloads = 0;
    let read = 0;
    for (const file of [...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(join(ROOT, '..', 'shared', 'corpus', 'real-world'))]) {
      for (const document of documentsOf(readFileSync(file, 'utf8'))) {
        const expected = yamlValue(document);
        const value = expected?.value as { kind?: unknown; apiVersion?: unknown } | null | undefined;
        if (value === null || typeof value !== 'object' || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string' || psaWorkloadOf(value.kind, value.apiVersion) === undefined) continue;
        workloads++;
        if (readSimpleDocument(document) !== undefined) read++;
      }
    }
    expect(workloads).toBeGreaterThan(80);
    expect(read / workloads).toBeGreaterThanOrEqual(0.95);
  });

  it('reads what kubectl users write, and leaves the rest to yaml', () => {
    expect(readSimpleDocument('a: 1\nb: yes\nc: "x # y" # comment\nd: [1, "two", three]\ne: {k: v}\nf:\n- g: 100m\n  h:\n  - 0.5Gi\ni: ~\n')).toEqual({
      a: 1,
      b: true,
      c: 'x # y',
      d: [1, 'two', 'three'],
      e: { k: 'v' },
      f: [{ g: '100m', h: ['0.5Gi'] }],
      i: null,
    });
    // The forms nearly every rendered Deployment has (issue 23).
    expect(
      readSimpleDocument(
        'args:\n- --port=8080\n- -v\n- :9090\nscript: |\n  set -e\n  # not a comment\n\n  echo "$X" \\\n    done\nnote: >-\n  folded\n  text\n\n  para\nq: "a long\n  text, \\"quoted\\"\\tand \\\n  joined"\ns: \'it\'\'s\n\n  two\'\np: plain text\n  over lines\nmode: 0644\nm: -3\nf: 0.5\nt: {a: [b, {c: d}], e: []}\nx: &v shared\nz: *v\n',
      ),
    ).toEqual({
      args: ['--port=8080', '-v', ':9090'],
      script: 'set -e\n# not a comment\n\necho "$X" \\\n  done\n',
      note: 'folded text\npara',
      q: 'a long text, "quoted"\tand joined',
      s: "it's\ntwo",
      p: 'plain text over lines',
      mode: 420,
      m: -3,
      f: 0.5,
      t: { a: ['b', { c: 'd' }], e: [] },
      x: 'shared',
      z: 'shared',
    });
    // Numbers, dates and base-60 forms are read as go-yaml reads them (src/parse/go-yaml-schema.ts).
    for (const [text, value] of [['a: 2024-01-02\n', '2024-01-02'], ['a: 1:30\n', '1:30'], ['a: 1e3\n', 1000], ['a: 0x1F\n', 31], ['a: 0o17\n', 15], ['a: 08\n', 8], ['a: e2\n', 'e2'], ['e0: a\n', undefined]] as const) {
      expect(readSimpleDocument(text), text).toEqual(value === undefined ? { e0: 'a' } : { a: value });
    }
    for (const text of ['a: &x {b: 1}\nc: *x\n', 'a: *x\n', 'a: !!str x\n', 'a: |+\n  x\n', 'a: |2\n  x\n', 'a: >\n  x\n    y\n', 'a: [b,\n  c]\n', 'a: [b, ]\n', 'a: {b: }\n', 'a: b\na: c\n', 'a:\n\t- x\n', '- a\n', 'a: b\nc\n', '1: a\n', 'a: .inf\n', '<<: {a: 1}\n', '? a\n: b\n', 'a: "x\ny"\n', 'a: x\n---\nb: y\n', 'a: "\\q"\n', 'a: -\n', 'a:\n- - b\n']) {
      expect(readSimpleDocument(text), text).toBeUndefined();
    }
  });

  it('agrees with yaml on generated documents (nested, with the scalars YAML 1.1 reads as something else)', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, node), { minLength: 1, maxLength: 4 }), fc.boolean(), (entries, compact) => {
        const text = `${render({ t: 'map', e: entries }, 0, compact).join('\n')}\n`;
        const simple = readSimpleDocument(text);
        if (simple === undefined) return;
        read++;
        const expected = yamlValue(text);
        expect(expected, text).toBeDefined();
        expect(JSON.stringify(simple), text).toBe(JSON.stringify(expected!.value));
      }),
      { seed: SEED, numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(100);
  });

  it('agrees with yaml on generated documents of the forms rendered manifests use (block scalars, multi-line scalars, flow collections, dashes, anchors)', () => {
    let read = 0;
    const entry = fc.tuple(fc.constantFrom('a', 'b', 'c', 'args', 'x'), form, fc.boolean());
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.constantFrom(0, 2), fc.boolean(), (entries, base, compact) => {
        // Each entry is `key: form`, or `key:` with a one-item sequence `- form` (at the key's column when compact).
        const lines = entries.map(([key, f, inSequence], i) => {
          const pad = ' '.repeat(base);
          if (!inSequence) return `${pad}${key}${i}:${renderForm(f, base + 2)}`;
          const dash = base + (compact ? 0 : 2);
          return `${pad}${key}${i}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}`;
        });
        const text = `${base > 0 ? 'root:\n' : ''}${lines.join('\n')}\n`;
        const simple = readSimpleDocument(text);
        if (simple === undefined) return;
        read++;
        const expected = yamlValue(text);
        expect(expected, text).toBeDefined();
        expect(JSON.stringify(simple), text).toBe(JSON.stringify(expected!.value));
      }),
      { seed: SEED, numRuns: 20000 },
    );
    expect(read).toBeGreaterThan(2000);
  });
});
