/**
 * One cause, one finding across files (src/engine/variants.ts): a configuration kept beside the
 * one a kustomization builds, in its folder but listed by none (a `.local.yaml`), shares its
 * findings with the built one: those are infos that the built one's finding stands for. Its own
 * findings stay, as does a file outside the tree, a namespaced object, and a finding a baseline
 * hides on the built object (the variant's is then what it was again).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { runCli } from './run-cli.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('variants-test');

const webhook = (extra = ''): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checker}
webhooks:
  - name: checker.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://checker.example.com/validate"}
    rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps], scope: Namespaced}]
    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
${extra}`;

async function found(paths: string[]): Promise<string[]> {
  const only = ['implicit-failure-policy', 'timeout-out-of-range'];
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => !only.includes(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
  const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' });
  return report.findings.map((f) => `${f.file.replace(/^.*case-\d+\//, '')} ${f.ruleId} ${f.severity}`);
}

const TREE = {
  'kustomization.yaml': 'resources:\n- kube/webhook.yaml\n',
  'kube/webhook.yaml': webhook(),
  'kube/webhook.local.yaml': webhook('    timeoutSeconds: 45\n'),
};

describe('a variant of a built configuration, kept in its tree', () => {
  it('shares the built one\'s finding as an info, and keeps its own', async () => {
    expect(await found([folder(TREE)])).toEqual([
      'kube/webhook.local.yaml implicit-failure-policy info',
      'kube/webhook.local.yaml timeout-out-of-range error',
      'kube/webhook.yaml implicit-failure-policy warning',
    ]);
  });

  it('is itself where no build holds its twin: another name, a file outside the tree, no kustomization', async () => {
    const renamed = { ...TREE, 'kube/webhook.local.yaml': webhook().replace('name: checker}', 'name: checker-local}') };
    expect(await found([folder(renamed)])).toContain('kube/webhook.local.yaml implicit-failure-policy warning');
    const root = folder({ 'app/kustomization.yaml': 'resources:\n- webhook.yaml\n', 'app/webhook.yaml': webhook(), 'other/webhook.yaml': webhook() });
    expect(await found([root])).toEqual(['app/webhook.yaml implicit-failure-policy warning', 'other/webhook.yaml implicit-failure-policy warning']);
    const plain = folder({ 'kube/webhook.yaml': webhook(), 'kube/webhook.local.yaml': webhook() });
    expect(await found([plain])).toEqual(['kube/webhook.local.yaml implicit-failure-policy warning', 'kube/webhook.yaml implicit-failure-policy warning']);
  });

  it('is itself where the build renames its twin, or it sits elsewhere in the tree (attack s47c 6, 7)', async () => {
    // A namePrefix makes the built one another object: the variant applied with -f is a second one.
    expect(await found([folder({ ...TREE, 'kustomization.yaml': 'namePrefix: widget-\nresources:\n- kube/webhook.yaml\n' })])).toContain('kube/webhook.local.yaml implicit-failure-policy warning');
    // Another project's plain manifests in the tree, sharing the name: not beside the built file or its kustomization.
    const monorepo = { 'kustomization.yaml': 'resources:\n- project-a/webhook.yaml\n', 'project-a/webhook.yaml': webhook(), 'project-b/deploy/webhook.yaml': webhook() };
    expect(await found([folder(monorepo)])).toEqual(['project-a/webhook.yaml implicit-failure-policy warning', 'project-b/deploy/webhook.yaml implicit-failure-policy warning']);
    // A patch of the run renames the built one: the variant is a second object (attack s47d 3a).
    const renamed = { ...TREE, 'kustomization.yaml': `resources:\n- kube/webhook.yaml\npatches:\n- target: {kind: ValidatingWebhookConfiguration, name: checker}\n  patch: '[{"op": "replace", "path": "/metadata/name", "value": "checker-prod"}]'\n` };
    expect(await found([folder(renamed)])).toContain('kube/webhook.local.yaml implicit-failure-policy warning');
    // Beside the kustomization that lists the built file: a variant.
    const besideKustomization = { 'kustomization.yaml': 'resources:\n- kube/webhook.yaml\n', 'kube/webhook.yaml': webhook(), 'webhook.local.yaml': webhook() };
    expect(await found([folder(besideKustomization)])).toEqual(['kube/webhook.yaml implicit-failure-policy warning', 'webhook.local.yaml implicit-failure-policy info']);
  });

  it('is what it was again when a baseline hides the built one\'s finding', async () => {
    const root = folder({ ...TREE, 'kube/webhook.local.yaml': webhook('    failurePolicy: Fail\n') });
    const cwd = process.cwd();
    process.chdir(root);
    try {
      // The baseline holds the built one's finding; the variant sets failurePolicy then.
      expect((await runCli(['--no-config-lookup', '--write-baseline', 'baseline.json', '.'], '')).code).toBe(0);
      // The variant's line is deleted: its finding would be the built one's, which the baseline hides.
      writeFileSync('kube/webhook.local.yaml', webhook());
      const run = await runCli(['--no-config-lookup', '--format', 'json', '--baseline', 'baseline.json', '.'], '');
      const severities = (JSON.parse(run.stdout) as { findings: { ruleId: string; severity: string; file: string }[] }).findings.filter((f) => f.ruleId === 'implicit-failure-policy').map((f) => `${f.file} ${f.severity}`);
      expect(severities).toEqual([`${join('kube', 'webhook.local.yaml')} warning`]);
    } finally {
      process.chdir(cwd);
    }
  });
});
