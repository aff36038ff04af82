/**
 * src/parse/common-yaml.ts reads a subset of what src/parse/simple-yaml.ts reads, to the very
 * same value (SKIPPED included, with keys skipped), and declines the rest: on every document of
 * the fixtures and both corpora, on generated documents of every form, and on the GitOps
 * repository `npm run bench` measures, which it reads whole (issue 23).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCommonDocument } from '../src/parse/common-yaml.js';
import { readSimpleDocument, SKIPPED } from '../src/parse/simple-yaml.js';
import { POD_SECURITY_UNREAD_KEYS } from '../src/psa/screen.js';
import { form, keyArb, node, render, renderForm, skippedFormDocuments } from './yaml-forms.js';
import { agrees, documentsOf, shown, yamlValue } from './yaml-compare.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);

/**
 * Every text the common reader reads, with and without keys skipped, it reads as simple-yaml.ts
 * does (a skipped value may be SKIPPED where simple-yaml.ts reads it), where simple-yaml.ts reads
 * it at all, and as `yaml` does (but for skipped values) where `yaml` reads it.
 */
function compare(texts: Iterable<string>, skip: ReadonlySet<string> | undefined): { documents: number; read: number; skimmed: number; mismatches: string[] } {
  let documents = 0;
  let read = 0;
  let skimmed = 0;
  const mismatches: string[] = [];
  const keys = skip ?? new Set<string>();
  const options = skip === undefined ? {} : { skip };
  for (const text of texts) {
    documents++;
    const common = readCommonDocument(text, options);
    if (common === undefined) continue;
    read++;
    const simple = readSimpleDocument(text, options);
    const expected = yamlValue(text);
    // (What simple-yaml.ts declines it may read: a skipped value it passes over by its structure.)
    const wrong = (simple !== undefined && !agrees(common, simple, keys)) || (expected !== undefined && !agrees(common, expected.value, keys));
    if (simple !== undefined && shown(common) !== shown(simple)) skimmed++;
    if (wrong && mismatches.length < 5) mismatches.push(`${text.slice(0, 300)}\n=> ${shown(common).slice(0, 300)}\nvs ${simple === undefined ? 'declined' : shown(simple).slice(0, 300)}\nyaml ${expected === undefined ? 'error' : shown(expected.value).slice(0, 300)}`);
  }
  return { documents, read, skimmed, mismatches };
}

const SHARED = join(ROOT, '..', 'shared', 'corpus', 'real-world');

