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
import { documentLines } from '../src/parse/prefilter.js';
import { readSimpleDocument, SKIPPED } from '../src/parse/simple-yaml.js';
import { POD_SECURITY_UNREAD_KEYS } from '../src/psa/screen.js';
import { form, keyArb, node, render, renderForm } from './yaml-forms.js';
import { yamlFiles } from './yaml-files.js';

const ROOT = join(import.meta.dirname, '..');
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);

function documentsOf(text: string): string[] {
  const lines = documentLines(text);
  return lines === undefined ? [] : lines.map((document) => text.slice(document.start, document.end));
}

/** A value with SKIPPED written as a string, to compare. */
function shown(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item === SKIPPED ? '<skipped>' : item));
}

/** Every text the common reader reads, with and without keys skipped, it reads as simple-yaml.ts does. */
function compare(texts: Iterable<string>, skip: ReadonlySet<string> | undefined): { documents: number; read: number; mismatches: string[] } {
  let documents = 0;
  let read = 0;
  const mismatches: string[] = [];
  const options = skip === undefined ? {} : { skip };
  for (const text of texts) {
    documents++;
    const common = readCommonDocument(text, options);
    if (common === undefined) continue;
    read++;
    const simple = readSimpleDocument(text, options);
    if (simple === undefined || shown(common) !== shown(simple)) {
      if (mismatches.length < 5) mismatches.push(`${text.slice(0, 300)}\n=> ${shown(common).slice(0, 300)}\nvs ${simple === undefined ? 'declined' : shown(simple).slice(0, 300)}`);
    }
  }
  return { documents, read, mismatches };
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
    const entry = fc.tuple(fc.constantFrom('a', 'args', 'env'), form, fc.boolean());
    const texts: string[] = [];
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.constantFrom(0, 2), fc.boolean(), (entries, base, compact) => {
        const lines = entries.map(([key, f, inSequence], i) => {
          const pad = ' '.repeat(base);
          const name = key === 'a' ? `a${i}` : i === entries.findIndex(([other]) => other === key) ? key : `${key}${i}`;
          if (!inSequence) return `${pad}${name}:${renderForm(f, base + 2)}`;
          const dash = base + (compact ? 0 : 2);
          return `${pad}${name}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}\n${pad}after${i}: x`;
        });
        texts.push(`${base > 0 ? 'root:\n' : ''}${lines.join('\n')}\nlast: 1\n`);
      }),
      { seed: SEED, numRuns: 20000 },
    );
    const skipping = compare(texts, new Set(['args', 'env']));
    expect(skipping.mismatches).toEqual([]);
    expect(skipping.read).toBeGreaterThan(2000);
    expect(compare(texts, undefined).mismatches).toEqual([]);
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
    for (const text of ['a:\tb\n', 'a: b\r\n', '"a": b\n', 'a: &x b\n', 'a: *x\n', 'a: !!str b\n', 'a: |\n  b\n', 'a: >\n  b\n', 'a: b\n  c\n', 'a:\n  b\n', 'a: [b,\n  c]\n', 'a: b\na: c\n', 'constructor: x\n', '- a\n', 'a: b\n---\nc: d\n', '%YAML 1.1\na: b\n', 'a: b: c\n', 'a: -\n', 'y: 1\n']) {
      expect(readCommonDocument(text), text).toBeUndefined();
    }
    // What it reads, with the value simple-yaml.ts gives.
    const text = 'a: 8080\nb: "x # y" # c\nc: [1, {d: e}]\nlist:\n- --port=8080\n- name: nn\n  value: \'it\'\'s\'\nq: "two\n  lines"\nnothing:\nz: 0644\nw: 123456789012345678\n';
    expect(readCommonDocument(text)).toEqual(readSimpleDocument(text));
    expect(readCommonDocument(text)).toEqual({ a: 8080, b: 'x # y', c: [1, { d: 'e' }], list: ['--port=8080', { name: 'nn', value: "it's" }], q: 'two lines', nothing: null, z: 420, w: 123456789012345680 });
    // A skipped value is passed over by indentation, or read where a line leaves a quote open.
    const skip = { skip: new Set(['env']) };
    expect(readCommonDocument('env:\n  - name: X\n    value: |\n      echo "$(date)" && [ -f x ]\nlast: 1\n', skip)).toEqual({ env: SKIPPED, last: 1 });
    // (A line that may leave one open is read, and a block scalar there is left to simple-yaml.ts.)
    expect(readCommonDocument('env:\n  - name: X\n    value: |\n      a: "b\nlast: 1\n', skip)).toBeUndefined();
    expect(readCommonDocument('env:\n  - name: X\n    value: "a\n      b"\nlast: 1\n', skip)).toEqual({ env: [{ name: 'X', value: 'a b' }], last: 1 });
  });
});
