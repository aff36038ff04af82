/**
 * Reading a file costs work linear in its size, on the shapes a hostile pull request can give
 * (s38e 3 and 4): many small documents, one huge mapping, one long flow list over comment lines,
 * a finding on every item of a long list. Each input is sized so that a walk quadratic in it
 * takes minutes while the linear one takes a second or two. Each runs in a child process of the
 * built modules (test:slow builds first) that is stopped after 60 s: a quadratic walk never
 * yields to a test's own timeout, so it would hang the suite instead of failing it. The
 * duplicate-key check that replaced `yaml`'s quadratic one is compared with it in
 * test/duplicate-keys.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './spawn-cli.js';

const LIMIT_MS = 60_000;

/** Runs `body` (an ES module's code, with `dist` the built src/ folder's URL) and returns what it printed. */
function runBuilt(body: string): string {
  const script = `const dist = ${JSON.stringify(new URL('dist/src/', `file://${ROOT}/`).href)};\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 26 });
  if (result.error !== undefined) throw new Error(`stopped after ${LIMIT_MS} ms: ${result.error.message}`);
  expect(result.stderr).toBe('');
  return result.stdout.trim();
}

const WEBHOOK_HEAD = 'apiVersion: admissionregistration.k8s.io/v1\\nkind: ValidatingWebhookConfiguration\\nmetadata:\\n  name: v\\n';

describe('reading is linear in the file', () => {
  it('finds the documents of 200,000 two-line documents', () => {
    const printed = runBuilt(`
      const { documentLines } = await import(dist + 'parse/prefilter.js');
      const text = Array.from({ length: 200000 }, () => 'a: 1\\nb: 2\\n').join('---\\n');
      const documents = documentLines(text);
      const last = documents.at(-1);
      console.log(documents.length, last.start - text.length, last.end - text.length, last.firstContent - text.length);`);
    expect(printed).toBe('200000 -11 0 -10');
  });

  it('flattens a flow list over 1,000,000 comment lines', () => {
    const printed = runBuilt(`
      const { flattenFlow } = await import(dist + 'parse/lenient.js');
      const text = 'rules: [\\n' + '#\\n'.repeat(1000000) + ']\\n';
      const flat = flattenFlow(text, text.indexOf('['));
      console.log(flat.length === text.length - 'rules: \\n'.length, /^\\[\\s+\\]$/.test(flat));`);
    expect(printed).toBe('true true');
  });

  it('checks the keys of a 100,000-key mapping for duplicates', () => {
    const printed = runBuilt(`
      const { parseAsGoYaml } = await import(dist + 'parse/go-yaml-schema.js');
      const keys = Array.from({ length: 100000 }, (_, i) => '    k' + i + ': v\\n').join('');
      // The comment line keeps the fast reader off: the document is parsed in full.
      const text = '${WEBHOOK_HEAD}  # labels\\n  labels:\\n' + keys + '    k5: again\\n';
      const [document] = parseAsGoYaml(text, { logLevel: 'silent', prettyErrors: false });
      console.log(JSON.stringify(document.errors.map((error) => [error.code, error.pos[0] === text.lastIndexOf('k5: again')])));`);
    expect(printed).toBe('[["DUPLICATE_KEY",true]]');
  });

  it('places a finding on each of 200,000 list items', () => {
    const printed = runBuilt(`
      const { lint } = await import(dist + 'engine/lint.js');
      const { rules } = await import(dist + '../rules/index.js');
      const { DEFAULT_KUBE_VERSION } = await import(dist + 'kube/version.js');
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const { tmpdir } = await import('node:os');
      const file = join(mkdtempSync(join(tmpdir(), 'linear-')), 'list.yaml');
      writeFileSync(file, '${WEBHOOK_HEAD}webhooks:\\n- name: a.example.com\\n  rules: [\\n' + 'x,\\n'.repeat(200000) + ']\\n');
      const result = await lint({ paths: [file], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      console.log(result.findings.length, result.findings.reduce((last, finding) => Math.max(last, finding.line), 0));`);
    expect(printed).toBe('200000 200007');
  });
});
