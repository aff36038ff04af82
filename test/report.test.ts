/**
 * `report`: per-webhook tables and the critical-resources matrix, against the real-world
 * corpus (skipped when absent) and fixtures/simulate. Expected marks were worked out by hand
 * from the manifests (the comments say why).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { buildReport, type BlastRadiusReport, type WebhookReport } from '../src/report/build.js';
import { formatHtml } from '../src/report/format-html.js';
import { formatJson } from '../src/report/format-json.js';
import { formatMarkdown } from '../src/report/format-markdown.js';

const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-world');
const FIXTURES = join(ROOT, 'fixtures', 'simulate', 'path.yaml');

async function reportFor(paths: string[], kubeVersion = DEFAULT_KUBE_VERSION): Promise<BlastRadiusReport> {
  return buildReport({ paths, kubeVersion, toolVersion: 'test' });
}

function webhook(report: BlastRadiusReport, name: string): WebhookReport {
  const found = report.webhooks.find((w) => w.webhook === name);
  if (!found) throw new Error(`no webhook ${name}`);
  return found;
}

/** The mark of `name` for the target whose label starts with `label`. */
function mark(report: BlastRadiusReport, name: string, label: string): string {
  const index = report.critical.targets.findIndex((target) => target.label.startsWith(label));
  if (index < 0) throw new Error(`no target ${label}`);
  return webhook(report, name).critical[index]!.mark;
}

