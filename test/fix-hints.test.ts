/**
 * The fixes that depend on what a finding is about (an unserved resource, a boolean where a
 * string is wanted, an unguarded field read) take it from the rule's structured data
 * (Finding.fixHint, src/rule.ts), never from the message: a reworded message keeps every fix.
 * The data is not printed (the JSON fields are design.md §4's).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint } from '../src/engine/lint.js';
import { fixFileText } from '../src/fix/fix-file.js';
import { formatJson } from '../src/format/json.js';
import { formatSarif } from '../src/format/sarif.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';

const HOOKS = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    matchConditions:
      - name: no-init
        expression: 'object.spec.initContainers.size() == 0'
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: status
webhooks:
  - name: status.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    rules:
      - {operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods", "pods/statuz"]}
---
# A schema error makes its object undecodable (the other rules skip it): in a document of its own.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: labels
webhooks:
  - name: labels.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    objectSelector:
      matchLabels: {inject: on}
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

async function lintText(text: string): Promise<{ file: string; findings: Finding[]; report: Awaited<ReturnType<typeof lint>> }> {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-fix-hints-'));
  const file = join(dir, 'hooks.yaml');
  writeFileSync(file, text);
  const report = await lint({ paths: [file], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  return { file, findings: [...report.findings], report };
}

const planned = (file: string, findings: readonly Finding[]) => {
  const result = fixFileText(file, HOOKS, findings);
  return { text: result.text, fixes: result.applied.map((fix) => `${fix.ruleId}: ${fix.description}`), suggestions: result.suggestions.map((fix) => `${fix.ruleId}: ${fix.description}`) };
};

describe('fixes read the rule\'s data, not the message', async () => {
  const { file, findings, report } = await lintText(HOOKS);

  it('the rules attach the data', () => {
    const hint = (ruleId: string) => findings.find((finding) => finding.ruleId === ruleId)?.fixHint;
    expect(hint('unknown-resource')).toEqual({ kind: 'unserved-resource' });
    expect(hint('schema')).toEqual({ kind: 'boolean-for-string' });
    expect(hint('match-condition-missing-field')).toEqual({ kind: 'unguarded-field', field: 'object.spec.initContainers' });
  });

  it('a reworded message plans the same fixes and suggestions', () => {
    const original = planned(file, findings);
    expect(original.fixes.some((fix) => fix.startsWith('unknown-resource: remove "pods/statuz"'))).toBe(true);
    expect(original.fixes.some((fix) => fix.startsWith('schema: quote on'))).toBe(true);
    expect(original.suggestions.some((fix) => fix.startsWith('match-condition-missing-field: test for the field first: has(object.spec.initContainers)'))).toBe(true);
    const reworded = planned(file, findings.map((finding) => ({ ...finding, message: `reworded: ${finding.ruleId}` })));
    expect(reworded).toEqual(original);
  });

  it('without the data, none of the three is planned (the message alone selects nothing)', () => {
    const bare = planned(file, findings.map(({ fixHint: _dropped, ...finding }) => finding));
    expect(bare.fixes.filter((fix) => /^(unknown-resource|schema):/.test(fix))).toEqual([]);
    expect(bare.suggestions.filter((fix) => fix.startsWith('match-condition-missing-field:'))).toEqual([]);
  });

  it('the JSON and SARIF outputs do not print it', () => {
    expect(formatJson(report)).not.toMatch(/fixHint|unserved-resource|boolean-for-string|unguarded-field/);
    expect(formatSarif(report, { rules: rules.map((rule) => rule.meta), cwd: process.cwd(), color: false })).not.toMatch(/fixHint|unserved-resource|boolean-for-string|unguarded-field/);
  });
});
