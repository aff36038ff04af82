/**
 * namespace-opts-out over a run of one validating webhook configuration and several Namespaces:
 * it fires on exactly the Namespaces whose labels take them out of the webhook, at the label.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/engine/finding.js';
import { lintText, type LintTextOptions } from './helpers.js';

const CONFIGURATION = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: registry-policy
webhooks:
  - name: pods.registry-policy.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    clientConfig:
      service:
        namespace: registry-policy
        name: registry-policy-webhook
        path: /validate-pods
    rules:
      - operations: ["CREATE", "UPDATE"]
        apiGroups: [""]
        apiVersions: ["v1"]
        resources: ["pods"]
    namespaceSelector:
      matchExpressions:
        - key: registry-policy.example.com/ignore
          operator: DoesNotExist
        - key: registry-policy.example.com/mode
          operator: NotIn
          values: ["off"]
`;

const namespace = (name: string, labels: Record<string, string> = {}): string => {
  const entries = Object.entries(labels);
  const block = entries.length === 0 ? '' : `\n  labels:\n${entries.map(([key, value]) => `    ${key}: "${value}"`).join('\n')}`;
  return `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}${block}\n`;
};

const run = (...documents: string[]): string => documents.join('---\n');

const lint = (text: string, options: LintTextOptions = {}): Promise<Finding[]> => lintText(text, { ...options, only: ['namespace-opts-out'] });

/** The 1-based line of the first line at or after `after` that contains `needle`. */
function lineOf(text: string, needle: string, after = 1): number {
  const lines = text.split('\n');
  const index = lines.findIndex((line, i) => i + 1 >= after && line.includes(needle));
  if (index < 0) throw new Error(`${needle} not in the text`);
  return index + 1;
}