describe.skipIf(!existsSync(CORPUS))('report against the real-world corpus', () => {
  it('Gatekeeper: what each webhook intercepts, the namespaces it selects, its findings, and who can block what', async () => {
    const report = await reportFor([join(CORPUS, 'gatekeeper--gatekeeper.yaml'), join(CORPUS, 'istio--istiod-pilot-default.yaml')]);
    // Mutating before validating, then by configuration name, then list order.
    expect(report.webhooks.map((w) => `${w.configuration}/${w.webhook}`).slice(0, 2)).toEqual(['gatekeeper-mutating-webhook-configuration/mutation.gatekeeper.sh', 'istio-sidecar-injector/rev.namespace.sidecar-injector.istio.io']);
    const mutation = webhook(report, 'mutation.gatekeeper.sh');
    expect(mutation.intercepts).toEqual([{ operations: ['CREATE', 'UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }]);
    expect(mutation).toMatchObject({ failurePolicy: 'Ignore', timeoutSeconds: 1, reinvocationPolicy: 'Never', matchPolicy: 'Exact' });
    // It excludes its own namespace (the Namespace manifest in the run) by name.
    expect(mutation.namespaces.run).toEqual([{ name: 'gatekeeper-system', selected: false }]);
    expect(mutation.namespaces.system.every((ns) => ns.selected)).toBe(true);
    expect(mutation.findings.map((f) => f.ruleId)).toContain('editable-namespace-selector');
    // The check-ignore-label webhook only intercepts Namespaces (cluster-scoped: its own labels decide).
    const checkLabel = webhook(report, 'check-ignore-label.gatekeeper.sh');
    expect(checkLabel).toMatchObject({ failurePolicy: 'Fail', reinvocationPolicy: null });
    // Critical resources: check-ignore-label (Fail) intercepts only Namespaces, and the control
    // plane writes none after bootstrap (the kube-system Namespace is created only when missing).
    expect(checkLabel.critical.every((cell) => cell.mark === 'none')).toBe(true);
    expect(mark(report, 'check-ignore-label.gatekeeper.sh', 'leases in kube-node-lease')).toBe('none');
    // The Ignore webhooks intercept everything but fail open: they can still deny.
    expect(mark(report, 'validation.gatekeeper.sh', 'leases in kube-node-lease')).toBe('can-deny');
    expect(mark(report, 'mutation.gatekeeper.sh', 'nodes')).toBe('can-deny');
    // Istio's injectors need opt-in labels that system pods do not carry.
    for (const name of ['rev.namespace.sidecar-injector.istio.io', 'rev.object.sidecar-injector.istio.io', 'namespace.sidecar-injector.istio.io', 'object.sidecar-injector.istio.io']) {
      expect(report.webhooks.find((w) => w.webhook === name)!.critical.every((cell) => cell.mark === 'none')).toBe(true);
    }
    const json = JSON.parse(formatJson(report));
    expect(json.critical.find((row: { resources: string }) => row.resources === 'namespaces')).toBeUndefined();
    const endpointsRow = json.critical.find((row: { resources: string }) => row.resources === 'endpoints, endpointslices of the default/kubernetes Service');
    expect(endpointsRow.webhooks).toContainEqual({ configuration: 'gatekeeper-validating-webhook-configuration', webhook: 'validation.gatekeeper.sh', mark: 'can-deny', operations: ['CREATE', 'UPDATE'] });
  });

  it('virtual resources are exempt from 1.37', async () => {
    const report = await reportFor([join(CORPUS, 'gatekeeper--gatekeeper.yaml')], { major: 1, minor: 37 });
    expect(mark(report, 'validation.gatekeeper.sh', 'tokenreviews')).toBe('exempt');
    const at135 = await reportFor([join(CORPUS, 'gatekeeper--gatekeeper.yaml')]);
    expect(mark(at135, 'validation.gatekeeper.sh', 'tokenreviews')).toBe('can-deny');
  });
});

describe('report with the fixtures', () => {
  it('marks a Fail webhook over everything (c-audit is Ignore) and one with an objectSelector the system objects lack', async () => {
    const report = await reportFor([FIXTURES]);
    // c-audit: failurePolicy Ignore, "*" in every group: can deny the main resources, not subresources.
    expect(mark(report, 'audit.c.example.com', 'leases in kube-node-lease')).toBe('can-deny');
    // z-owner needs the label team=a: system objects do not carry it.
    expect(webhook(report, 'owner.z.example.com').critical.every((cell) => cell.mark === 'none')).toBe(true);
    // a-defaulter intercepts pods (Fail): the system add-ons' pods in kube-system; its condition !request.dryRun is not about the requester.
    expect(mark(report, 'defaults.a.example.com', 'pods')).toBe('blocks');
    // b-injector's condition reads the user: the system requesters are system:*, so it is skipped for them.
    expect(mark(report, 'inject.b.example.com', 'pods')).toBe('none');
    expect(webhook(report, 'owner.z.example.com').namespaces.run).toEqual([{ name: 'team-a', selected: true }]);
    expect(webhook(report, 'audit.c.example.com').findings.map((f) => f.ruleId)).toContain('side-effects');
  });

  it('reads stdin once: the findings about each webhook are the same as from the file', async () => {
    const fromFile = await reportFor([FIXTURES]);
    const bytes = new Uint8Array(readFileSync(FIXTURES));
    let reads = 0;
    const fromStdin = await buildReport({ paths: ['-'], kubeVersion: DEFAULT_KUBE_VERSION, toolVersion: 'test', readStdin: () => (reads++ === 0 ? bytes : new Uint8Array()) });
    const findings = (report: BlastRadiusReport) => report.webhooks.map((w): [string, string[]] => [w.webhook, w.findings.map((f) => f.ruleId)]);
    expect(findings(fromStdin)).toEqual(findings(fromFile));
    expect(findings(fromFile).some(([, ids]) => ids.length > 0)).toBe(true);
    expect(reads).toBe(1);
  });

  it('the Markdown matrix has a column per webhook that intercepts a critical target, and one row per target; the HTML has no script or remote asset', async () => {
    const report = await reportFor([FIXTURES]);
    const markdown = formatMarkdown(report);
    const header = markdown.split('\n').find((line) => line.startsWith('| resource (what breaks)'))!;
    // Only the webhooks that intercept a critical target are columns.
    expect(header).toBe('| resource (what breaks) | a-defaulter / defaults.a.example.com | a-defaulter / labels.a.example.com | c-audit / audit.c.example.com |');
    expect(markdown).toContain('2 other webhooks intercept none of them: b-injector / inject.b.example.com, z-owner / owner.z.example.com.');
    const lines = markdown.split('\n');
    const start = lines.indexOf(header) + 2;
    const rows = lines.slice(start, lines.indexOf('', start));
    expect(rows).toHaveLength(report.critical.targets.length);
    expect(rows.find((row) => row.startsWith("| pods, pods/status")) ?? '').toMatch(/\| BLOCKS \(CREATE, UPDATE\) \| can deny \(UPDATE\) \| can deny \(CREATE, UPDATE\) \|$/);
    const html = formatHtml(report);
    expect(html).not.toMatch(/<script|<link|src=|url\(|https?:\/\//i);
    expect(html).toContain('<table id="critical-matrix">');
  });

  it('the command exits 0 and writes each format; a bad format exits 2', async () => {
    for (const format of ['text', 'json', 'markdown', 'html']) {
      let stdout = '';
      const code = await run(['report', FIXTURES, '--format', format], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true }, env: {} });
      expect(code).toBe(0);
      expect(stdout.length).toBeGreaterThan(100);
    }
    let stderr = '';
    const bad = await run(['report', FIXTURES, '--format', 'pdf'], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env: {} });
    expect(bad).toBe(2);
    expect(stderr).toContain("argument 'pdf' is invalid");
  });
});
