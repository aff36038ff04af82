/**
 * The polish of issue 22, items 8 to 11: `rules` fits 100 columns; the summary counts the
 * workloads Pod Security checked apart from the skipped documents; the README's first paragraph
 * names Pod Security; `-o out/x.sarif` creates `out/` (never through a symbolic link); the
 * argument parser's errors look like the tool's own; `--stdin-filename`; action.yml lists every
 * format; what the examples' README claims about v1beta1 defaults is what the tool does.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORMATS } from '../src/format/index.js';
import { rules } from '../rules/index.js';
import { runCli } from './run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const WEBHOOK = readFileSync(join(ROOT, 'fixtures', 'examples', 'policy-webhook.yaml'), 'utf8');

describe('rules', () => {
  it('fits 100 columns, one rule id at the start of a line each; --format json has everything', async () => {
    const { code, stdout } = await runCli(['rules'], '');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(100);
    expect(lines.filter((line) => /^[a-z]/.test(line)).map((line) => line.split(' ')[0])).toEqual(rules.map((rule) => rule.meta.id));
    // Every word of every title is there, wrapped.
    const words = stdout.split(/\s+/);
    for (const rule of rules) for (const word of rule.meta.title.split(' ')) expect(words).toContain(word);
    const json = JSON.parse((await runCli(['rules', '--format', 'json'], '')).stdout) as { id: string; title: string }[];
    expect(json.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.meta.id));
  });
});

describe('the summary counts the workloads Pod Security checked', () => {
  const RUN = `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  labels: {pod-security.kubernetes.io/enforce: restricted, pod-security.kubernetes.io/enforce-version: v1.30}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team-a}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, securityContext: {privileged: true}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
`;

  it('apart from the other documents, in stylish and JSON', async () => {
    const { stdout } = await runCli(['-'], RUN);
    expect(stdout).toContain('pod-security');
    expect(stdout).toContain('1 Namespace read, 1 workload checked for Pod Security, 1 other document skipped');
    const json = JSON.parse((await runCli(['-', '--format', 'json'], RUN)).stdout) as { summary: { skipped: number; workloads?: number } };
    expect(json.summary).toMatchObject({ skipped: 1, workloads: 1 });
  });
});

describe('README', () => {
  it('names Pod Security in its first paragraph', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const first = readme.split('\n\n')[1]!;
    expect(first).toMatch(/Pod Security/);
    expect(first).toMatch(/admission policies/);
  });
});

describe('--output into a folder that does not exist', () => {
  let cwd: string;
  let project: string;
  beforeEach(() => {
    cwd = process.cwd();
    project = mkdtempSync(join(tmpdir(), 'admission-lint-out-'));
    process.chdir(project);
  });
  afterEach(() => process.chdir(cwd));

  it('creates it', async () => {
    const { code, stderr } = await runCli(['-', '--format', 'sarif', '-o', join('out', 'reports', 'x.sarif')], WEBHOOK);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(join(project, 'out', 'reports', 'x.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('never through a symbolic link', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'admission-lint-elsewhere-'));
    symlinkSync(elsewhere, join(project, 'out'));
    const { code, stderr } = await runCli(['-', '--format', 'sarif', '-o', join('out', 'reports', 'x.sarif')], WEBHOOK);
    expect(code).toBe(2);
    expect(stderr).toMatch(/symbolic link/);
    expect(existsSync(join(elsewhere, 'reports'))).toBe(false);
  });

  it('a file where a folder should be is an error, not a crash', async () => {
    mkdirSync('out');
    await runCli(['-', '-o', join('out', 'file')], WEBHOOK);
    const { code, stderr } = await runCli(['-', '-o', join('out', 'file', 'x.txt')], WEBHOOK);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^admission-lint: /);
  });
});

describe("the argument parser's errors", () => {
  it.each([
    [['--formt', 'json'], "admission-lint: unknown option '--formt'\n  hint: did you mean --format? (admission-lint lint --help lists the options)\n"],
    [['--fail-on', 'always'], "admission-lint: option '--fail-on <severity>' argument 'always' is invalid. Allowed choices are error, warning, info, never, warn.\n  hint: admission-lint lint --help lists the options\n"],
    [['explain'], "admission-lint: missing required argument 'rule-id'\n  hint: admission-lint explain --help lists the options\n"],
    [['simulate', '--frob'], "admission-lint: unknown option '--frob'\n  hint: admission-lint simulate --help lists the options\n"],
    [['report', '--format', 'pdf'], "admission-lint: option '-f, --format <format>' argument 'pdf' is invalid. Allowed choices are text, json, markdown, html.\n  hint: admission-lint report --help lists the options\n"],
  ])('%j: the tool\'s admission-lint: and hint: lines, exit 2', async (args, expected) => {
    const { code, stdout, stderr } = await runCli(args, '');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(expected);
  });
});

describe('--stdin-filename', () => {
  it('names the findings from standard input, in every format', async () => {
    const github = await runCli(['-', '--stdin-filename', 'deploy/webhook.yaml', '--format', 'github'], WEBHOOK);
    expect(github.stdout).toContain('file=deploy/webhook.yaml,line=');
    expect(github.stdout).not.toContain('<stdin>');
    const json = JSON.parse((await runCli(['-', '--stdin-filename', 'deploy/webhook.yaml', '--format', 'json'], WEBHOOK)).stdout) as { findings: { file: string }[] };
    expect(new Set(json.findings.map((f) => f.file))).toEqual(new Set(['deploy/webhook.yaml']));
    const sarif = (await runCli(['-', '--stdin-filename', 'deploy/webhook.yaml', '--format', 'sarif'], WEBHOOK)).stdout;
    expect(sarif).toContain('"uri": "deploy/webhook.yaml"');
  });
});

describe('action.yml', () => {
  it('lists every format in its format input', () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    const description = /format:\n\s+description: Output format \(([^)]*)\)/.exec(action)?.[1];
    expect(description?.split(', ').sort()).toEqual([...FORMATS].sort());
  });
});

describe('fixtures/examples/README.md says what the examples show', () => {
  it('legacy-v1beta1.yaml: one error at the default target; its v1beta1 defaults at a target that serves v1beta1', async () => {
    const readme = readFileSync(join(ROOT, 'fixtures', 'examples', 'README.md'), 'utf8');
    const file = join(ROOT, 'fixtures', 'examples', 'legacy-v1beta1.yaml');
    const byDefault = JSON.parse((await runCli([file, '--format', 'json'], '')).stdout) as { findings: { ruleId: string }[] };
    expect(byDefault.findings.map((f) => f.ruleId)).toEqual(['removed-api-version']);
    const command = /`node bin\/admission-lint\.js (--kube-version [\d.]+) fixtures\/examples\/legacy-v1beta1\.yaml`/.exec(readme);
    expect(command).not.toBeNull();
    const old = JSON.parse((await runCli([...command![1]!.split(' '), file, '--format', 'json'], '')).stdout) as { findings: { ruleId: string }[] };
    expect(old.findings.map((f) => f.ruleId).sort()).toEqual(['admission-review-versions', 'implicit-failure-policy', 'long-timeout', 'side-effects']);
  });
});

describe('a policy version Kubernetes has only after the target', () => {
  const MAP_V1 = 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  reinvocationPolicy: Never\n  matchConstraints:\n    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]\n  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration: {expression: "Object{metadata: Object.metadata{labels: {\'a\': \'b\'}}}"}\n';
  const removed = async (args: string[]) =>
    (JSON.parse((await runCli(['-', '--format', 'json', ...args], MAP_V1)).stdout) as { findings: { ruleId: string; severity: string; message: string }[] }).findings.filter((f) => f.ruleId === 'removed-api-version');

  it('is an info that says to set --kube-version when the target is the default, an error when chosen', async () => {
    const defaulted = await removed([]);
    expect(defaulted.map((f) => f.severity)).toEqual(['info']);
    expect(defaulted[0]!.message).toContain('served from Kubernetes 1.36 on; the default target is 1.35: set --kube-version');
    expect((await removed(['--kube-version', '1.35'])).map((f) => f.severity)).toEqual(['error']);
    expect(await removed(['--kube-version', '1.36'])).toEqual([]);
  });
});
