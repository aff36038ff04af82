/**
 * The fast readers (src/parse/simple-yaml.ts, src/parse/common-yaml.ts) give the value kubectl reads, where they read: the
 * generated forms of test/yaml-forms.ts in a custom object's spec, decoded by kubectl
 * (`kubectl annotate --local -f FILE … -o json`, as `kubectl apply` reads the file), compared with
 * the reader's value on every document the reader reads. Skipped where kubectl is not installed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCommonDocument } from '../src/parse/common-yaml.js';
import { readSimpleDocument, SKIPPED } from '../src/parse/simple-yaml.js';
import { hasKubectl, kubectlRead, type KubectlRead } from './kubectl-read.js';
import { form, renderForm } from './yaml-forms.js';

/** JSON with object keys sorted (kubectl prints Go maps sorted). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
}

/** A document's text and the value a fast reader gave. */
interface ReadDocument {
  readonly text: string;
  readonly value: Record<string, unknown>;
}

/** Writes each document to a file of its own in a new folder and has kubectl read them all (one call). */
function kubectlReads(documents: readonly ReadDocument[], prefix: string): { file: string; value: Record<string, unknown>; kubectl: KubectlRead }[] {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const files = documents.map(({ text, value }, index) => {
    const file = join(dir, `d${index}.yaml`);
    writeFileSync(file, text);
    return { file, value };
  });
  const read = kubectlRead(files.map(({ file }) => file));
  return files.map(({ file, value }) => ({ file, value, kubectl: read.get(file)! }));
}

describe.skipIf(!hasKubectl)('the fast reader against kubectl', () => {
  it('reads the value kubectl reads, on generated documents of each form', () => {
    const entry = fc.tuple(fc.constantFrom('a', 'b', 'c', 'args', 'x'), form, fc.boolean());
    const documents = fc.sample(fc.tuple(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.boolean()), { numRuns: 1500, seed: 23 });
    const read: ReadDocument[] = [];
    documents.forEach(([entries, compact], index) => {
      const lines = entries.map(([key, f, inSequence], i) => {
        if (!inSequence) return `  ${key}${i}:${renderForm(f, 4)}`;
        const dash = compact ? 2 : 4;
        return `  ${key}${i}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}`;
      });
      const text = `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t${index}\nspec:\n${lines.join('\n')}\n`;
      const value = readSimpleDocument(text);
      if (value !== undefined) read.push({ text, value });
    });
    expect(read.length).toBeGreaterThan(300);
    const disagreements: string[] = [];
    for (const { file, value, kubectl } of kubectlReads(read, 'admission-lint-fast-reader-')) {
      if (kubectl.error !== undefined || kubectl.objects.length !== 1 || canonical(kubectl.objects[0]) !== canonical(value)) {
        disagreements.push(`${file}: ${canonical(value).slice(0, 300)} vs ${kubectl.error ?? canonical(kubectl.objects)}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  it('passes over a skipped value where kubectl ends it, on generated values of each form in env items', () => {
    // common-yaml.ts passes over a skipped value by its structure where a line may leave a quote
    // open (a quoted scalar over lines, a block scalar's text): the keys after it must be kubectl's.
    const part = fc.tuple(fc.constantFrom('item', 'nested', 'plain', 'shallow'), form, form);
    const documents = fc.sample(fc.array(part, { minLength: 1, maxLength: 3 }), { numRuns: 1500, seed: 50 });
    const read: ReadDocument[] = [];
    documents.forEach((parts, index) => {
      const lines = parts.map(([kind, first, second], i) => {
        if (kind === 'item') return `    - name: n${i}\n      value:${renderForm(first, 6)}\n      other:${renderForm(second, 6)}`;
        if (kind === 'nested') return `    - name: n${i}\n      valueFrom:\n        key:${renderForm(first, 8)}\n    - k${i}:${renderForm(second, 6)}`;
        // A quoted scalar whose lines go back to the key's column and above it.
        if (kind === 'shallow') return `    - name: n${i}\n      value: "a\n  securityContext:\n    privileged: true\n  w${i}: x"\n      other:${renderForm(second, 6)}`;
        return `    -${renderForm(first, 4)}\n    -${renderForm(second, 4)}`;
      });
      const text = `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t${index}\nspec:\n  env:\n${lines.join('\n')}\n  securityContext:\n    privileged: true\n  last: 1\n`;
      const value = readCommonDocument(text, { skip: new Set(['env']) });
      if (value !== undefined && (value.spec as Record<string, unknown>).env === SKIPPED) read.push({ text, value });
    });
    expect(read.length).toBeGreaterThan(300);
    const disagreements: string[] = [];
    let decoded = 0;
    for (const { file, value, kubectl } of kubectlReads(read, 'admission-lint-common-reader-')) {
      // A document kubectl cannot decode is not applied at all (what a skipped value holds is not checked).
      if (kubectl.error !== undefined) continue;
      decoded++;
      const spec = { ...(kubectl.objects[0]!.spec as Record<string, unknown>), env: '<skipped>' };
      if (kubectl.objects.length !== 1 || canonical({ ...kubectl.objects[0], spec }) !== canonical({ ...value, spec: { ...(value.spec as object), env: '<skipped>' } })) {
        disagreements.push(`${file}: ${canonical(value).slice(0, 300)} vs ${canonical(kubectl.objects)}`);
      }
    }
    expect(decoded).toBeGreaterThan(200);
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
