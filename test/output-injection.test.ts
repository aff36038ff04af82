/**
 * Issue 12 item 4: strings from the input are data in every output. Webhook names, object names,
 * label values and `# Source:` comments carry GitHub Actions workflow commands (`::` at a line
 * start, `##[` anywhere), raw control characters, HTML, mentions and links; no output of lint,
 * simulate or report, and nothing on stderr, may pass them on as such.
 */
import { describe, expect, it } from 'vitest';
import { reportInternalErrors } from '../src/cli/main.js';
import { runCli } from './run-cli.js';
import type { Report } from '../src/engine/finding.js';
import { escapeCell, guardJson, guardMarkup, guardText, safeText } from '../src/format/escape.js';
import { markdownProblems, problems } from './output-problems.js';

/** Everything the issue names, in one string (YAML double-quoted escapes). */
const PAYLOAD = String.raw`x\n::stop-commands::x\r\n  ::add-mask::y ##[set-output name=a;]b \e[2J \0 \a \x9b \x7f <img src=x onerror=alert(1)> </details> @org/team https://evil.example www.evil.example`;

const WEBHOOK = (source: string): string => `---
# Source: ${source}
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: "${PAYLOAD}"
  labels: {team: "${PAYLOAD}"}
webhooks:
  - name: "${PAYLOAD}"
    sideEffects: None
    admissionReviewVersions: ["v1"]
    failurePolicy: Fail
    clientConfig: {url: "https://h.example.com/${PAYLOAD}"}
    namespaceSelector: {matchLabels: {env: "${PAYLOAD}"}}
    objectSelector: {matchLabels: {app: "${PAYLOAD}"}}
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods, "${PAYLOAD}"]}]
    matchConditions: [{name: "${PAYLOAD}", expression: "'${PAYLOAD}' == 'x' && !!!"}]
`;

const NAMESPACE = `---
# Source: ::chart/templates/##[set-output name=a;]ns.yaml
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  labels: {env: "${PAYLOAD}"}
`;

/** A `# Source:` comment starting a workflow command, and one with `##[` and a raw ESC. */
const INPUT = `${WEBHOOK('::stop-commands::chart/templates/a.yaml')}${WEBHOOK('chart/templates/##[set-output name=b;]c\u001b[2J.yaml')}${NAMESPACE}`;

const cli = (args: string[]) => runCli(args, INPUT);

const SIMULATE = ['--operation', 'CREATE', '--resource', 'pods', '--namespace', 'team-a'];

