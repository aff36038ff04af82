/**
 * One cause, one finding across rules (Violation.covers, src/engine/lint.ts uncovered): an
 * implicit-failure-policy (or wildcard-rule) finding that a reported matches-kube-system, critical-resources or self-deadlock finding
 * already names ("failurePolicy Fail (the API default)") is an info; a covering finding that is
 * suppressed inline, or less severe, covers nothing; a severity the user set still decides.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';
import { runCli } from './run-cli.js';

const WEBHOOK = (resource: string, suppress = '') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: checker
webhooks:
- name: checker.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  clientConfig:
    service: {namespace: checker, name: checker, path: /validate}
  rules:
  - apiGroups: [""]
    apiVersions: ["v1"]
    operations: ["CREATE"]
    resources: ["${resource}"]${suppress}
`;

/** Runs `body` with a fresh temporary folder as the working directory, and goes back after. */
async function inFreshFolder(prefix: string, body: () => Promise<void>): Promise<void> {
  const cwd = process.cwd();
  process.chdir(mkdtempSync(join(tmpdir(), prefix)));
  try {
    await body();
  } finally {
    process.chdir(cwd);
  }
}

const severities = async (text: string, options: Parameters<typeof lintText>[1] = {}) =>
  (await lintText(text, { only: ['implicit-failure-policy', 'matches-kube-system'], ...options })).map((f) => `${f.ruleId} ${f.severity}`).sort();

describe('a finding that another one stands for', () => {
  it('is an info where a finding at least as severe names its cause', async () => {
    expect(await severities(WEBHOOK('configmaps'))).toEqual(['implicit-failure-policy info', 'matches-kube-system error']);
    // Nothing in kube-system for it to say: the omitted failurePolicy stands alone.
    expect(await severities(WEBHOOK('persistentvolumeclaims'))).toContain('implicit-failure-policy warning');
  });

  it('stays as it is when the covering finding is suppressed inline', async () => {
    const suppressed = WEBHOOK('configmaps', '  # admission-lint-disable-line matches-kube-system -- reviewed');
    expect(await severities(suppressed)).toEqual(['implicit-failure-policy warning']);
  });

  it('is what it was again when a baseline hides the finding that covered it', async () => {
    await inFreshFolder('admission-lint-covers-', async () => {
      // The baseline is written while failurePolicy: Fail is explicit (no implicit-failure-policy finding).
      writeFileSync('webhook.yaml', WEBHOOK('configmaps').replace('  sideEffects: None\n', '  sideEffects: None\n  failurePolicy: Fail\n'));
      expect((await runCli(['--no-config-lookup', '--write-baseline', 'baseline.json', 'webhook.yaml'], '')).code).toBe(0);
      // The line is deleted: matches-kube-system is hidden by the baseline, and the omitted field is a warning again.
      writeFileSync('webhook.yaml', WEBHOOK('configmaps'));
      const run = await runCli(['--no-config-lookup', '--format', 'json', '--baseline', 'baseline.json', '--fail-on', 'warning', 'webhook.yaml'], '');
      const found = (JSON.parse(run.stdout) as { findings: { ruleId: string; severity: string }[] }).findings.map((f) => `${f.ruleId} ${f.severity}`);
      expect(found).toEqual(['implicit-failure-policy warning']);
      expect(run.code).toBe(1);
    });
  });
});

describe('the JSON output of a covered finding', () => {
  it('has coveredBy after the contract fields: the severity it had and where the covering finding is', async () => {
    await inFreshFolder('admission-lint-covers-json-', async () => {
      writeFileSync('webhook.yaml', WEBHOOK('configmaps'));
      const run = await runCli(['--no-config-lookup', '--format', 'json', 'webhook.yaml'], '');
      const findings = (JSON.parse(run.stdout) as { findings: Record<string, unknown>[] }).findings;
      const covered = findings.find((f) => f.ruleId === 'implicit-failure-policy')!;
      const covering = findings.find((f) => f.ruleId === 'matches-kube-system')!;
      expect(covered.severity).toBe('info');
      expect(Object.keys(covered).slice(-1)).toEqual(['coveredBy']);
      expect(covered.coveredBy).toEqual({ severity: 'warning', by: [{ ruleId: 'matches-kube-system', file: 'webhook.yaml', line: covering.line, column: covering.column }] });
      expect(covering.coveredBy).toBeUndefined();
    });
  });
});