describe('namespace-opts-out', () => {
  const text = run(
    CONFIGURATION,
    // Opts out by the presence of a label (DoesNotExist).
    namespace('team-ignored', { team: 'a', 'registry-policy.example.com/ignore': 'legacy-images' }),
    // Opts out by a label value that a NotIn lists.
    namespace('team-off', { 'registry-policy.example.com/mode': 'off' }),
    // Selected: a value the NotIn does not list, and no labels at all.
    namespace('team-on', { 'registry-policy.example.com/mode': 'enforce' }),
    namespace('team-plain'),
    // Exempt: kube-system, and the webhook's own Service namespace.
    namespace('kube-system', { 'registry-policy.example.com/ignore': 'true' }),
    namespace('registry-policy', { 'registry-policy.example.com/ignore': 'true' }),
  );

  it('fires on exactly the namespaces that opt out, at the label that does it', async () => {
    const findings = await lint(text);
    const ignoredLine = lineOf(text, 'registry-policy.example.com/ignore', lineOf(text, 'name: team-ignored'));
    const offLine = lineOf(text, 'registry-policy.example.com/mode', lineOf(text, 'name: team-off'));
    expect(findings.map((f) => ({ name: f.object?.name, kind: f.object?.kind, severity: f.severity, at: [f.line, f.column, f.endLine, f.endColumn], path: f.fieldPath }))).toEqual([
      {
        name: 'team-ignored',
        kind: 'Namespace',
        severity: 'warning',
        at: [ignoredLine, 5, ignoredLine, 5 + 'registry-policy.example.com/ignore: "legacy-images"'.length],
        path: 'metadata.labels[registry-policy.example.com/ignore]',
      },
      {
        name: 'team-off',
        kind: 'Namespace',
        severity: 'warning',
        at: [offLine, 5, offLine, 5 + 'registry-policy.example.com/mode: "off"'.length],
        path: 'metadata.labels[registry-policy.example.com/mode]',
      },
    ]);
    expect(findings[0]!.message).toBe('Namespace "team-ignored" opts out of webhook "pods.registry-policy.example.com" with its label "registry-policy.example.com/ignore=legacy-images"');
    expect(findings[0]!.help).toMatch(
      /^Without its label "registry-policy\.example\.com\/ignore=legacy-images", the namespaceSelector of webhook "pods\.registry-policy\.example\.com" of ValidatingWebhookConfiguration "registry-policy" selects this namespace \(CREATE pods \(v1\) here would be validated\), so whoever can edit the namespace's labels can switch that validation off\. /,
    );
    expect(findings[1]!.message).toContain('with its label "registry-policy.example.com/mode=off"');
  });

  it('names both labels when each alone keeps the webhook out, at the first one written', async () => {
    const both = run(CONFIGURATION, namespace('team-both', { 'registry-policy.example.com/mode': 'off', 'registry-policy.example.com/ignore': '' }));
    const findings = await lint(both);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.fieldPath).toBe('metadata.labels[registry-policy.example.com/mode]');
    expect(findings[0]!.line).toBe(lineOf(both, 'registry-policy.example.com/mode', lineOf(both, 'name: team-both')));
    // The message caps the list to stay one line; the help names them all.
    expect(findings[0]!.message).toContain('with its labels "registry-policy.example.com/mode=off" and 1 more');
    expect(findings[0]!.help).toContain('Without its labels "registry-policy.example.com/mode=off" and "registry-policy.example.com/ignore" (empty value), the namespaceSelector');
  });

  it('does not report an opt-out label when the namespace is excluded by name anyway', async () => {
    const byName = CONFIGURATION.replace(
      '          values: ["off"]\n',
      '          values: ["off"]\n        - key: kubernetes.io/metadata.name\n          operator: NotIn\n          values: ["team-ignored"]\n',
    );
    expect(await lint(run(byName, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' })))).toEqual([]);
  });

  it('counts validating webhooks only', async () => {
    const mutating = CONFIGURATION.replace('kind: ValidatingWebhookConfiguration', 'kind: MutatingWebhookConfiguration');
    expect(await lint(run(mutating, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' })))).toEqual([]);
  });

  it('trusts the keys given with --trusted-namespace-label', async () => {
    const trusted = run(CONFIGURATION, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' }), namespace('team-off', { 'registry-policy.example.com/mode': 'off' }));
    const findings = await lint(trusted, { trustedNamespaceLabels: ['registry-policy.example.com/ignore'] });
    expect(findings.map((f) => f.object?.name)).toEqual(['team-off']);
  });

  it('skips webhooks whose rules match only cluster-scoped objects, which never consult the selector', async () => {
    const nodes = CONFIGURATION.replace('resources: ["pods"]', 'resources: ["nodes"]');
    expect(await lint(run(nodes, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' })))).toEqual([]);
  });

  it('reports a webhook on Namespace objects: their own labels decide', async () => {
    const namespaces = CONFIGURATION.replace('resources: ["pods"]', 'resources: ["namespaces"]');
    const findings = await lint(run(namespaces, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' })));
    expect(findings.map((f) => f.help)).toEqual([expect.stringContaining('(CREATE of the Namespace itself here would be validated)')]);
  });

  it('does not count v1beta1 configurations, which are not served from 1.22', async () => {
    const v1beta1 = CONFIGURATION.replace('admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1');
    expect(await lint(run(v1beta1, namespace('team-ignored', { 'registry-policy.example.com/ignore': 'true' })))).toEqual([]);
  });

  it('reports namespaces that lack an opt-in label only with optIn=report, as info', async () => {
    const optIn = CONFIGURATION.replace(
      /    namespaceSelector:\n[\s\S]*$/,
      '    namespaceSelector:\n      matchLabels:\n        registry-policy.example.com/enforce: "true"\n',
    );
    const text = run(optIn, namespace('team-in', { 'registry-policy.example.com/enforce': 'true' }), namespace('team-out'));
    expect(await lint(text)).toEqual([]);
    const findings = await lint(text, { ruleOptions: new Map([['namespace-opts-out', { optIn: 'report' }]]) });
    expect(findings.map((f) => [f.object?.name, f.severity, f.fieldPath, f.line])).toEqual([['team-out', 'info', 'metadata.name', lineOf(text, 'name: team-out')]]);
    expect(findings[0]!.message).toBe('Namespace "team-out" is not selected by the opt-in webhook "pods.registry-policy.example.com": it lacks the label "registry-policy.example.com/enforce=true" of Namespace "team-in"');
    expect(findings[0]!.help).toContain('Without the label "registry-policy.example.com/enforce=true" that Namespace "team-in" of the run has, CREATE pods (v1) here is not validated');
  });
});