describe('the common YAML reader', () => {
  const files = [...yamlFiles(join(ROOT, 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'psa', 'fixtures')), ...yamlFiles(join(ROOT, 'test', 'corpus')), ...yamlFiles(SHARED)];
  const documents = files.flatMap((file) => documentsOf(readFileSync(file, 'utf8')));

  it('reads as simple-yaml.ts every document of the fixtures and both corpora it reads, keys skipped or not', () => {
    const whole = compare(documents, undefined);
    expect(whole.mismatches).toEqual([]);
    const skipping = compare(documents, POD_SECURITY_UNREAD_KEYS);
    expect(skipping.mismatches).toEqual([]);
    // It is meant for the commonest manifests: it reads many of them.
    expect(whole.read / whole.documents).toBeGreaterThan(0.4);
  });

  it('reads as simple-yaml.ts generated nested documents full of YAML 1.1 scalars', () => {
    const texts: string[] = [];
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, node), { minLength: 1, maxLength: 4 }), fc.boolean(), (entries, compact) => {
        texts.push(`${render({ t: 'map', e: entries }, 0, compact).join('\n')}\n`);
      }),
      { seed: SEED, numRuns: 5000 },
    );
    const result = compare(texts, undefined);
    expect(result.mismatches).toEqual([]);
    expect(result.read).toBeGreaterThan(100);
    expect(compare(texts, new Set(['a', 'name'])).mismatches).toEqual([]);
  });

  it('reads as simple-yaml.ts generated documents of every form rendered manifests use, keys skipped or read', () => {
    const texts = skippedFormDocuments(SEED, 20000);
    const skipping = compare(texts, new Set(['args', 'env']));
    expect(skipping.mismatches).toEqual([]);
    expect(skipping.read).toBeGreaterThan(2000);
    expect(compare(texts, undefined).mismatches).toEqual([]);
  });

  it('passes over skipped values by their structure as yaml reads them: forms nested in items and mappings', () => {
    // A skipped value's lines: items holding keys whose values are of every form, nested
    // mappings, plain and block scalars whose text holds quotes and brackets, then a key read.
    const shape = fc.constantFrom('item', 'nested', 'plain-item', 'compact');
    const texts: string[] = [];
    fc.assert(
      fc.property(fc.array(fc.tuple(shape, form, form), { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 2), (parts, base) => {
        const pad = ' '.repeat(base);
        const lines = parts.map(([kind, first, second], i) => {
          if (kind === 'item') return `${pad}  - name: n${i}\n${pad}    value:${renderForm(first, base + 4)}\n${pad}    other:${renderForm(second, base + 4)}`;
          if (kind === 'nested') return `${pad}  - name: n${i}\n${pad}    valueFrom:\n${pad}      key:${renderForm(first, base + 6)}\n${pad}  - k${i}:${renderForm(second, base + 4)}`;
          if (kind === 'plain-item') return `${pad}  -${renderForm(first, base + 2)}\n${pad}  -${renderForm(second, base + 2)}`;
          return `${pad}- name: c${i}\n${pad}  value:${renderForm(first, base + 2)}`;
        });
        texts.push(`${base > 0 ? 'root:\n' : ''}${pad}env:\n${lines.join('\n')}\n${pad}securityContext:\n${pad}  privileged: true\nlast: 1\n`);
      }),
      { seed: SEED, numRuns: 10000 },
    );
    const result = compare(texts, new Set(['env']));
    expect(result.mismatches).toEqual([]);
    expect(result.read).toBeGreaterThan(1000);
    expect(result.skimmed).toBeGreaterThan(200);
  });

  it('reads every workload of the GitOps repository the benchmark measures, as simple-yaml.ts does', async () => {
    // The forms of issue 23's repository (`- --port=8080`, block scalars under skipped keys,
    // multi-line quoted env values, nested flow collections): the fast path must cover them.
    const { writeGitops } = (await import(join(ROOT, 'bench', 'corpus.mjs'))) as { writeGitops: (root: string, options: { files: number; seed: number; labels: boolean }) => unknown };
    const dir = mkdtempSync(join(tmpdir(), 'common-yaml-'));
    try {
      writeGitops(dir, { files: 400, seed: 20240601, labels: true });
      const workloads = yamlFiles(dir)
        .flatMap((file) => documentsOf(readFileSync(file, 'utf8')))
        .filter((text) => /^kind: (?:Deployment|StatefulSet|DaemonSet|Job|CronJob|Pod)$/m.test(text));
      expect(workloads.length).toBeGreaterThan(300);
      const result = compare(workloads, POD_SECURITY_UNREAD_KEYS);
      expect(result.mismatches).toEqual([]);
      expect(result.read).toBe(workloads.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('declines what it leaves to simple-yaml.ts', () => {
    // Spaces YAML reads as text (no-break, ideographic): JavaScript's trim would take them (attack s50a).
    for (const text of ['a: {drop\u00a0: [ALL]}\n', 'drop:\n- ALL\u00a0\n', 'a: "x"\u00a0\n', 'a: [x]\u3000\n', 'a: b:\u00a0\n']) {
      expect(readCommonDocument(text), JSON.stringify(text)).toBeUndefined();
      expect(readSimpleDocument(text), JSON.stringify(text)).toBeUndefined();
    }
    for (const text of ['a:\tb\n', 'a: b\r\n', '"a": b\n', 'a: &x b\n', 'a: *x\n', 'a: !!str b\n', 'a: |\n  b\n', 'a: >\n  b\n', 'a: b\n  c\n', 'a:\n  b\n', 'a: [b,\n  c]\n', 'a: b\na: c\n', 'constructor: x\n', '- a\n', 'a: b\n---\nc: d\n', '%YAML 1.1\na: b\n', 'a: b: c\n', 'a: -\n', 'y: 1\n']) {
      expect(readCommonDocument(text), text).toBeUndefined();
    }
    // What it reads, with the value simple-yaml.ts gives.
    const text = 'a: 8080\nb: "x # y" # c\nc: [1, {d: e}]\nlist:\n- --port=8080\n- name: nn\n  value: \'it\'\'s\'\nq: "two\n  lines"\nnothing:\nz: 0644\nw: 123456789012345678\n';
    expect(readCommonDocument(text)).toEqual(readSimpleDocument(text));
    expect(readCommonDocument(text)).toEqual({ a: 8080, b: 'x # y', c: [1, { d: 'e' }], list: ['--port=8080', { name: 'nn', value: "it's" }], q: 'two lines', nothing: null, z: 420, w: 123456789012345680 });
    // A skipped value is passed over by indentation, or by its structure where a line may leave a
    // quote or bracket open: a block scalar's text, a quoted scalar over lines.
    const skip = { skip: new Set(['env']) };
    expect(readCommonDocument('env:\n  - name: X\n    value: |\n      echo "$(date)" && [ -f x ]\nlast: 1\n', skip)).toEqual({ env: SKIPPED, last: 1 });
    expect(readCommonDocument('env:\n  - name: X\n    value: |\n      a: "b\nlast: 1\n', skip)).toEqual({ env: SKIPPED, last: 1 });
    expect(readCommonDocument('env:\n  - name: X\n    value: "a\n  b: c\n      d"\nlast: 1\n', skip)).toEqual({ env: SKIPPED, last: 1 });
    expect(readCommonDocument("env:\n  - name: X\n    value: a 'b\n      c\n  privileged: true\nlast: 1\n", skip)).toEqual({ env: SKIPPED, last: 1 });
    // kubectl reads a quoted scalar to its closing quote, over lines at any indentation: the
    // lines that look like keys are the string's (kubectl: value "hello securityContext: …").
    expect(readCommonDocument('c:\n  env:\n    - value: "hello\n  securityContext:\n    privileged: true\n  w: x"\n', skip)).toEqual({ c: { env: SKIPPED } });
    expect(readCommonDocument("c:\n  env:\n    - value: 'it''s\n  securityContext:\n    privileged: true\n  w: x'\n  last: 1\n", skip)).toEqual({ c: { env: SKIPPED, last: 1 } });
    // What kubectl refuses in a skipped value is left to the full parse to report, as simple-yaml.ts
    // leaves it (attack s50b R1): `: ` in a plain scalar's line, an unknown escape, text under a
    // comment that ended a block scalar.
    for (const text of ['env:\n- name: A\n  value: a "b\n    c: d\nhostNetwork: true\n', 'env:\n- name: A\n  value: "a\\q\n    b"\nhostNetwork: true\n', 'env: |\n\n   \'] #*a\n #\'\n   :  x"\nlast: 1\n']) {
      expect(readCommonDocument(text, skip), text).toBeUndefined();
    }
    expect(readCommonDocument('env:\n- name: A\n  value: "a\\/\\x41\\\\q\n    b"\nlast: 1\n', skip)).toEqual({ env: SKIPPED, last: 1 });
    // Where its structure is not told (a scalar below its key), the value is read as usual.
    expect(readCommonDocument('env:\n  "a\n  b"\nlast: 1\n', skip)).toBeUndefined();
  });
});
