/** A bug in one rule on one object must not hide the other findings (issue: robustness, item 6). */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rules } from '../rules/index.js';
import { reportInternalErrors } from '../src/cli/main.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { defineObjectRule } from '../src/rule.js';

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    timeoutSeconds: 45
    clientConfig: {url: "https://widgets.example.com/validate"}
    rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
`;

const crashing = defineObjectRule({
  meta: { id: 'crashing-rule', title: 'always throws', severity: 'warning', appliesTo: ['ValidatingWebhookConfiguration'], messages: { x: 'x' }, help: 'x' },
  create() {
    return {
      webhookConfiguration() {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    };
  },
});

const crashingCreate = defineObjectRule({
  meta: { id: 'crashing-create', title: 'create throws', severity: 'warning', appliesTo: ['ValidatingWebhookConfiguration'], messages: { x: 'x' }, help: 'x' },
  create() {
    throw new RangeError('per-run analysis failed');
  },
});

describe('a rule that crashes', () => {
  it('is reported as an internal error finding, and the other rules still report', async () => {
    const report = await lint({
      paths: ['-'],
      rules: [...rules, crashing],
      kubeVersion: DEFAULT_KUBE_VERSION,
      trustedNamespaceLabels: [],
      severityOverrides: new Map(),
      toolVersion: '9.9.9',
      readStdin: () => new TextEncoder().encode(MANIFEST),
    });
    const ids = report.findings.map((f) => f.ruleId);
    expect(ids).toContain('timeout-out-of-range');
    expect(ids).toContain('implicit-failure-policy');
    const internal = report.findings.find((f) => f.ruleId === 'crashing-rule')!;
    expect(internal).toMatchObject({ severity: 'error', line: 1, column: 1, object: { kind: 'ValidatingWebhookConfiguration', name: 'widgets' } });
    expect(internal.message).toContain("internal error in rule crashing-rule: Cannot read properties of undefined (reading 'x')");
    expect(report.internalErrors).toHaveLength(1);

    let stderr = '';
    expect(reportInternalErrors(report, { stderr: { write: (text: string) => (stderr += text) } })).toBe(true);
    expect(stderr.split('\n')[0]).toBe(
      "admission-lint 9.9.9: internal error in rule crashing-rule on <stdin> (ValidatingWebhookConfiguration widgets): Cannot read properties of undefined (reading 'x')",
    );
    expect(stderr).toMatch(/^ {2}at /m);
  });

  it('is reported when its create throws, once for the run, and the other rules still report', async () => {
    const report = await lint({
      paths: ['-'],
      rules: [...rules, crashingCreate],
      kubeVersion: DEFAULT_KUBE_VERSION,
      trustedNamespaceLabels: [],
      severityOverrides: new Map(),
      toolVersion: '9.9.9',
      readStdin: () => new TextEncoder().encode(MANIFEST),
    });
    expect(report.findings.map((f) => f.ruleId)).toContain('timeout-out-of-range');
    const internal = report.findings.filter((f) => f.ruleId === 'crashing-create');
    expect(internal).toHaveLength(1);
    expect(internal[0]).toMatchObject({ severity: 'error', file: '<stdin>', line: 1, column: 1, object: null });
    expect(internal[0]!.message).toContain('internal error in rule crashing-create: per-run analysis failed');
    expect(report.internalErrors).toHaveLength(1);
  });
});

describe('the crash banner of bin/admission-lint.js', () => {
  it('shows control characters of a crash message as escapes, keeping line breaks', () => {
    const script = `require(${JSON.stringify(join(import.meta.dirname, '..', 'bin', 'admission-lint.js'))}).main(async () => { throw new Error('kind \\u001b]0;owned\\u0007 \\u001b[2J\\u009b1m'); }, () => '9.9.9');`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('internal error in admission-lint 9.9.9');
    expect(result.stderr).toContain('kind \\u001b]0;owned\\u0007 \\u001b[2J\\u009b1m');
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stderr.split('\n').length).toBeGreaterThan(3);
  });
});
