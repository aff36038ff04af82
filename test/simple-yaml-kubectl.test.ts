/**
 * The fast reader (src/parse/simple-yaml.ts) gives the value kubectl reads, where it reads: the
 * generated forms of test/yaml-forms.ts in a custom object's spec, decoded by kubectl
 * (`kubectl annotate --local -f FILE … -o json`, as `kubectl apply` reads the file), compared with
 * the reader's value on every document the reader reads. Skipped where kubectl is not installed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSimpleDocument } from '../src/parse/simple-yaml.js';
import { hasKubectl, kubectlRead } from './kubectl-read.js';
import { form, renderForm } from './yaml-forms.js';

/** JSON with object keys sorted (kubectl prints Go maps sorted). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
}

describe.skipIf(!hasKubectl)('the fast reader against kubectl', () => {
  it('reads the value kubectl reads, on generated documents of each form', () => {
    const entry = fc.tuple(fc.constantFrom('a', 'b', 'c', 'args', 'x'), form, fc.boolean());
    const documents = fc.sample(fc.tuple(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.boolean()), { numRuns: 1500, seed: 23 });
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-fast-reader-'));
    const files: { file: string; value: Record<string, unknown> }[] = [];
    documents.forEach(([entries, compact], index) => {
      const lines = entries.map(([key, f, inSequence], i) => {
        if (!inSequence) return `  ${key}${i}:${renderForm(f, 4)}`;
        const dash = compact ? 2 : 4;
        return `  ${key}${i}:\n${' '.repeat(dash)}-${renderForm(f, dash + 2)}`;
      });
      const text = `apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t${index}\nspec:\n${lines.join('\n')}\n`;
      const value = readSimpleDocument(text);
      if (value === undefined) return;
      const file = join(dir, `d${index}.yaml`);
      writeFileSync(file, text);
      files.push({ file, value });
    });
    expect(files.length).toBeGreaterThan(300);
    const read = kubectlRead(files.map(({ file }) => file));
    const disagreements: string[] = [];
    for (const { file, value } of files) {
      const kubectl = read.get(file)!;
      if (kubectl.error !== undefined || kubectl.objects.length !== 1 || canonical(kubectl.objects[0]) !== canonical(value)) {
        disagreements.push(`${file}: ${canonical(value).slice(0, 300)} vs ${kubectl.error ?? canonical(kubectl.objects)}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
