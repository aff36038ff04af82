/**
 * generic-configuration-name judges the name the cluster gets: as written for a file no
 * kustomization of the run builds, else as the run's top builds give it (src/match/kustomize-names.ts).
 * controller-gen's output before its build (the Service still in the scaffold's namespace `system`)
 * is judged only through a build of the run that moves it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('generic-configuration-name-test');
const ID = 'generic-configuration-name';

async function findings(paths: string[]): Promise<string[]> {
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => rule.meta.id !== ID).map((rule) => [rule.meta.id, 'off']));
  const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' });
  return report.findings.map((f) => `${f.file.split('/').slice(-2).join('/')}:${f.line} ${f.severity} ${f.message.split(':')[0]}`);
}

const generated = (namespace: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
  - name: vwidget.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig:
      service: {name: webhook-service, namespace: ${namespace}, path: /validate}
    rules:
      - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
`;
const SCAFFOLD = generated('system');
const WEBHOOK_KUSTOMIZATION = 'resources: [manifests.yaml]\n';

describe('generic-configuration-name', () => {
  it('reports a file applied as it is, whose Service is in a real namespace', async () => {
    const root = folder({ 'install.yaml': generated('widgets-system') });
    expect(await findings([join(root, 'install.yaml')])).toEqual([`${root.split('/').pop()}/install.yaml:4 warning ValidatingWebhookConfiguration "validating-webhook-configuration" has controller-gen's default name`]);
  });

  it('leaves controller-gen output before its build alone: alone, or with the kustomization beside it', async () => {
    const root = folder({ 'webhook/manifests.yaml': SCAFFOLD, 'webhook/kustomization.yaml': WEBHOOK_KUSTOMIZATION });
    expect(await findings([join(root, 'webhook', 'manifests.yaml')])).toEqual([]);
    expect(await findings([join(root, 'webhook')])).toEqual([]);
  });

  it('leaves a base alone when the build that moves it gives it a prefix', async () => {
    const root = folder({
      'webhook/manifests.yaml': SCAFFOLD,
      'webhook/kustomization.yaml': WEBHOOK_KUSTOMIZATION,
      'default/kustomization.yaml': 'namespace: widgets-system\nnamePrefix: widgets-\nresources: [../webhook]\n',
    });
    expect(await findings([root])).toEqual([]);
  });

  it('reports a base whose build moves it and keeps the name (namePrefix commented out)', async () => {
    const root = folder({
      'webhook/manifests.yaml': SCAFFOLD,
      'webhook/kustomization.yaml': WEBHOOK_KUSTOMIZATION,
      'default/kustomization.yaml': 'namespace: widgets-system\n#namePrefix: widgets-\nresources: [../webhook]\n',
    });
    const found = await findings([root]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^webhook\/manifests\.yaml:4 warning ValidatingWebhookConfiguration "validating-webhook-configuration" has controller-gen's default name as .*default builds it$/);
  });

  it('follows a replacement that writes other fields, and leaves alone one that may write the name (review s44gcn 1)', async () => {
    const replacement = (fieldPath: string): string =>
      `namespace: widgets-system\nresources: [../webhook]\nreplacements:\n- source: {kind: Service, name: webhook-service, fieldPath: metadata.name}\n  targets:\n  - select: {kind: ValidatingWebhookConfiguration}\n    fieldPaths: [${fieldPath}]\n`;
    const tree = (fieldPath: string): string => folder({ 'webhook/manifests.yaml': SCAFFOLD, 'webhook/kustomization.yaml': WEBHOOK_KUSTOMIZATION, 'default/kustomization.yaml': replacement(fieldPath) });
    expect(await findings([tree('webhooks.*.clientConfig.service.name')])).toHaveLength(1);
    expect(await findings([tree('metadata.name')])).toEqual([]);
  });

  it('does not judge a configuration a patch may rename', async () => {
    const rename = "namespace: widgets-system\nresources: [../webhook]\npatches:\n- target: {kind: ValidatingWebhookConfiguration}\n  patch: '[{\"op\": \"replace\", \"path\": \"/metadata/name\", \"value\": \"widgets-validating\"}]'\n";
    const root = folder({ 'webhook/manifests.yaml': SCAFFOLD, 'webhook/kustomization.yaml': WEBHOOK_KUSTOMIZATION, 'default/kustomization.yaml': rename });
    expect(await findings([root])).toEqual([]);
  });

  it('says once for the configurations of one file', async () => {
    const mutating = generated('widgets-system').replace('ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration').replace('name: validating-webhook-configuration', 'name: mutating-webhook-configuration');
    const root = folder({ 'install.yaml': `${generated('widgets-system')}---\n${mutating}` });
    const found = await findings([join(root, 'install.yaml')]);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('configurations "validating-webhook-configuration" and "mutating-webhook-configuration" have');
  });
});
