/**
 * Services in the model (src/engine/load-run.ts, src/match/services.ts): read only from inputs
 * that hold a webhook configuration, without changing what else a run reads or counts; matched
 * to a webhook's service reference only where the run can tell; resolved as kube-apiserver
 * resolves a webhook's port. And the two rules that read them: webhook-service-port and the
 * self-exemption of editable-object-selector.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRun, runScope } from '../src/engine/load-run.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { lacksPort, serviceReference, servicesNamed, webhookServices } from '../src/match/services.js';
import type { ServiceObject } from '../src/model/objects.js';
import { DEFAULT_POD_SECURITY_SETTINGS } from '../src/psa/run-policy.js';
import { lintText } from './helpers.js';

const load = (text: string, withPodSecurity = false) =>
  loadRun(['-'], () => new TextEncoder().encode(text), withPodSecurity ? { podSecurity: { settings: DEFAULT_POD_SECURITY_SETTINGS, kubeVersion: DEFAULT_KUBE_VERSION } } : {});

function service(name: string, spec: string, namespace: string | null = 'guard'): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
${namespace === null ? '' : `  namespace: ${namespace}\n`}spec:
${spec}
`;
}

const PORT_8443 = '  selector: {app: guard}\n  ports:\n    - {name: https, port: 8443, targetPort: 443}';

function webhook(name: string, reference: string, options: { readonly failurePolicy?: string; readonly extra?: string } = {}): string {
  return `  - name: ${name}
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: ${options.failurePolicy ?? 'Fail'}
    timeoutSeconds: 5
    namespaceSelector:
      matchExpressions:
        - {key: kubernetes.io/metadata.name, operator: NotIn, values: ["kube-system", "guard"]}
    clientConfig:
      service: ${reference}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
${options.extra ?? ''}`;
}

function configuration(...webhooks: string[]): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: guard
webhooks:
${webhooks.join('')}`;
}

const BUNDLE = [service('guard-webhook', PORT_8443), configuration(webhook('pods.guard.example.com', '{namespace: guard, name: guard-webhook, path: /pods}'))].join('---\n');

describe('Services in the run', () => {
  it('are read from an input that holds a webhook configuration, with namespace, type, ports and selector', () => {
    const run = load(BUNDLE);
    expect(run.services).toHaveLength(1);
    const [read] = run.services;
    expect(read).toMatchObject({ name: 'guard-webhook', namespace: 'guard', type: 'ClusterIP', clusterIP: undefined, ports: [{ port: 8443, name: 'https' }], selector: { app: 'guard' } });
    expect(runScope(run, DEFAULT_KUBE_VERSION).services).toBe(run.services);
  });

  it('are never read from an input without a webhook configuration', () => {
    const run = load([service('guard-webhook', PORT_8443), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: guard\n'].join('---\n'));
    expect(run.services).toEqual([]);
    expect(run.namespaces).toHaveLength(1);
  });

  it('keep an unwritten namespace unknown, never assumed', () => {
    const run = load([service('guard-webhook', PORT_8443, null), configuration(webhook('pods.guard.example.com', '{namespace: guard, name: guard-webhook}'))].join('---\n'));
    expect(run.services.map((read) => read.namespace)).toEqual([undefined]);
  });

  it('change no count, and no workload read or settled, of a run (differential: the same bundle with its Services unreadable as such)', () => {
    // A Namespace with a Pod Security level: its workloads are read. A Deployment elsewhere whose
    // text names "Service" is read only as a possible Service, never as a workload.
    const bundle = [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: guard\n  labels:\n    pod-security.kubernetes.io/enforce: restricted\n',
      service('guard-webhook', PORT_8443),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: other\n  namespace: elsewhere\n  annotations: {note: "exposed by a Service"}\nspec:\n  selector: {matchLabels: {app: other}}\n  template:\n    metadata: {labels: {app: other}}\n    spec:\n      containers: [{name: c, image: c}]\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: guard\n  namespace: guard\n  annotations: {note: "behind the Service guard-webhook"}\nspec:\n  selector: {matchLabels: {app: guard}}\n  template:\n    metadata: {labels: {app: guard}}\n    spec:\n      containers: [{name: c, image: c}]\n',
      'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: guard\n  namespace: guard\n',
      configuration(webhook('pods.guard.example.com', '{namespace: guard, name: guard-webhook}')),
    ].join('---\n');
    const counts = (text: string) => {
      const run = load(text, true);
      return { documents: run.documents, skipped: run.skipped, workloads: run.workloads.map((read) => read.name), settled: run.settledWorkloads, objects: run.webhookConfigurations.length, namespaces: run.namespaces.length };
    };
    const withServices = load(bundle, true);
    expect(withServices.services).toHaveLength(1);
    // "Sxrvice" is no kind the linter reads, and no text names "Service": nothing is read for Services.
    const without = bundle.replaceAll('Service', 'Sxrvice');
    expect(load(without, true).services).toEqual([]);
    expect(counts(bundle)).toEqual(counts(without));
  });

  it('read types, ports and selectors as the API server decodes them, unknown where it would not', () => {
    const run = load(
      [
        service('headless', '  clusterIP: None\n  ports: [{port: 8443}]'),
        service('external', '  type: ExternalName\n  externalName: guard.example.com'),
        service('empty-type', '  type: ""\n  ports: [{port: 443}]'),
        service('templated', '  ports: [{port: "{{ .Values.port }}"}]\n  selector: {app: guard, tier: 1}'),
        service('no-ports', '  selector: {app: guard}'),
        configuration(webhook('pods.guard.example.com', '{namespace: guard, name: headless}')),
      ].join('---\n'),
    );
    const byName = new Map(run.services.map((read) => [read.name, read]));
    expect(byName.get('headless')).toMatchObject({ type: 'ClusterIP', clusterIP: 'None', ports: [{ port: 8443 }] });
    expect(byName.get('external')).toMatchObject({ type: 'ExternalName', ports: [] });
    expect(byName.get('empty-type')?.type).toBe('ClusterIP');
    expect(byName.get('templated')).toMatchObject({ ports: [{ port: undefined }], selector: undefined });
    expect(byName.get('no-ports')?.ports).toEqual([]);
  });
});

describe('resolving a webhook port on its Service (k8s.io/apiserver pkg/util/proxy)', () => {
  const base: Omit<ServiceObject, 'type' | 'clusterIP' | 'ports'> = { category: 'service', manifest: undefined as never, name: 's', namespace: 'n', selector: undefined };
  const of = (type: string | undefined, ports: (number | undefined)[] | undefined, clusterIP?: string): ServiceObject => ({ ...base, type, clusterIP, ports: ports?.map((port) => ({ port, name: undefined })) });

  it('looks the port up among spec.ports[].port for ClusterIP (headless too), NodePort and LoadBalancer', () => {
    for (const type of ['ClusterIP', 'NodePort', 'LoadBalancer']) {
      expect(lacksPort(of(type, [8443]), 443)).toBe(true);
      expect(lacksPort(of(type, [80, 443]), 443)).toBe(false);
    }
    expect(lacksPort(of('ClusterIP', [8443], 'None'), 443)).toBe(true);
    expect(lacksPort(of('ClusterIP', []), 443)).toBe(true);
  });

  it('cannot tell for ExternalName (its port is not looked up), an unknown type, or a port not an integer', () => {
    expect(lacksPort(of('ExternalName', []), 443)).toBeUndefined();
    expect(lacksPort(of('Headless', [8443]), 443)).toBeUndefined();
    expect(lacksPort(of(undefined, [8443]), 443)).toBeUndefined();
    expect(lacksPort(of('ClusterIP', [8443, undefined]), 443)).toBeUndefined();
    expect(lacksPort(of('ClusterIP', undefined), 443)).toBeUndefined();
    // A port that is there settles it even beside one that is not known.
    expect(lacksPort(of('ClusterIP', [443, undefined]), 443)).toBe(false);
  });

  it('defaults an omitted reference port to 443', () => {
    expect(serviceReference({ clientConfig: { service: { namespace: 'n', name: 's' } } } as never)).toEqual({ namespace: 'n', name: 's', port: 443 });
    expect(serviceReference({ clientConfig: { url: 'https://x' } } as never)).toBeUndefined();
  });
});

describe("which Service is the webhook's", () => {
  const work = mkdtempSync(join(tmpdir(), 'services-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const scopeOf = (text: string) => runScope(load(text), DEFAULT_KUBE_VERSION);
  const hook = configuration(webhook('pods.guard.example.com', '{namespace: guard, name: guard-webhook}'));

  it('the one of its namespace and name', () => {
    const scope = scopeOf([service('guard-webhook', PORT_8443), service('guard-webhook', PORT_8443, 'other'), hook].join('---\n'));
    expect(servicesNamed(scope, 'guard', 'guard-webhook')?.map((read) => read.namespace)).toEqual(['guard']);
    expect(servicesNamed(scope, 'guard', 'absent')).toBeUndefined();
  });

  it('none while a copy of the name without a namespace is in the run', () => {
    const scope = scopeOf([service('guard-webhook', PORT_8443), service('guard-webhook', PORT_8443, null), hook].join('---\n'));
    expect(servicesNamed(scope, 'guard', 'guard-webhook')).toBeUndefined();
  });

  it('none while a document the run could not read may be one of that name', () => {
    const scope = scopeOf([service('guard-webhook', PORT_8443), 'apiVersion: v1\nkind: Service\nmetadata: {name: guard-webhook, namespace: guard\n', hook].join('---\n'));
    expect(scope.unreadable.length).toBeGreaterThan(0);
    expect(servicesNamed(scope, 'guard', 'guard-webhook')).toBeUndefined();
  });

  it('none while a kustomize patch of the run changes a Service of that name', () => {
    const write = (dir: string, files: Record<string, string>): string => {
      mkdirSync(join(work, dir));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(work, dir, name), text);
      return join(work, dir);
    };
    const bundle = [service('guard-webhook', PORT_8443), hook].join('---\n');
    const patched = write('patched', {
      'kustomization.yaml': 'resources: [bundle.yaml]\npatches:\n  - path: port.yaml\n',
      'bundle.yaml': bundle,
      'port.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: guard-webhook\n  namespace: guard\nspec:\n  ports: [{name: https, port: 443}]\n',
    });
    const plain = write('plain', { 'kustomization.yaml': 'resources: [bundle.yaml]\n', 'bundle.yaml': bundle });
    const named = (dir: string) => servicesNamed(runScope(loadRun([dir]), DEFAULT_KUBE_VERSION), 'guard', 'guard-webhook');
    expect(named(plain)).toHaveLength(1);
    expect(named(patched)).toBeUndefined();
  });

  it('found for a webhook through its clientConfig', () => {
    const scope = scopeOf([service('guard-webhook', PORT_8443), hook].join('---\n'));
    const object = scope.webhookConfigurations[0]!;
    expect(webhookServices(scope, object.effective.webhooks![0]!)?.reference).toEqual({ namespace: 'guard', name: 'guard-webhook', port: 443 });
  });
});

describe('webhook-service-port', () => {
  const only = { only: ['webhook-service-port'] };

  it('is an error under Fail and under Ignore, at the written port or at the reference', async () => {
    const text = [
      service('guard-webhook', PORT_8443),
      configuration(
        webhook('fail.guard.example.com', '{namespace: guard, name: guard-webhook, path: /fail}'),
        webhook('ignore.guard.example.com', '{namespace: guard, name: guard-webhook, path: /ignore, port: 443}', { failurePolicy: 'Ignore' }),
        webhook('right.guard.example.com', '{namespace: guard, name: guard-webhook, path: /right, port: 8443}'),
      ),
    ].join('---\n');
    const findings = await lintText(text, only);
    expect(findings.map((finding) => [finding.severity, finding.fieldPath, finding.message])).toEqual([
      ['error', 'webhooks[0].clientConfig.service', 'webhook "fail.guard.example.com" calls port 443 of Service guard/guard-webhook, which has port 8443: every call fails'],
      ['error', 'webhooks[1].clientConfig.service.port', 'webhook "ignore.guard.example.com" calls port 443 of Service guard/guard-webhook, which has port 8443: every call fails'],
    ]);
  });

  it('names a Service without ports, and keeps long names and many ports within one line', async () => {
    const long = `guard-${'x'.repeat(56)}`;
    const ports = Array.from({ length: 9 }, (_, index) => `{port: ${8000 + index}}`).join(', ');
    const text = [
      service(long, `  ports: [${ports}]`, long),
      service('guard-empty', '  clusterIP: None'),
      configuration(
        webhook(`${'y'.repeat(60)}.guard.example.com`, `{namespace: ${long}, name: ${long}}`),
        webhook('empty.guard.example.com', '{namespace: guard, name: guard-empty}'),
      ),
    ].join('---\n');
    const findings = await lintText(text, only);
    expect(findings).toHaveLength(2);
    for (const finding of findings) expect(finding.message.length).toBeLessThanOrEqual(160);
    expect(findings[0]!.message).toContain('ports 8000, 8001 and 7 more');
    expect(findings[1]!.message).toBe('webhook "empty.guard.example.com" calls port 443 of Service guard/guard-empty, which has no ports: every call fails');
  });

  it('says nothing when the run cannot tell: no Service, an ExternalName one, copies that disagree, the API server itself', async () => {
    const text = [
      service('external', '  type: ExternalName\n  externalName: guard.example.com'),
      service('twice', PORT_8443),
      service('twice', '  ports: [{port: 443}]'),
      service('kubernetes', '  ports: [{port: 6443}]', 'default'),
      configuration(
        webhook('absent.guard.example.com', '{namespace: guard, name: absent}'),
        webhook('external.guard.example.com', '{namespace: guard, name: external, port: 9443}'),
        webhook('twice.guard.example.com', '{namespace: guard, name: twice}'),
        webhook('self.guard.example.com', '{namespace: default, name: kubernetes}'),
      ),
    ].join('---\n');
    expect(await lintText(text, only)).toEqual([]);
  });

  it('says nothing about a webhook no request reaches', async () => {
    const text = [service('guard-webhook', PORT_8443), configuration(webhook('pods.guard.example.com', '{namespace: guard, name: guard-webhook}').replace(/rules:\n.*\n/, 'rules: []\n'))].join('---\n');
    expect(await lintText(text, only)).toEqual([]);
  });
});

describe('editable-object-selector: the self-exemption', () => {
  const only = { only: ['editable-object-selector'] };
  const selector = (values: string) => `    objectSelector:\n      matchExpressions:\n        - {key: app, operator: NotIn, values: ${values}}\n`;

  it('is named, info under Ignore and warning under Fail', async () => {
    const text = [
      service('guard-webhook', PORT_8443),
      configuration(
        webhook('ignore.guard.example.com', '{namespace: guard, name: guard-webhook, port: 8443}', { failurePolicy: 'Ignore', extra: selector('[guard]') }),
        webhook('fail.guard.example.com', '{namespace: guard, name: guard-webhook, port: 8443}', { extra: selector('[guard]') }),
      ),
    ].join('---\n');
    const findings = await lintText(text, only);
    expect(findings.map((finding) => [finding.severity, finding.message])).toEqual([
      ['info', 'webhook "ignore.guard.example.com" skips "app" (NotIn) to exempt the pods of its own Service guard/guard-webhook; any pod can carry it'],
      ['warning', 'webhook "fail.guard.example.com" skips "app" (NotIn) to exempt the pods of its own Service guard/guard-webhook; any pod can carry it'],
    ]);
    expect(findings[0]!.help).toContain('kubernetes.io/metadata.name');
  });

  it('is an ordinary opt-out when the values skip more, the label is another, or the Service is not the webhook\'s', async () => {
    const text = [
      service('guard-webhook', PORT_8443),
      service('elsewhere', PORT_8443, 'other'),
      configuration(
        webhook('more.guard.example.com', '{namespace: guard, name: guard-webhook, port: 8443}', { failurePolicy: 'Ignore', extra: selector('[guard, debug]') }),
        webhook('other-value.guard.example.com', '{namespace: guard, name: guard-webhook, port: 8443}', { failurePolicy: 'Ignore', extra: selector('[debug]') }),
        webhook('other-namespace.guard.example.com', '{namespace: guard, name: elsewhere, port: 8443}', { failurePolicy: 'Ignore', extra: selector('[guard]') }),
        webhook('exists.guard.example.com', '{namespace: guard, name: guard-webhook, port: 8443}', { failurePolicy: 'Ignore', extra: '    objectSelector:\n      matchExpressions:\n        - {key: app, operator: DoesNotExist}\n' }),
      ),
    ].join('---\n');
    const findings = await lintText(text, only);
    expect(findings.map((finding) => finding.severity)).toEqual(['warning', 'warning', 'warning', 'warning']);
    for (const finding of findings) expect(finding.message).not.toContain('own Service');
  });
});