describe('a covered finding read from standard input with --stdin-filename', () => {
  it('names the covering finding by that name, and a baseline keeps it covered', async () => {
    await inFreshFolder('admission-lint-covers-stdin-', async () => {
      const run = await runCli(['--no-config-lookup', '--format', 'json', '--stdin-filename', 'deploy/webhook.yaml', '-'], WEBHOOK('configmaps'));
      const covered = (JSON.parse(run.stdout) as { findings: { ruleId: string; coveredBy?: { by: { file: string }[] } }[] }).findings.find((f) => f.ruleId === 'implicit-failure-policy')!;
      expect(covered.coveredBy!.by.map((each) => each.file)).toEqual(['deploy/webhook.yaml']);
      writeFileSync('empty.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
      expect((await runCli(['--no-config-lookup', '--write-baseline', 'baseline.json', 'empty.yaml'], '')).code).toBe(0);
      const withBaseline = await runCli(['--no-config-lookup', '--format', 'json', '--baseline', 'baseline.json', '--stdin-filename', 'deploy/webhook.yaml', '-'], WEBHOOK('configmaps'));
      const severities = (JSON.parse(withBaseline.stdout) as { findings: { ruleId: string; severity: string }[] }).findings.filter((f) => f.ruleId === 'implicit-failure-policy').map((f) => f.severity);
      expect(severities).toEqual(['info']);
    });
  });
});

describe('critical-resources stands for the omitted failurePolicy and a wildcard over every group', () => {
  const NARROWED = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: shim
webhooks:
- name: shim.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  clientConfig:
    service: {namespace: shim, name: shim, path: /validate}
  namespaceSelector:
    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, kube-node-lease, shim]}]
  rules:
  - apiGroups: ["*"]
    apiVersions: ["*"]
    operations: ["*"]
    resources: ["*"]
    scope: "*"
`;
  const only = ['implicit-failure-policy', 'critical-resources', 'wildcard-rule'];
  it('makes both infos where it reports the webhook at error (cluster-scoped writes a namespaceSelector does not narrow)', async () => {
    expect(await severities(NARROWED, { only })).toEqual(['critical-resources error', 'implicit-failure-policy info', 'wildcard-rule info']);
    // Written Fail: the wildcard is still covered; nothing is omitted.
    expect(await severities(NARROWED.replace('  sideEffects: None\n', '  sideEffects: None\n  failurePolicy: Fail\n'), { only })).toEqual(['critical-resources error', 'wildcard-rule info']);
  });
  it('leaves the wildcard a warning where the error is about another rule entry (attack s47b 20)', async () => {
    const namespacedOnly = NARROWED.replace('scope: "*"', 'scope: Namespaced').replace('kube-node-lease, shim]', 'kube-node-lease, shim, default]');
    const plusNodes = `${namespacedOnly}  - {apiGroups: [""], apiVersions: ["v1"], operations: ["UPDATE"], resources: ["nodes"]}\n`;
    expect(await severities(plusNodes, { only })).toEqual(['critical-resources error', 'implicit-failure-policy info', 'wildcard-rule warning']);
  });
  it('leaves them as they are where it does not report the webhook (namespaced only) or is turned off', async () => {
    const namespacedOnly = NARROWED.replace('scope: "*"', 'scope: Namespaced').replace('kube-node-lease, shim]', 'kube-node-lease, shim, default]');
    expect(await severities(namespacedOnly, { only })).toEqual(['implicit-failure-policy warning', 'wildcard-rule warning']);
    expect(await severities(NARROWED, { only: ['implicit-failure-policy', 'wildcard-rule'] })).toEqual(['implicit-failure-policy warning', 'wildcard-rule warning']);
  });
});
