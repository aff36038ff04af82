/**
 * Fields a kustomization fills in as it builds the file (src/match/kustomize-fills.ts): a var
 * substituted where its configurations' varReference names the field, and a webhook's service
 * namespace created by the namespace transformer. api-validation judges what the build applies,
 * and keeps reporting what the build leaves as written.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('kustomize-fills-test');

async function findings(paths: string[]): Promise<string[]> {
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => rule.meta.id !== 'api-validation').map((rule) => [rule.meta.id, 'off']));
  const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' });
  return report.findings.map((f) => `${f.severity}: ${f.message}`);
}

/** A webhook whose name holds a kustomize var and whose service has no namespace. */
const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service:
      name: service
      path: /apply
  sideEffects: None
  failurePolicy: Fail
  name: $(deploymentName).example.com
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
`;

const VARS = `vars:
- name: deploymentName
  objref: {apiVersion: apps/v1, kind: Deployment, name: deployment}
  fieldref: {fieldPath: metadata.name}
`;

const PARAMS = `varReference:
- path: webhooks/name
  kind: MutatingWebhookConfiguration
namespace:
- kind: MutatingWebhookConfiguration
  group: admissionregistration.k8s.io
  path: webhooks/clientConfig/service/namespace
  create: true
`;

const NAME_ERROR = 'error: webhooks[0].name is the unrendered placeholder "$(deploymentName).example.com"';
const NAMESPACE_ERROR =
  'error: webhooks[0].clientConfig.service.namespace: Required value: the service namespace is empty (the API server reports this as "webhooks[0].clientConfig.service.name: Required value", kubernetes/kubernetes#141353)';

describe('fields a kustomization fills in as it builds', () => {
  it('reports the var and the missing namespace of a file no kustomization lists', async () => {
    const dir = folder({ 'base/webhook.yaml': WEBHOOK });
    expect(await findings([join(dir, 'base')])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
  });

  it('judges neither when the kustomization declares the var, sets a namespace and configures both fields', async () => {
    const dir = folder({ 'base/webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS, 'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}` });
    expect(await findings([join(dir, 'base')])).toEqual([]);
    // The file alone: its kustomization beside it is read as well.
    expect(await findings([join(dir, 'base', 'webhook.yaml')])).toEqual([]);
  });

  it('keeps a var that the kustomization does not declare, or whose field no varReference names', async () => {
    const undeclared = folder({ 'base/webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS, 'base/kustomization.yaml': 'resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n' });
    expect(await findings([join(undeclared, 'base')])).toEqual([NAME_ERROR]);
    const unreferenced = folder({
      'base/webhook.yaml': WEBHOOK,
      'base/params.yaml': PARAMS.replace('path: webhooks/name', 'path: metadata/name'),
      'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}`,
    });
    expect(await findings([join(unreferenced, 'base')])).toEqual([NAME_ERROR]);
  });

  it('keeps the missing namespace without a namespace, without create: true, or with configurations it cannot read', async () => {
    const noNamespace = folder({ 'base/webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS, 'base/kustomization.yaml': `resources: [webhook.yaml]\nconfigurations: [params.yaml]\n${VARS}` });
    expect(await findings([join(noNamespace, 'base')])).toEqual([NAMESPACE_ERROR]);
    const noCreate = folder({ 'base/webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS.replace('create: true', 'create: false'), 'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}` });
    expect(await findings([join(noCreate, 'base')])).toEqual([NAMESPACE_ERROR]);
    const missing = folder({ 'base/webhook.yaml': WEBHOOK, 'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}` });
    expect(await findings([join(missing, 'base')])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
  });

  it('keeps both when another kustomization lists the file without filling them', async () => {
    const dir = folder({
      'base/webhook.yaml': WEBHOOK,
      'base/params.yaml': PARAMS,
      'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}`,
      'other/kustomization.yaml': 'resources: [../base/webhook.yaml]\n',
    });
    expect(await findings([dir])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
  });

  it('keeps a field spec of another version, and reads one written with list markers or a leading slash', async () => {
    const versioned = folder({
      'base/webhook.yaml': WEBHOOK,
      'base/params.yaml': PARAMS.replaceAll('kind: MutatingWebhookConfiguration', 'kind: MutatingWebhookConfiguration\n  version: v1beta1'),
      'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}`,
    });
    expect(await findings([join(versioned, 'base')])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
    const spelled = folder({
      'base/webhook.yaml': WEBHOOK,
      'base/params.yaml': PARAMS.replace('path: webhooks/name', 'path: /webhooks[]/name').replace('path: webhooks/clientConfig', 'path: webhooks[]/clientConfig').replaceAll('kind: MutatingWebhookConfiguration', 'kind: MutatingWebhookConfiguration\n  version: v1'),
      'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}`,
    });
    expect(await findings([join(spelled, 'base')])).toEqual([]);
  });

  it("keeps both for a file outside the kustomization's folder, which kustomize refuses to load", async () => {
    const parent = folder({ 'webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS, 'base/kustomization.yaml': `resources: [../webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}` });
    expect(await findings([parent])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
    const linked = folder({ 'elsewhere/webhook.yaml': WEBHOOK, 'base/params.yaml': PARAMS, 'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}` });
    symlinkSync(join(linked, 'elsewhere', 'webhook.yaml'), join(linked, 'base', 'webhook.yaml'));
    // A walk does not follow a link to a file; named on the command line, the link is read.
    expect(await findings([join(linked, 'base', 'webhook.yaml')])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
  });

  it('keeps a field spec of another kind', async () => {
    const dir = folder({
      'base/webhook.yaml': WEBHOOK,
      'base/params.yaml': PARAMS.replaceAll('kind: MutatingWebhookConfiguration', 'kind: ValidatingWebhookConfiguration'),
      'base/kustomization.yaml': `resources: [webhook.yaml]\nnamespace: tools\nconfigurations: [params.yaml]\n${VARS}`,
    });
    expect(await findings([join(dir, 'base')])).toEqual([NAMESPACE_ERROR, NAME_ERROR]);
  });
});
