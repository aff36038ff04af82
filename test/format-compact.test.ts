/**
 * `--format compact` (issue 15): one line per finding, `file:line:col: severity message [rule-id]`,
 * as ESLint's `unix` and Ruff's `concise` formats, for editors and grep; nothing else on stdout.
 */
import { describe, expect, it } from 'vitest';
import { formatCompact } from '../src/format/compact.js';
import { finding, report } from './format-report.js';
import { problems } from './output-problems.js';
import { runCli } from './run-cli.js';

/** Vim's and Emacs's default error format, `%f:%l:%c: %m`, and our tail `severity message [rule]`. */
const LINE = /^(?<file>[^:]+):(?<line>\d+):(?<column>\d+): (?<severity>error|warning|info) (?<message>.+) \[(?<rule>[a-z0-9-]+)\]$/;

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 45
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
    matchConditions: [{name: broken, expression: "object.x &&& 1"}]
`;

describe('compact: the line', () => {
  it('is file:line:col: severity message [rule-id]', () => {
    expect(formatCompact(report([finding()]))).toBe('deploy/webhook.yaml:14:5: error timeoutSeconds is 45; the API server accepts 1 to 30 seconds [timeout-out-of-range]\n');
  });

  it('prints one line per finding and nothing else: no count line, no output without findings', () => {
    const out = formatCompact(report([finding(), finding({ severity: 'warning', ruleId: 'long-timeout', line: 20, column: 3, message: 'slow' }), finding({ severity: 'info', ruleId: 'fail-open', line: 30 })]));
    expect(out.split('\n')).toEqual([
      'deploy/webhook.yaml:14:5: error timeoutSeconds is 45; the API server accepts 1 to 30 seconds [timeout-out-of-range]',
      'deploy/webhook.yaml:20:3: warning slow [long-timeout]',
      'deploy/webhook.yaml:30:5: info timeoutSeconds is 45; the API server accepts 1 to 30 seconds [fail-open]',
      '',
    ]);
    expect(formatCompact(report([]))).toBe('');
  });

  it("writes a CEL error's snippet on the line and drops the caret line, which only points below its snippet", () => {
    const message = 'webhooks[0].matchConditions[0].expression: Invalid value: "object.x &&& 1": compilation failed: ERROR: <input>:1:12: Syntax error: Unexpected character: &\n | object.x &&& 1\n | ...........^';
    expect(formatCompact(report([finding({ message })]))).toBe(
      'deploy/webhook.yaml:14:5: error webhooks[0].matchConditions[0].expression: Invalid value: "object.x &&& 1": compilation failed: ERROR: <input>:1:12: Syntax error: Unexpected character: & | object.x &&& 1 [timeout-out-of-range]\n',
    );
  });

  it('places a finding in a rendered template where its position is true (the rendered stream) and names the template', () => {
    const rendered = { file: '<stdin>', line: 40, column: 7, endLine: 40, endColumn: 9 };
    const out = formatCompact(report([finding({ file: 'chart/templates/webhook.yaml', line: 40, column: 7, rendered })]));
    expect(out).toBe('<stdin>:40:7: error timeoutSeconds is 45; the API server accepts 1 to 30 seconds (template: chart/templates/webhook.yaml) [timeout-out-of-range]\n');
  });

  it('keeps values from the input on their line and out of workflow commands and terminal control', () => {
    const out = formatCompact(
      report([
        finding({ file: '::stop-commands::x.yaml', message: 'name "a\n::add-mask::b \u001b[2J ##[set-output name=a;]" is invalid' }),
        finding({ file: 'evil\u009b.yaml', message: 'x\r\ny' }),
      ]),
    );
    expect(out.split('\n')).toHaveLength(3);
    expect(problems(out)).toEqual([]);
    expect(out).toContain('\\::stop-commands::x.yaml:14:5: error name "a\\n::add-mask::b \\u001b[2J #\\#[set-output name=a;]" is invalid');
    expect(out).toContain('evil\\u009b.yaml:14:5: error x\\r\\ny');
  });
});

describe('compact: the CLI', () => {
  it('--format compact prints every finding of the run on a line an editor can parse, and only those', async () => {
    const { code, stdout, stderr } = await runCli(['-', '--format', 'compact'], MANIFEST);
    const json = JSON.parse((await runCli(['-', '--format', 'json'], MANIFEST)).stdout) as { findings: { ruleId: string; severity: string; line: number; column: number }[] };
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => LINE.exec(line)?.groups).map((g) => `${g?.file}:${g?.line}:${g?.column} ${g?.severity} ${g?.rule}`)).toEqual(
      json.findings.map((f) => `<stdin>:${f.line}:${f.column} ${f.severity} ${f.ruleId}`),
    );
    expect(json.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['timeout-out-of-range', 'api-validation', 'implicit-failure-policy']));
  });

  it('rendered input with a hostile `# Source:` comment and names: every line is a finding, none a command', async () => {
    const payload = String.raw`x\n::stop-commands::x\r\n  ::add-mask::y ##[set-output name=a;]b \e[2J \x9b`;
    const input = `---\n# Source: ::stop-commands::chart/templates/##[x]a.yaml\n${MANIFEST.replace('widgets.example.com', `"${payload}"`)}`;
    const { stdout } = await runCli(['-', '--format', 'compact', '--fail-on', 'never'], input);
    expect(stdout).toContain('(template: ::stop-commands::chart/templates/#\\#[x]a.yaml)');
    expect(stdout).toContain('x\\n::stop-commands::x\\r\\n');
    expect(problems(stdout)).toEqual([]);
    for (const line of stdout.trimEnd().split('\n')) expect(line).toMatch(/^<stdin>:\d+:\d+: (error|warning|info) .* \[[a-z0-9-]+\]$/);
  });

  it('a run without findings prints nothing and exits 0', async () => {
    const clean = MANIFEST.replace('    timeoutSeconds: 45\n', '    timeoutSeconds: 5\n    failurePolicy: Fail\n').replace(/ {4}matchConditions.*\n/, '');
    expect(await runCli(['-', '--format', 'compact'], clean)).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