describe('output is data, never commands', () => {
  it('the input carries every payload into the findings (the test would see them)', async () => {
    const { stdout } = await cli(['-', '--format', 'json', '--fail-on', 'never']);
    const data = JSON.parse(stdout) as { findings: { message: string; file: string; webhook: string | null }[] };
    const decoded = PAYLOAD.replace('\\n', '\n');
    expect(data.findings.some((f) => f.webhook?.startsWith(decoded.slice(0, 20)))).toBe(true);
    expect(data.findings.some((f) => f.file === '::stop-commands::chart/templates/a.yaml')).toBe(true);
    expect(data.findings.some((f) => f.message.includes('\u001b[2J'))).toBe(true);
  });

  for (const format of ['stylish', 'json', 'sarif', 'junit', 'github', 'rdjson']) {
    it(`lint --format ${format}`, async () => {
      const { stdout, stderr } = await cli(['-', '--format', format, '--fail-on', 'never']);
      expect(stdout.length).toBeGreaterThan(1000);
      if (format === 'github') {
        // Every line is one of our commands; the payload is escaped inside it.
        for (const line of stdout.trimEnd().split('\n')) expect(line).toMatch(/^::(error|warning|notice) /);
        expect(stdout).not.toContain('\r');
        expect(stdout).not.toContain('\u001b');
        expect(stdout).toContain('\\u001b[2J');
      } else {
        expect(problems(stdout)).toEqual([]);
      }
      expect(problems(stderr)).toEqual([]);
    });
  }

  it('stylish: a line break from the input stays in its line; only file names start lines, neutralised', async () => {
    const { stdout } = await cli(['-', '--fail-on', 'never']);
    expect(stdout).toContain('x\\n::stop-commands::x');
    const neutralised = stdout.split('\n').filter((line) => /^\s*\\::/.test(line));
    // The template whose Namespace has hostile labels is a file too: api-validation reports them (issue 21, class 3).
    expect(neutralised).toEqual(['\\::chart/templates/#\\#[set-output name=a;]ns.yaml (lines of the rendered <stdin>)', '\\::stop-commands::chart/templates/a.yaml (lines of the rendered <stdin>)']);
    // The CEL error keeps its snippet and caret lines.
    expect(stdout).toMatch(/ERROR: <input>:1:1: .*\n\s+\| 'x\n\s+\| \^\n/);
  });

  it('lint --format markdown (a PR comment): no HTML, mention or link from the input', async () => {
    const { stdout } = await cli(['-', '--format', 'markdown', '--fail-on', 'never']);
    expect(stdout).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownProblems(stdout)).toEqual([]);
  });

  it('JSON and SARIF read back the same strings', async () => {
    const plain = JSON.parse((await cli(['-', '--format', 'json', '--fail-on', 'never'])).stdout) as { findings: { file: string }[] };
    expect(plain.findings.some((f) => f.file === 'chart/templates/##[set-output name=b;]c\u001b[2J.yaml')).toBe(true);
  });

  for (const format of ['text', 'json', 'markdown']) {
    it(`simulate --format ${format}`, async () => {
      const { code, stdout } = await cli(['simulate', '-', ...SIMULATE, '--format', format]);
      expect(code).toBe(0);
      expect(stdout).toContain('team-a');
      expect(format === 'markdown' ? markdownProblems(stdout) : problems(stdout)).toEqual([]);
    });
  }

  it('simulate --object-labels from the command line is escaped as well', async () => {
    const { stdout } = await cli(['simulate', '-', ...SIMULATE, '--object-labels', 'app=##[x]']);
    expect(problems(stdout)).toEqual([]);
  });

  for (const format of ['text', 'json', 'markdown', 'html']) {
    it(`report --format ${format}`, async () => {
      const { code, stdout } = await cli(['report', '-', '--format', format]);
      expect(code).toBe(0);
      expect(stdout.length).toBeGreaterThan(1000);
      expect(format === 'markdown' ? markdownProblems(stdout) : problems(stdout)).toEqual([]);
      if (format === 'html') expect(stdout).not.toMatch(/<img|<\/details>/);
    });
  }

  it('probe, every format: names from the input and the webhook\'s answer (messages, warnings, the patched object)', async () => {
    const hostile = PAYLOAD.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\e/g, '\u001b').replace(/\\0/g, '\u0000').replace(/\\a/g, '\u0007').replace(/\\x9b/g, '\u009b').replace(/\\x7f/g, '\u007f');
    const report = {
      webhook: { configuration: hostile, name: hostile, file: `${hostile}.yaml`, mutating: true, failurePolicy: 'Fail', timeoutSeconds: 10, sideEffects: 'None', reinvocationPolicy: 'Never', admissionReviewVersions: ['v1'] },
      request: { operation: 'CREATE', group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', namespace: hostile, namespaceLabelsFlag: undefined, objectLabels: {}, dryRun: false, object: { file: hostile, value: {}, kind: 'ConfigMap', apiVersion: 'v1', name: hostile, namespace: hostile, labels: {} } },
      reviewVersion: 'v1',
      userInfo: { username: hostile, uid: hostile, groups: [hostile], extra: {} },
      target: { connect: '127.0.0.1:8443', serverName: hostile, url: `https://${hostile}`, roots: hostile },
      called: { called: false, reason: hostile },
      checks: [{ id: 'allowed', status: 'ok', message: `denied: ${hostile}` }, { id: 'warnings', status: 'info', message: JSON.stringify(hostile) }],
      verdict: { kind: 'rejected-by-webhook', message: `admission webhook "${hostile}" denied the request: ${hostile}` },
      latencyMs: 3,
      patch: [`add /metadata/annotations/${hostile}: ${JSON.stringify(hostile)}`],
      objectAfter: { metadata: { annotations: { [hostile]: hostile } } },
      repeats: { calls: 2, concurrency: 1, p50Ms: 1, p90Ms: 1, p99Ms: 1, maxMs: 1, verdicts: { 'rejected-by-webhook': 2 }, failures: [{ message: hostile, count: 2 }] },
      expect: 'denied',
      expectationMet: true,
      failed: false,
    } as unknown as import('../src/probe/probe.js').ProbeReport;
    const { PROBE_FORMAT_LOADERS } = await import('../src/probe/formats.js');
    for (const format of ['stylish', 'json', 'markdown'] as const) {
      const output = (await PROBE_FORMAT_LOADERS[format]())(report);
      expect(output).toContain('set-output');
      expect(format === 'markdown' ? markdownProblems(output) : problems(output), format).toEqual([]);
      if (format === 'json') expect(JSON.parse(output).verdict.message).toContain(hostile);
    }
  });

  it('a one-line error on stderr (a path named on the command line) stays one line', async () => {
    const { code, stderr } = await cli([`missing\n::stop-commands::x ##[set-output name=a;]b \u001b[2J.yaml`]);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(problems(stderr)).toEqual([]);
  });

  it('an internal error on stderr', () => {
    let stderr = '';
    const report = {
      toolVersion: 'test',
      findings: [],
      internalErrors: [{ ruleId: 'r', file: `a\n::stop-commands::x`, object: `V/##[set-output name=a;]b`, message: `boom \u001b[2J\u0000\n  ::add-mask::z`, stack: `Error\n    at ::x (##[y]\u001b)` }],
    } as unknown as Report;
    reportInternalErrors(report, { stderr: { write: (text: string) => (stderr += text) } });
    expect(stderr.split('\n').length).toBe(4);
    expect(problems(stderr)).toEqual([]);
  });
});

