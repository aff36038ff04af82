/**
 * Reading a file costs work linear in its size, on the shapes a hostile pull request can give
 * (s38e 3 and 4, s39a): many small documents, one huge mapping, one long flow list over comment
 * lines, a finding on every item of a long list, directive lines, line separators, comment
 * blocks and suppression comments, a rendered stream of many templates, a long token where a
 * CA patcher's setting is looked for, a CEL expression past the parser's limit. Each input is sized so that a walk quadratic in it
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

  /**
   * Lints the text `build` makes (JavaScript run in the child) and prints what `print` says of the
   * run's `result` (by default the findings' count and rule ids).
   */
  const lintBuilt = (build: string, print = `result.findings.length, [...new Set(result.findings.map((finding) => finding.ruleId))].sort().join(',')`): string =>
    runBuilt(`
      const { lint } = await import(dist + 'engine/lint.js');
      const { rules } = await import(dist + '../rules/index.js');
      const { DEFAULT_KUBE_VERSION } = await import(dist + 'kube/version.js');
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const { tmpdir } = await import('node:os');
      const file = join(mkdtempSync(join(tmpdir(), 'linear-')), 'input.yaml');
      writeFileSync(file, ${build});
      const result = await lint({ paths: [file], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      console.log(${print});`);

  it('reports 200,000 duplicate keys of one mapping', () => {
    const printed = runBuilt(`
      const { parseAsGoYaml } = await import(dist + 'parse/go-yaml-schema.js');
      const text = '${WEBHOOK_HEAD}  # labels\\n  labels:\\n' + '    k: v\\n'.repeat(200001);
      const [document] = parseAsGoYaml(text, { logLevel: 'silent', prettyErrors: false });
      console.log(document.errors.length);`);
    expect(printed).toBe('200000');
  });

  it('places a finding on each of 200,000 list items', () => {
    const printed = lintBuilt(`'${WEBHOOK_HEAD}webhooks:\\n- name: a.example.com\\n  rules: [\\n' + 'x,\\n'.repeat(200000) + ']\\n'`, 'result.findings.length, result.findings.reduce((last, finding) => Math.max(last, finding.line), 0)');
    expect(printed).toBe('200000 200007');
  });

  const WEBHOOK_ITEM = (i: string) => `'- {name: w' + ${i} + '.example.com, admissionReviewVersions: [v1], sideEffects: None, failurePolicy: Fail, clientConfig: {service: {name: s, namespace: x}}, rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]}\\n'`;

  // Under the 100,000-document limit (src/parse/yaml.ts), with two directive lines in each.
  it('reports 190,000 directive lines in 95,000 documents', () => {
    expect(lintBuilt(`'%YAML 1.2\\n%TAG !a! tag:a:\\n---\\na: 1\\n...\\n'.repeat(95000)`)).toMatch(/^\d+ yaml-syntax$/);
  });

  it('reads 95,000 documents with a line separator each', () => {
    expect(lintBuilt(`'---\\na: "x\\u2028y"\\n'.repeat(95000)`)).toMatch(/^\d+/);
  });

  it('reads 800,000 comment lines in a file with a suppression comment', () => {
    expect(lintBuilt(`'# admission-lint-disable-file no-such-rule -- r\\n' + '#\\n'.repeat(800000) + '${WEBHOOK_HEAD}webhooks:\\n' + ${WEBHOOK_ITEM("'0'")}`)).toMatch(/unused-suppression/);
  });

  it('applies 12,000 suppression comments, one per webhook', () => {
    const printed = lintBuilt(`'${WEBHOOK_HEAD}webhooks:\\n' + Array.from({ length: 12000 }, (_, i) => '# admission-lint-disable-next-line wildcard-rule -- r\\n' + ${WEBHOOK_ITEM('i')}).join('')`);
    expect(printed).not.toContain('wildcard-rule');
  });

  it('reads a rendered stream of 12,000 templates', () => {
    const printed = lintBuilt(`Array.from({ length: 12000 }, (_, i) => '---\\n# Source: chart/templates/t' + i + '.yaml\\napiVersion: admissionregistration.k8s.io/v1\\nkind: ValidatingWebhookConfiguration\\nmetadata:\\n  name: v' + i + '\\nwebhooks:\\n' + ${WEBHOOK_ITEM('i')}).join('')`);
    expect(printed).toMatch(/^\d+ .*wildcard-rule/);
  });

  it('looks for CA patcher settings past a 3 MB token', () => {
    expect(lintBuilt(`'${WEBHOOK_HEAD.replace('name: v\\n', "name: v\\n  annotations: {a: ' + 'webhook'.repeat(400000) + '}\\n")}webhooks:\\n' + ${WEBHOOK_ITEM("'0'")}`)).toMatch(/wildcard-rule/);
  });

  it('asks 20,000 kustomizations whether they list each of 60,000 files (s40)', () => {
    const printed = runBuilt(`
      const { KustomizePatches } = await import(dist + 'parse/kustomization.js');
      const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const root = mkdtempSync(join((await import('node:os')).tmpdir(), 'many-kustomizations-'));
      const patches = new KustomizePatches();
      const files = [];
      for (let i = 0; i < 20000; i++) {
        const folder = join(root, 'd' + i);
        mkdirSync(folder);
        writeFileSync(join(folder, 'kustomization.yaml'), 'resources: [a.yaml]\\n');
        patches.visitFolder(folder);
        files.push(join(folder, 'a.yaml'), join(folder, 'b.yaml'), join(folder, 'c.yaml'));
      }
      for (const file of files.slice(0, 3)) writeFileSync(file, '');
      console.log(files.filter((file) => patches.isUnlisted(file)).length);`);
    // Each folder's b.yaml and c.yaml are listed nowhere (their folders above are read once each).
    expect(printed).toBe('40000');
  });

  it('refuses a 1 MB CEL expression as the API server does', () => {
    const printed = lintBuilt(`'${WEBHOOK_HEAD}webhooks:\\n- name: a.example.com\\n  admissionReviewVersions: [v1]\\n  sideEffects: None\\n  clientConfig: {url: "https://a.example.com"}\\n  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\\n  matchConditions:\\n  - name: c\\n    expression: \\'' + Array.from({ length: 30000 }, (_, i) => 'object.metadata.name == "x' + i + '"').join(' || ') + '\\'\\n'`);
    expect(printed).toMatch(/api-validation/);
  });
});
