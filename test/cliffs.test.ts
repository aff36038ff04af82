/**
 * Inputs whose cost grew faster than their size (issue 12, item 7). Each test bounds the work
 * (counts calls or cells, or checks that a limit stopped the reading), not the time it takes.
 */
import { Alias } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rules } from '../rules/index.js';
import { loadRun, lintRun } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { PolicyIndex, SUGGESTION_BUDGET } from '../src/model/policies.js';
import { MAX_DOCUMENTS, parseFile } from '../src/parse/yaml.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const runOf = (text: string) => loadRun(['-'], () => new TextEncoder().encode(text));

describe('cliffs', () => {
  it('a document with 10,000 aliases is refused before any alias is resolved', () => {
    const resolve = vi.spyOn(Alias.prototype, 'resolve');
    let text = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: a}\nx:\n';
    for (let i = 0; i < 10_000; i++) text += `  - &a${i} v\n`;
    text += 'y:\n';
    for (let i = 0; i < 10_000; i++) text += `  - *a${i}\n`;
    const run = runOf(text);
    expect(resolve).not.toHaveBeenCalled();
    expect(run.webhookConfigurations).toHaveLength(0);
    expect(run.files[0]!.problems.map((p) => p.code)).toEqual(['ALIAS_LIMIT']);
  });

  it('a few aliases are still read', () => {
    const text = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: a}\nwebhooks:\n  - &w {name: a.example.com, clientConfig: {url: "https://a.example.com"}}\n';
    expect(runOf(text).webhookConfigurations).toHaveLength(1);
  });

  it('a file of more documents than the limit is not parsed', () => {
    const text = `apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n${'---\n'.repeat(MAX_DOCUMENTS + 10)}`;
    const parsed = parseFile({ path: 'x.yaml', text });
    expect(parsed.manifests).toHaveLength(0);
    expect(parsed.problems.map((p) => p.code)).toEqual(['TOO_MANY_DOCUMENTS']);
    // The marker count stops at the limit: it says "more than", never walks the rest.
    expect(parsed.documentCount).toBe(MAX_DOCUMENTS + 1);
  });

  it('"did you mean" for bindings of missing policies spends a bounded number of edit-distance cells', async () => {
    const documents: string[] = [];
    const n = 1500;
    for (let i = 0; i < n; i++) {
      documents.push(
        `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: policy-number-${i}-of-a-long-series}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]}\n  validations: [{expression: "true"}]\n`,
        `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: binding-${i}}\nspec:\n  policyName: missing-policy-number-${i}-of-a-long-series\n  validationActions: [Deny]\n`,
      );
    }
    const run = runOf(documents.join('---\n'));
    const report = await lintRun(run, {
      rules: rules.filter((rule) => rule.meta.id === 'binding-without-policy'),
      kubeVersion: DEFAULT_KUBE_VERSION,
      trustedNamespaceLabels: [],
      severityOverrides: new Map(),
      toolVersion: 'test',
    });
    expect(report.findings).toHaveLength(n);
    // The same suggestions, asked of an index of the run's policies, count the work spent.
    const index = new PolicyIndex(run.policies);
    for (const binding of run.policies) index.suggestedPolicyName(binding);
    expect(index.suggestionCells).toBeGreaterThan(0);
    expect(index.suggestionCells).toBeLessThanOrEqual(SUGGESTION_BUDGET);
  });
});

describe('formats over very many findings', () => {
  it('stylish, markdown and the other formats print 200,000 findings (no argument spread past the stack)', async () => {
    const { formatStylish } = await import('../src/format/stylish.js');
    const { formatMarkdown } = await import('../src/format/markdown.js');
    const { Chalk } = await import('chalk');
    const finding = {
      ruleId: 'long-timeout', severity: 'warning' as const, message: 'm', file: 'a.yaml', line: 1, column: 1, endLine: 1, endColumn: 2,
      documentIndex: 0, fieldPath: null, object: null, webhook: null, help: 'h',
    };
    const findings = Array.from({ length: Number(process.env.CLIFF_FINDINGS ?? 200_000) }, (_, i) => ({ ...finding, line: i + 1 }));
    const report = {
      toolVersion: 't', inventory: { files: [] }, findings,
      summary: { files: 1, documents: 1, objects: 1, namespaces: 0, skipped: 0, errors: 0, warnings: findings.length, infos: 0, suppressed: 0 },
    };
    // Booleans: a failing comparison must not print megabytes.
    expect(formatStylish(report, new Chalk({ level: 0 })).length > findings.length).toBe(true);
    expect(formatMarkdown(report).length > 0).toBe(true);
  });
});