describe('the escaping module', () => {
  it('leaves ordinary names alone', () => {
    for (const name of ['validate.example.com', 'kube-system', 'app.kubernetes.io/name=web', 'C:\\x\\y.yaml', 'a: b', 'tab\there']) {
      expect(safeText(name)).toBe(name);
      expect(guardText(name)).toBe(name);
    }
  });

  it('text: control characters and line breaks as escapes, commands broken visibly', () => {
    expect(safeText('a\nb\r\u001b[2J\u0000\u009b')).toBe('a\\nb\\r\\u001b[2J\\u0000\\u009b');
    expect(guardText('  ::stop-commands::x\n##[set-output name=a;]b\nok :: ok')).toBe('  \\::stop-commands::x\n#\\#[set-output name=a;]b\nok :: ok');
    expect(guardText('\u001b[4m::x')).toBe('\u001b[4m\\::x');
  });

  it('JSON: the same data once parsed', () => {
    const value = { name: '##[set-output name=a;]b \u009b\u007f' };
    const text = guardJson(JSON.stringify(value, null, 2));
    expect(text).not.toContain('##[');
    expect(problems(text)).toEqual([]);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('markup: character references, which XML and HTML read back', () => {
    expect(guardMarkup('<p>\n::x ##[y]</p>')).toBe('<p>\n&#58;:x #&#35;[y]</p>');
  });

  it('Markdown cells: HTML, mentions, links and controls', () => {
    expect(escapeCell('see https://evil.example or www.evil.example, @org')).toBe('see https&#58;//evil.example or www&#46;evil.example, &#64;org');
    expect(escapeCell('a\u001bb')).toBe('a\\\\u001bb');
  });
});
