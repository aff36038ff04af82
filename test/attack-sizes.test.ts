/**
 * Issue 21, class 7 (sizes): an object larger than the API server accepts in a request
 * (k8s.io/apiserver MaxRequestBodyBytes, 3 MiB) is reported as such and never parsed; the other
 * documents of its file are read as before, at their places.
 */
import { describe, expect, it } from 'vitest';
import { MAX_OBJECT_BYTES, parseFile } from '../src/parse/yaml.js';
import { runCli } from './run-cli.js';

const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 25
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;

/** A webhook configuration whose annotations take it past `bytes`. */
function bigWebhook(bytes: number): string {
  const line = `    k: "${'x'.repeat(100)}"\n`;
  const count = Math.ceil(bytes / line.length);
  const annotations = Array.from({ length: count }, (_, index) => `    k${index}: "${'x'.repeat(100)}"\n`).join('');
  return WEBHOOK.replace('metadata: {name: widgets}\n', `metadata:\n  name: big\n  annotations:\n${annotations}`);
}

describe('an object larger than the API server accepts', () => {
  it('the constant is the apiserver\'s 3 MiB', () => {
    expect(MAX_OBJECT_BYTES).toBe(3 * 1024 * 1024);
  });

  it('is one error, not parsed; the documents around it keep their indexes and lines', () => {
    const text = `${WEBHOOK}---\n${bigWebhook(MAX_OBJECT_BYTES + 1024)}---\n${WEBHOOK}`;
    const parsed = parseFile({ path: 'big.yaml', text });
    expect(parsed.problems.map((problem) => [problem.code, problem.documentIndex, problem.span.line])).toEqual([['OBJECT_TOO_LARGE', 1, 13]]);
    expect(parsed.problems[0]!.message).toMatch(/^the document is at least 30[789]\d KiB, over the 3072 KiB \(3 MiB\) the API server accepts in a request, and was not read$/);
    expect(parsed.manifests.map((manifest) => [manifest.documentIndex, manifest.locate([]).line])).toEqual([
      [0, 1],
      [2, text.split('\n').length - WEBHOOK.split('\n').length + 1],
    ]);
    expect(parsed.documentCount).toBe(3);
  });

  it('is reported by yaml-syntax through the CLI, and fails the gate', async () => {
    const { code, stdout } = await runCli(['--format', 'json', '-'], `${bigWebhook(MAX_OBJECT_BYTES + 1024)}---\n${WEBHOOK}`);
    const report = JSON.parse(stdout) as { findings: { ruleId: string; severity: string; message: string; documentIndex: number }[] };
    expect(code).toBe(1);
    const syntax = report.findings.filter((finding) => finding.ruleId === 'yaml-syntax');
    expect(syntax).toHaveLength(1);
    expect(syntax[0]).toMatchObject({ severity: 'error', documentIndex: 0 });
    expect(syntax[0]!.message).toContain('over the 3072 KiB (3 MiB) the API server accepts in a request');
    expect(report.findings.some((finding) => finding.ruleId === 'long-timeout' && finding.documentIndex === 1)).toBe(true);
  });

  it('comments and indentation do not count: a document under the limit without them is read', () => {
    const padded = WEBHOOK.replace('webhooks:\n', `webhooks:\n${`#${' '.repeat(1023)}\n`.repeat(3 * 1024 + 16)}`);
    expect(padded.length).toBeGreaterThan(MAX_OBJECT_BYTES);
    const parsed = parseFile({ path: 'padded.yaml', text: padded });
    expect(parsed.problems).toEqual([]);
    expect(parsed.manifests).toHaveLength(1);
  });
});
