/**
 * Real webhook configurations from public projects (../shared/corpus/real-world, see its
 * SOURCES.tsv). Skipped when the folder is absent. Every structural finding there must be one
 * we have checked by hand to be right; the per-rule counts are pinned so that a rule change
 * that adds or drops findings on real manifests shows up in review.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'real-world');

/** Structural findings on the corpus, each verified against the manifest. */
const EXPECTED_STRUCTURAL: Record<string, string> = {
  // The install artifact keeps the literal placeholder `caBundle: {{caBundle}}` for sed.
  'karmada--webhook-configuration.yaml yaml-syntax': 'unrendered {{caBundle}} placeholder (2 documents)',
  // Golden test output with the placeholder `caBundle: XYZ`, which is not base64.
  'kuma--install-control-plane-defaults.yaml schema': 'caBundle XYZ is not base64 (8 webhooks)',
  // A kustomize strategic-merge patch: partial objects, not meant to be applied alone.
  'openkruise--webhook-patch-manifests.yaml api-validation': 'partial objects of a kustomize patch',
};

describe.skipIf(!existsSync(CORPUS))('real-world corpus', () => {
  it('lints every file without a crash, and every structural finding is a known, real one', async () => {
    const report = await lint({
      paths: [CORPUS],
      rules,
      kubeVersion: DEFAULT_KUBE_VERSION,
      trustedNamespaceLabels: [],
      severityOverrides: new Map(),
      toolVersion: 'test',
    });
    expect(report.summary.files).toBeGreaterThanOrEqual(50);
    const structural = new Set(
      report.findings.filter((f) => ['yaml-syntax', 'schema', 'api-validation'].includes(f.ruleId)).map((f) => `${f.file.split('/').pop()} ${f.ruleId}`),
    );
    expect([...structural].sort()).toEqual(Object.keys(EXPECTED_STRUCTURAL).sort());

    const byRule: Record<string, number> = {};
    for (const finding of report.findings) byRule[finding.ruleId] = (byRule[finding.ruleId] ?? 0) + 1;
    expect(byRule).toMatchSnapshot();
    expect({ ...report.summary }).toMatchSnapshot();
  });
});
