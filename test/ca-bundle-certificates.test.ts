/**
 * ca-bundle with cert-manager Certificates in the run: read only from the inputs that hold a
 * webhook configuration, matched by the Service's namespace as written, never assumed; a
 * Certificate and no injector annotation is a warning, anything less stays the info.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRun } from '../src/engine/load-run.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { rules as allRules } from '../rules/index.js';
import { lintText } from './helpers.js';

const certificate = (namespace: string | null, dnsNames = '[widgets-webhook.widgets-system.svc]'): string => `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: serving-cert
${namespace === null ? '' : `  namespace: ${namespace}\n`}spec:
  dnsNames: ${dnsNames}
  secretName: webhook-server-cert
  issuerRef: {kind: Issuer, name: selfsigned}
`;

const configuration = (annotations = ''): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
${annotations}webhooks:
  - name: vwidget.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: widgets-system, name: widgets-webhook, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["widgets.example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

const caBundle = async (text: string): Promise<string[]> => (await lintText(text, { only: ['ca-bundle'] })).map((f) => `${f.severity} ${f.message}`);

describe('ca-bundle and cert-manager Certificates', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a Certificate in the webhook Service\'s namespace and no injector annotation: a warning naming it', async () => {
    expect(await caBundle(`${certificate('widgets-system')}---\n${configuration()}`)).toEqual([
      'warning no caBundle for webhook "vwidget.example.com": cert-manager issues Certificate widgets-system/serving-cert, but nothing injects a CA',
    ]);
    // Certificates that name no such host: how many there are.
    const two = `${certificate('widgets-system', '[SERVICE_NAME.SERVICE_NAMESPACE.svc]')}---\n${certificate('widgets-system', '[metrics]').replace('serving-cert', 'metrics-cert')}---\n${configuration()}`;
    expect(await caBundle(two)).toEqual(['warning no caBundle for webhook "vwidget.example.com": cert-manager issues 2 Certificates in widgets-system, but nothing injects a CA']);
  });

  it('stays the info when the annotation is there, or the Certificate is elsewhere or has no namespace', async () => {
    expect(await caBundle(`${certificate('widgets-system')}---\n${configuration('  annotations:\n    cert-manager.io/inject-ca-from: widgets-system/serving-cert\n')}`)).toEqual([]);
    const info = ['info no caBundle for webhook "vwidget.example.com", and nothing in this file provides it'];
    expect(await caBundle(`${certificate('other')}---\n${configuration()}`)).toEqual(info);
    expect(await caBundle(`${certificate(null)}---\n${configuration()}`)).toEqual(info);
  });

  it('reads Certificates only from the inputs that hold a webhook configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-certs-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a-certificate.yaml'), certificate('widgets-system'));
    writeFileSync(join(dir, 'b-webhook.yaml'), configuration());
    const run = loadRun([dir]);
    expect(run.certificates).toEqual([]);
    // Counted with the other documents, read or not.
    expect(run.skipped).toBe(1);
    const report = await lint({ paths: [dir], rules: allRules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), ruleOptions: new Map(), toolVersion: 'test' });
    expect(report.findings.filter((f) => f.ruleId === 'ca-bundle').map((f) => f.severity)).toEqual(['info']);
    // Another input's Certificate (another install variant in the run) says nothing of this configuration.
    writeFileSync(join(dir, 'a-certificate.yaml'), `${certificate('widgets-system')}---\n${configuration().replace('name: widgets\n', 'name: other-variant\n')}`);
    const variants = await lint({ paths: [dir], rules: allRules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), ruleOptions: new Map(), toolVersion: 'test' });
    expect(variants.findings.filter((f) => f.ruleId === 'ca-bundle').map((f) => `${f.file.split('/').pop()} ${f.severity}`)).toEqual(['a-certificate.yaml warning', 'b-webhook.yaml info']);
    // In one bundle it is read, and counted with the other documents, as before.
    writeFileSync(join(dir, 'b-webhook.yaml'), `${certificate('widgets-system')}---\n${configuration()}`);
    const bundled = loadRun([join(dir, 'b-webhook.yaml')]);
    expect(bundled.certificates.map((c) => `${c.namespace}/${c.name}`)).toEqual(['widgets-system/serving-cert']);
    expect(bundled.skipped).toBe(1);
  });
});
