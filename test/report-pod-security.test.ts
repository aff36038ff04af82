/**
 * `report`: the Pod Security section, per namespace in the run: its effective enforce, warn and
 * audit levels and versions, and the workloads enforce rejects.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { podSecuritySettingsFrom } from '../src/psa/settings.js';
import { buildReport } from '../src/report/build.js';
import { formatHtml } from '../src/report/format-html.js';
import { formatJson } from '../src/report/format-json.js';
import { formatMarkdown } from '../src/report/format-markdown.js';
import { formatText } from '../src/report/format-text.js';

const work = mkdtempSync(join(tmpdir(), 'report-psa-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MANIFESTS = `apiVersion: v1
kind: Namespace
metadata:
  name: payments
  labels:
    pod-security.kubernetes.io/enforce: restricted
    pod-security.kubernetes.io/enforce-version: v1.35
---
apiVersion: v1
kind: Namespace
metadata:
  name: search
  labels:
    pod-security.kubernetes.io/enforce: baseline
    pod-security.kubernetes.io/warn: restricted
    pod-security.kubernetes.io/warn-version: v1.30
---
apiVersion: v1
kind: Namespace
metadata:
  name: tools
---
apiVersion: v1
kind: Pod
metadata: {name: debug, namespace: payments}
spec:
  containers: [{name: shell, image: busybox, securityContext: {privileged: true}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: indexer, namespace: search}
spec:
  selector: {matchLabels: {app: indexer}}
  template:
    metadata: {labels: {app: indexer}}
    spec:
      hostNetwork: true
      containers: [{name: indexer, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: agent, namespace: tools}
spec:
  hostPID: true
  containers: [{name: agent, image: busybox}]
`;

describe('report: Pod Security per namespace', () => {
  it('lists each namespace\'s levels and the workloads enforce rejects', async () => {
    const file = join(work, 'all.yaml');
    writeFileSync(file, MANIFESTS);
    const report = await buildReport({ paths: [file], kubeVersion: DEFAULT_KUBE_VERSION, toolVersion: 'test' });
    const psa = report.podSecurity;
    expect(psa).toMatchObject({ enabled: true, configuration: 'built-in (no --pod-security-config)', defaults: { enforce: 'privileged:latest', warn: 'privileged:latest', audit: 'privileged:latest' }, defaultNamespace: 'default' });
    expect(psa.namespaces.map((row) => [row.name, row.modes.enforce, row.modes.warn, row.modes.audit, row.rejected.map((w) => `${w.kind}/${w.name}`)])).toEqual([
      ['payments', { policy: 'restricted:v1.35', from: 'label' }, { policy: 'restricted:v1.35', from: 'enforce' }, { policy: 'privileged:latest', from: 'default' }, ['Pod/debug']],
      ['search', { policy: 'baseline:latest', from: 'label' }, { policy: 'restricted:v1.30', from: 'label' }, { policy: 'privileged:latest', from: 'default' }, ['Deployment/indexer']],
      // tools is privileged: its workloads are never read (nothing can reject them).
      ['tools', { policy: 'privileged:latest', from: 'default' }, { policy: 'privileged:latest', from: 'default' }, { policy: 'privileged:latest', from: 'default' }, []],
    ]);
    expect(psa.namespaces[0]!.rejected[0]!.message).toMatch(/^pods "debug" is forbidden: violates PodSecurity "restricted:v1\.35": privileged/);
    expect(psa.namespaces[1]!.rejected[0]!.message).toBe('admitted, but the Pods it creates are rejected: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)');

    const text = formatText(report);
    expect(text).toContain('Pod Security per namespace (configuration built-in (no --pod-security-config): defaults enforce privileged:latest, warn privileged:latest, audit privileged:latest; workloads that name no namespace are in default):');
    expect(text).toContain(`  payments (${file}): enforce restricted:v1.35 (label), warn restricted:v1.35 (follows enforce), audit privileged:latest (default)\n    rejected by enforce: Pod debug (${file}:23): pods "debug" is forbidden`);
    expect(formatMarkdown(report)).toContain('| search |');
    expect(formatHtml(report)).toContain('<table id="pod-security-namespaces">');
    expect(JSON.parse(formatJson(report)).podSecurity.namespaces).toHaveLength(3);
  });

  it('with a configuration: exempt namespaces, defaults for namespaces without a manifest, and the default namespace', async () => {
    const config = join(work, 'psa.yaml');
    writeFileSync(config, 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\nexemptions:\n  namespaces: [ops]\n');
    const file = join(work, 'pods.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ops}\nspec:\n  hostPID: true\n  containers: [{name: a, image: busybox}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  hostPID: true\n  containers: [{name: b, image: busybox}]\n');
    const report = await buildReport({ paths: [file], kubeVersion: DEFAULT_KUBE_VERSION, toolVersion: 'test', podSecurity: podSecuritySettingsFrom({ podSecurityConfig: config, namespace: 'team-a' }) });
    expect(report.podSecurity.namespaces.map((row) => [row.name, row.file, row.exempt, row.rejected.map((w) => `${w.name}${w.namespaceAssumed ? ' (assumed)' : ''}`)])).toEqual([
      ['ops', null, true, []],
      ['team-a', null, false, ['b (assumed)']],
    ]);
    expect(formatText(report)).toContain('  ops (no Namespace manifest in the run: the defaults): exempt (exemptions.namespaces): nothing in it is checked');
  });

  it('says the plugin is off before 1.23', async () => {
    const file = join(work, 'all.yaml');
    writeFileSync(file, MANIFESTS);
    const report = await buildReport({ paths: [file], kubeVersion: { major: 1, minor: 22 }, toolVersion: 'test' });
    expect(report.podSecurity.enabled).toBe(false);
    expect(formatText(report)).toContain('Pod Security per namespace (the PodSecurity admission plugin is off by default before Kubernetes 1.23: nothing is checked):');
  });
});
