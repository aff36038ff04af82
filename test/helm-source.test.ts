/**
 * Rendered input: `helm template` output names each document's template in a `# Source:` comment;
 * findings name that template, keep the rendered stream's positions, and say so (`rendered`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { templateLines } from '../src/load/helm.js';
import { lintText } from './helpers.js';
import { spawnCli } from './spawn-cli.js';

const ROOT = join(import.meta.dirname, '..');

const WEBHOOK = (name: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: ${name}
webhooks:
  - name: ${name}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 45
    clientConfig:
      url: https://${name}.example.com/validate
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

/** What `helm template` prints: `---`, the Source comment, the document. */
const RENDERED = `---
# Source: mychart/templates/namespace.yaml
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
---
# Source: mychart/templates/webhook.yaml
${WEBHOOK('policy')}---
# Source: mychart/templates/broken.yaml
{kind: List, items: [1
---
${WEBHOOK('plain')}`;

// Line numbers in RENDERED (1-based).
const POLICY_TIMEOUT_LINE = 18;
const PLAIN_TIMEOUT_LINE = 36;

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], input: string, cwd = ROOT) => spawnCli(args, { cwd, input, env: { NO_COLOR: '1' } });

describe('templateLines', () => {
  it('maps each line to the template of its document', () => {
    const byLine = templateLines('---\n# Source: c/templates/a.yaml\nx: 1\n---\ny: 2\n');
    expect(byLine.slice(1, 6)).toEqual([null, 'c/templates/a.yaml', 'c/templates/a.yaml', null, null]);
  });

  it('reads a Source comment only where helm writes it, and never a URL', () => {
    expect(templateLines('# Source: c/templates/a.yaml\nx: 1\n')[2]).toBe('c/templates/a.yaml');
    expect(templateLines('---\nx: 1\n# Source: c/templates/a.yaml\ny: 2\n')[4]).toBeNull();
    expect(templateLines('---\n# Source: https://example.com/webhook.yaml\nx: 1\n')[3]).toBeNull();
  });
});

describe('rendered input (helm template)', () => {
  it('names the template file and keeps the rendered line', async () => {
    const findings = await lintText(RENDERED, { only: ['timeout-out-of-range', 'yaml-syntax'] });
    const timeouts = findings.filter((f) => f.ruleId === 'timeout-out-of-range');
    expect(timeouts.map((f) => [f.file, f.line, f.documentIndex])).toEqual([
      ['<stdin>', PLAIN_TIMEOUT_LINE, 3],
      ['mychart/templates/webhook.yaml', POLICY_TIMEOUT_LINE, 1],
    ]);
    expect(timeouts[1]!.rendered).toEqual({ file: '<stdin>', line: POLICY_TIMEOUT_LINE, column: 5, endLine: POLICY_TIMEOUT_LINE, endColumn: 23 });
    // A document without a Source comment keeps the stream's name and has no `rendered`.
    expect(timeouts[0]!.rendered).toBeUndefined();
    // A syntax error (reported on the `---` that ends its document) names its template too.
    const syntax = findings.find((f) => f.ruleId === 'yaml-syntax');
    expect(syntax).toMatchObject({ file: 'mychart/templates/broken.yaml', documentIndex: 2, rendered: { file: '<stdin>' } });
  });

  it('leaves input without Source comments as it was', async () => {
    const findings = await lintText(`# Source: https://example.com/copied-from.yaml\n${WEBHOOK('plain')}`, { only: ['timeout-out-of-range'] });
    expect(findings.map((f) => [f.file, f.line, 'rendered' in f])).toEqual([['<stdin>', 11, false]]);
  });

  it('still reads all documents together: the Namespace template is context for the webhook template', async () => {
    const text = `---\n# Source: c/templates/ns.yaml\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n---\n# Source: c/templates/hook.yaml\n${WEBHOOK('p')}`;
    const all = await lintText(text);
    expect(all.every((f) => f.file === 'c/templates/hook.yaml')).toBe(true);
    expect(all.length).toBeGreaterThan(0);
  });

  it('JSON: `rendered` comes after the contract fields; the summary counts the stream as one file', () => {
    const { code, stdout } = cli(['--format', 'json', '-'], RENDERED);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const finding = report.findings.find((f: { file: string; ruleId: string }) => f.file === 'mychart/templates/webhook.yaml' && f.ruleId === 'timeout-out-of-range');
    expect(Object.keys(finding)).toEqual(['ruleId', 'severity', 'message', 'file', 'line', 'column', 'endLine', 'endColumn', 'documentIndex', 'fieldPath', 'object', 'webhook', 'help', 'rendered']);
    expect(finding.rendered).toMatchObject({ file: '<stdin>', line: POLICY_TIMEOUT_LINE });
    expect(report.summary).toMatchObject({ files: 1, documents: 4 });
  });

  it('works on a saved rendered file too: `rendered.file` is that file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-helm-'));
    writeFileSync(join(dir, 'rendered.yaml'), RENDERED);
    const { stdout } = cli(['--format', 'json', 'rendered.yaml'], '', dir);
    const files = JSON.parse(stdout).findings.map((f: { file: string; rendered?: { file: string } }) => `${f.file} <- ${f.rendered?.file ?? '-'}`);
    expect(new Set(files)).toEqual(new Set(['mychart/templates/broken.yaml <- rendered.yaml', 'mychart/templates/webhook.yaml <- rendered.yaml', 'rendered.yaml <- -']));
  });

  it('SARIF: the rendered stream read is the location, with the exact region; the template is named in a related location (issue 21, class 6)', () => {
    const { stdout } = cli(['--format', 'sarif', '-'], RENDERED);
    const results = JSON.parse(stdout).runs[0].results;
    const result = results.find((r: any) => r.ruleId === 'timeout-out-of-range' && r.relatedLocations !== undefined);
    expect(result.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'stdin' }, region: { startLine: 18, startColumn: 5, endLine: 18, endColumn: 23 } });
    expect(result.message.text).toMatch(/\(template mychart\/templates\/webhook\.yaml\)$/);
    expect(result.relatedLocations).toEqual([{ id: 1, message: { text: 'template named by the # Source: comment of the rendered output: mychart/templates/webhook.yaml' } }]);
    expect(result.properties.rendered).toMatchObject({ file: '<stdin>', line: 18 });
    const plain = results.find((r: any) => r.ruleId === 'timeout-out-of-range' && r.relatedLocations === undefined);
    expect(plain.relatedLocations).toBeUndefined();
    expect(plain.locations[0].physicalLocation.region.startLine).toBe(PLAIN_TIMEOUT_LINE);
  });
});
