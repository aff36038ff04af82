/**
 * webhook-service-missing beyond its fixtures: the evidence must be in the configuration's own
 * input (its bundle), and a Service of that name anywhere in the run answers it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules as allRules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';

const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: widgets-system\n';
const service = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: widgets-system\nspec:\n  ports: [{port: 443}]\n`;
const CONFIGURATION = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: vwidget.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: widgets-system, name: widgets-webhook, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["widgets.example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

describe('webhook-service-missing', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** The rule's findings on a folder of these files (the other rules off). */
  const findings = async (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'al-svc-missing-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const overrides = new Map(allRules.filter((rule) => rule.meta.id !== 'webhook-service-missing').map((rule) => [rule.meta.id, 'off' as const]));
    return (await lint({ paths: [dir], rules: allRules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: overrides, ruleOptions: new Map(), toolVersion: 'test' })).findings;
  };
  const run = async (files: Record<string, string>): Promise<string[]> => (await findings(files)).map((f) => `${f.file.split('/').pop()} ${f.severity}`);

  it('reports a bundle that installs the namespace and its Services but not the one the webhook calls', async () => {
    expect(await run({ 'install.yaml': [NAMESPACE, service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual(['install.yaml warning']);
  });

  it('fits long names in one message of at most 160 characters', async () => {
    const long = (text: string): string => text.split('widgets-system').join(`${'n'.repeat(60)}-system`).replace('name: vwidget.example.com', `name: ${'w'.repeat(60)}.example.com`).replace('widgets-webhook', 'x'.repeat(63));
    const bundle = [long(NAMESPACE), ...Array.from({ length: 9 }, (_, i) => long(service(`${'s'.repeat(55)}-${i}`))), long(CONFIGURATION)].join('---\n');
    const found = await findings({ 'install.yaml': bundle });
    expect(found).toHaveLength(1);
    expect(found[0]!.message.length).toBeLessThanOrEqual(160);
  });

  it('says nothing where a bundle Service may render to the name, or in a namespace the API server creates', async () => {
    expect(await run({ 'install.yaml': [NAMESPACE, service('widgets-metrics'), service('$(SERVICE_NAME)'), CONFIGURATION].join('---\n') })).toEqual([]);
    const system = (text: string): string => text.split('widgets-system').join('kube-system');
    expect(await run({ 'install.yaml': [system(NAMESPACE), system(service('widgets-metrics')), system(CONFIGURATION)].join('---\n') })).toEqual([]);
  });

  it('says nothing when the Namespace is in another input, or the Service is in another input of the run', async () => {
    expect(await run({ 'a-namespace.yaml': NAMESPACE, 'b-install.yaml': [service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual([]);
    // Services are read only from inputs with a webhook configuration: while another input may hold one, absence proves nothing.
    expect(await run({ 'a-service.yaml': service('widgets-webhook'), 'b-install.yaml': [NAMESPACE, service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual([]);
    expect(await run({ 'a-service.yaml': service('unrelated'), 'b-install.yaml': [NAMESPACE, service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual([]);
    // An input with no Service in it changes nothing.
    expect(await run({ 'a-config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n', 'b-install.yaml': [NAMESPACE, service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual(['b-install.yaml warning']);
    expect(await run({ 'a-other-bundle.yaml': [service('widgets-webhook'), CONFIGURATION.replace('name: widgets\n', 'name: other\n')].join('---\n'), 'b-install.yaml': [NAMESPACE, service('widgets-metrics'), CONFIGURATION].join('---\n') })).toEqual([]);
  });
});
