/**
 * Inputs that used to pass as clean (issue 22): empty standard input (`kubectl kustomize
 * missing-dir | admission-lint -`) is exit 2 for lint, simulate, report and defaults; a kustomize
 * overlay folder says its kustomization was not built and how to lint the build; a Helm chart
 * folder says once that its templates were not read and how to lint the rendered chart, instead
 * of one yaml-syntax error per template.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';

const ROOT = join(import.meta.dirname, '..');
const WEBHOOK = readFileSync(join(ROOT, 'fixtures', 'examples', 'policy-webhook.yaml'), 'utf8');

async function cli(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: {}, readStdin: () => new TextEncoder().encode(stdin) });
  return { code, stdout, stderr };
}

/** A Helm template of a webhook configuration: not YAML until rendered. */
const TEMPLATE = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: {{ include "web.fullname" . }}
webhooks:
  {{- range .Values.webhooks }}
  - name: {{ .name }}
  {{- end }}
`;

let cwd: string;
let project: string;
beforeEach(() => {
  cwd = process.cwd();
  project = mkdtempSync(join(tmpdir(), 'admission-lint-shapes-'));
  process.chdir(project);
});
afterEach(() => process.chdir(cwd));

describe('empty standard input is exit 2', () => {
  it.each([
    [['-']],
    [['lint', '-']],
    [['defaults', '-']],
    [['report', '-']],
    [['simulate', '-', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'default']],
  ])('%j with nothing (or white space) on stdin', async (args) => {
    for (const stdin of ['', '\n  \n']) {
      const { code, stdout, stderr } = await cli(args, stdin);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^admission-lint: standard input \("-"\) is empty: nothing to (lint|read)\n {2}hint: did the command before the pipe fail\?/);
    }
  });

  it('lint --allow-empty accepts it; a comment-only stream is read as before', async () => {
    expect((await cli(['-', '--allow-empty'])).code).toBe(0);
    expect((await cli(['-'], '# nothing here\n')).code).toBe(0);
  });
});

describe('a kustomize overlay folder', () => {
  beforeEach(() => {
    mkdirSync('base');
    mkdirSync(join('overlays', 'prod'), { recursive: true });
    writeFileSync(join('base', 'webhook.yaml'), WEBHOOK);
    writeFileSync(join('base', 'kustomization.yaml'), 'resources: [webhook.yaml]\n');
    writeFileSync(join('overlays', 'prod', 'kustomization.yaml'), 'resources: [../../base]\nnamespace: prod\npatches:\n  - path: fail-open.yaml\n');
    writeFileSync(
      join('overlays', 'prod', 'fail-open.yaml'),
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: policy-validator}\nwebhooks:\n  - name: pods.policy.example.com\n    failurePolicy: Ignore\n',
    );
  });

  it('says the kustomization was not built, and how to lint the build', async () => {
    const { code, stderr } = await cli([join('overlays', 'prod')]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      'admission-lint: overlays/prod has a kustomization that was not built: its files were read as they are, without its patches, namespace and resources from outside the folder; lint the build: kubectl kustomize overlays/prod | admission-lint -\n',
    );
  });

  it('of several kustomizations, it names the builds no other one builds on', async () => {
    // A kubebuilder-style layout: default builds on webhook and crd, each with patches of its own.
    mkdirSync(join('config', 'crd'), { recursive: true });
    mkdirSync(join('config', 'webhook'), { recursive: true });
    mkdirSync(join('config', 'default'), { recursive: true });
    mkdirSync(join('config', 'samples'), { recursive: true });
    writeFileSync(join('config', 'crd', 'kustomization.yaml'), 'resources: []\npatches: [{path: webhook-in-crd.yaml}]\n');
    writeFileSync(join('config', 'webhook', 'kustomization.yaml'), 'resources: [manifests.yaml]\nnamePrefix: web-\n');
    writeFileSync(join('config', 'webhook', 'manifests.yaml'), WEBHOOK);
    writeFileSync(join('config', 'default', 'kustomization.yaml'), 'namespace: system\nresources: [../crd, ../webhook/]\n');
    writeFileSync(join('config', 'samples', 'kustomization.yaml'), 'resources: [../../base]\n');
    const { stderr } = await cli(['config']);
    expect(stderr).toContain('4 kustomizations were not built (config/crd, config/default, config/samples and 1 more)');
    expect(stderr).toContain('lint each of config/default and config/samples: kubectl kustomize config/default | admission-lint -');
    // Alone, the base is the top one.
    expect((await cli([join('config', 'webhook')])).stderr).toContain('lint the build: kubectl kustomize config/webhook | admission-lint -');
    // A template that lists a file a pipeline writes (not there) does not build: not suggested.
    mkdirSync(join('config', 'pipeline'), { recursive: true });
    writeFileSync(join('config', 'pipeline', 'kustomization.yaml'), 'resources: [object.yaml]\nnamePrefix: run-\n');
    const withTemplate = (await cli(['config'])).stderr;
    expect(withTemplate).toContain('5 kustomizations were not built');
    expect(withTemplate).toContain('lint each of config/default and config/samples: kubectl kustomize config/default | admission-lint -');
  });

  it('a kustomization that only lists files of its folder reads the same: nothing to say', async () => {
    const { stderr } = await cli(['base']);
    expect(stderr).toBe('');
  });

  it('simulate, report and defaults say it too', async () => {
    for (const args of [['defaults', 'overlays'], ['report', 'overlays'], ['simulate', 'overlays', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'default']]) {
      expect((await cli(args)).stderr, args.join(' ')).toContain('lint the build: kubectl kustomize overlays/prod | admission-lint -');
    }
  });

  it.skipIf(spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status !== 0)('the command it suggests lints the build', async () => {
    const built = spawnSync('kubectl', ['kustomize', join('overlays', 'prod')], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const { code, stdout } = await cli(['-', '--format', 'json'], built.stdout);
    const findings = (JSON.parse(stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId);
    // The patch applied: failurePolicy Ignore, so no implicit-failure-policy and no self-deadlock.
    expect(findings).not.toContain('implicit-failure-policy');
    expect(findings).toContain('fail-open');
    expect(code).toBe(1);
  });
});

describe('a Helm chart folder', () => {
  beforeEach(() => {
    mkdirSync(join('charts', 'web', 'templates'), { recursive: true });
    writeFileSync(join('charts', 'web', 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
    writeFileSync(join('charts', 'web', 'values.yaml'), 'replicas: 1\n');
    for (const name of ['webhook.yaml', 'service.yaml', 'deployment.yaml']) {
      writeFileSync(join('charts', 'web', 'templates', name), TEMPLATE);
    }
  });

  it('is recognised: its templates are not read, and it says once how to lint the rendered chart', async () => {
    const { code, stdout, stderr } = await cli(['charts']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('yaml-syntax');
    expect(stderr).toBe(
      'admission-lint: charts/web is a Helm chart: its 3 templates in templates/ were not read (not YAML until rendered); lint what it renders: helm template charts/web | admission-lint -\n',
    );
  });

  it('a template named as a file is still read (and said to be one)', async () => {
    const { code, stdout } = await cli([join('charts', 'web', 'templates', 'webhook.yaml')]);
    expect(code).toBe(1);
    expect(stdout).toContain('yaml-syntax');
  });

  it('a templates/ folder without a Chart.yaml beside it is walked as before', async () => {
    mkdirSync(join('plain', 'templates'), { recursive: true });
    writeFileSync(join('plain', 'templates', 'webhook.yaml'), WEBHOOK);
    const { stdout, stderr } = await cli(['plain']);
    expect(stdout).toContain('matches-kube-system');
    expect(stderr).toBe('');
  });
});

describe('a UTF-16 file with a byte-order mark', () => {
  it('is read as kubectl reads it (go-yaml looks for the mark), in either byte order', async () => {
    const utf8 = await cli(['-', '--format', 'json'], WEBHOOK);
    const findings = (stdout: string) => (JSON.parse(stdout) as { findings: { ruleId: string; line: number; column: number }[] }).findings.map((f) => `${f.ruleId} ${f.line}:${f.column}`);
    for (const [name, bytes] of [
      ['le.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(WEBHOOK, 'utf16le')])],
      ['be.yaml', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(WEBHOOK, 'utf16le').swap16()])],
    ] as const) {
      writeFileSync(name, bytes);
      const { stdout } = await cli([name, '--format', 'json']);
      expect(findings(stdout), name).toEqual(findings(utf8.stdout));
    }
  });
});
