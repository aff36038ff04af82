/**
 * `--format gitlab` (issue 15): a GitLab Code Quality report, checked against what GitLab documents
 * for a custom tool's report, https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format :
 *
 * - the file is a JSON array of objects, without a byte order mark (GitLab's parser refuses one);
 * - `description`: a description of the code quality violation;
 * - `check_name`: a unique name representing the static analysis check that emitted this issue;
 * - `fingerprint`: a unique fingerprint to identify the violation (the docs' example is an MD5
 *   hash); findings with identical fingerprints show as one entry in the merge request widget;
 * - `severity`: one of `info`, `minor`, `major`, `critical`, `blocker`;
 * - `location.path`: the relative path to the file containing the violation;
 * - `location.lines.begin` (or `location.positions.begin.line`): the line it occurred on.
 *
 * The Code Climate spec GitLab takes this subset from adds: a description is a single line of
 * text; lines are 1-based (https://github.com/codeclimate/platform/blob/master/spec/analyzers/SPEC.md).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_QUALITY_SEVERITY, formatGitlab, projectPath } from '../src/format/gitlab.js';
import type { FormatOptions } from '../src/format/types.js';
import { finding, report } from './format-report.js';
import { problems } from './output-problems.js';
import { runCli } from './run-cli.js';

const ROOT = join(import.meta.dirname, '..');

/** GitLab's documented fields as a JSON Schema (the facts above, nothing more). */
const GITLAB_CODE_QUALITY_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['description', 'check_name', 'fingerprint', 'severity', 'location'],
    properties: {
      description: { type: 'string', minLength: 1, pattern: '^[^\\n\\r]*$' },
      check_name: { type: 'string', minLength: 1 },
      fingerprint: { type: 'string', minLength: 1 },
      severity: { enum: ['info', 'minor', 'major', 'critical', 'blocker'] },
      location: {
        type: 'object',
        required: ['path'],
        properties: {
          path: { type: 'string', minLength: 1, not: { pattern: '^/' } },
          lines: { type: 'object', required: ['begin'], properties: { begin: { type: 'integer', minimum: 1 } } },
          positions: { type: 'object', required: ['begin'], properties: { begin: { type: 'object', required: ['line'], properties: { line: { type: 'integer', minimum: 1 } } } } },
        },
        anyOf: [{ required: ['lines'] }, { required: ['positions'] }],
      },
    },
  },
};

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(GITLAB_CODE_QUALITY_SCHEMA);

interface Issue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number } };
}

/** Parses a report as GitLab would, and requires it to follow the documented format. */
function gitlabReport(text: string): Issue[] {
  expect(text.charCodeAt(0)).not.toBe(0xfeff);
  const data: unknown = JSON.parse(text);
  expect(validate(data) ? [] : validate.errors).toEqual([]);
  // "Findings with identical fingerprints display as a single entry": every finding has its own.
  const fingerprints = (data as Issue[]).map((issue) => issue.fingerprint);
  expect(new Set(fingerprints).size).toBe(fingerprints.length);
  return data as Issue[];
}

const OPTIONS: FormatOptions = { rules: [], cwd: '/work/project', color: false };

const webhook = (name: string, timeout: number) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: ${name}}
webhooks:
  - name: ${name}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: ${timeout}
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
`;

describe('gitlab: the documented fields', () => {
  it('one issue per finding: description, check_name (the rule), fingerprint, severity, location.path and lines.begin', () => {
    const [issue, ...rest] = gitlabReport(formatGitlab(report([finding()]), OPTIONS));
    expect(rest).toEqual([]);
    expect(issue).toEqual({
      description: 'timeoutSeconds is 45; the API server accepts 1 to 30 seconds',
      check_name: 'timeout-out-of-range',
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      severity: 'major',
      location: { path: 'deploy/webhook.yaml', lines: { begin: 14 } },
    });
    expect(formatGitlab(report([]), OPTIONS)).toBe('[]\n');
  });

  it('maps error, warning and info to major, minor and info', () => {
    expect(CODE_QUALITY_SEVERITY).toEqual({ error: 'major', warning: 'minor', info: 'info' });
    const issues = gitlabReport(formatGitlab(report([finding({ severity: 'warning' }), finding({ severity: 'info', line: 20 })]), OPTIONS));
    expect(issues.map((issue) => issue.severity)).toEqual(['minor', 'info']);
  });

  it('writes paths relative to the working folder (the project), with /; outside it as given; stdin as <stdin>', () => {
    expect(projectPath('/work/project/deploy/a.yaml', '/work/project')).toBe('deploy/a.yaml');
    expect(projectPath('./deploy/a.yaml', '/work/project')).toBe('deploy/a.yaml');
    expect(projectPath('deploy\\win.yaml', '/work/project')).toBe('deploy/win.yaml');
    expect(projectPath('/elsewhere/a.yaml', '/work/project')).toBe('/elsewhere/a.yaml');
    expect(projectPath('<stdin>', '/work/project')).toBe('<stdin>');
  });

  it('a description is one line: a CEL error without its caret line, a line break from the input as \\n', () => {
    const cel = 'x: compilation failed: ERROR: <input>:1:12: Syntax error\n | object.x &&& 1\n | ...........^';
    const [first, second] = gitlabReport(formatGitlab(report([finding({ message: cel }), finding({ message: 'name "a\nb" is invalid', line: 15 })]), OPTIONS));
    expect(first!.description).toBe('x: compilation failed: ERROR: <input>:1:12: Syntax error | object.x &&& 1');
    expect(second!.description).toBe('name "a\\nb" is invalid');
  });

  it('a finding in a rendered template goes where it is true, in the stream read; the description names the template', () => {
    const rendered = { file: 'rendered.yaml', line: 40, column: 7, endLine: 40, endColumn: 9 };
    const [issue] = gitlabReport(formatGitlab(report([finding({ file: 'chart/templates/webhook.yaml', line: 40, column: 7, rendered })]), OPTIONS));
    expect(issue!.location).toEqual({ path: 'rendered.yaml', lines: { begin: 40 } });
    expect(issue!.description).toBe('timeoutSeconds is 45; the API server accepts 1 to 30 seconds (template chart/templates/webhook.yaml)');
  });
});

describe('gitlab: fingerprints', () => {
  it('are unique per finding, also for findings that share rule, file, object and field', () => {
    const twins = [finding({ ruleId: 'yaml-syntax', object: null, webhook: null, fieldPath: null, line: 3 }), finding({ ruleId: 'yaml-syntax', object: null, webhook: null, fieldPath: null, line: 9 })];
    const [a, b] = gitlabReport(formatGitlab(report(twins), OPTIONS));
    expect(a!.fingerprint).not.toBe(b!.fingerprint);
  });

  it('stay the same when lines move or the message changes, and change with the rule, file, object, webhook or field', () => {
    const fingerprint = (overrides: Parameters<typeof finding>[0]) => gitlabReport(formatGitlab(report([finding(overrides)]), OPTIONS))[0]!.fingerprint;
    const base = fingerprint({});
    expect(fingerprint({ line: 40, column: 9, endLine: 40, endColumn: 20 })).toBe(base);
    expect(fingerprint({ message: 'timeoutSeconds is 60; …' })).toBe(base);
    expect(fingerprint({ file: '/work/project/deploy/webhook.yaml' })).toBe(base);
    for (const changed of [
      { ruleId: 'long-timeout' },
      { file: 'deploy/other.yaml' },
      { object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'other' } },
      { webhook: 'other.example.com' },
      { fieldPath: 'webhooks[1].timeoutSeconds' },
    ]) {
      expect(fingerprint(changed)).not.toBe(base);
    }
  });

  it('survive lines added above a webhook in a real run', async () => {
    const before = gitlabReport((await runCli(['-', '--format', 'gitlab'], webhook('widgets', 45))).stdout);
    const after = gitlabReport((await runCli(['-', '--format', 'gitlab'], `# a comment\n# and another\n${webhook('widgets', 45)}`)).stdout);
    expect(after.map((issue) => issue.location.lines.begin)).not.toEqual(before.map((issue) => issue.location.lines.begin));
    expect(after.map((issue) => issue.fingerprint)).toEqual(before.map((issue) => issue.fingerprint));
  });
});

describe('gitlab: the CLI', () => {
  it('--format gitlab on the bundled examples is a valid report with one issue per finding', async () => {
    const examples = join(ROOT, 'fixtures', 'examples');
    const json = JSON.parse((await runCli([examples, '--format', 'json'], '')).stdout) as { findings: { ruleId: string; line: number }[] };
    const { code, stdout, stderr } = await runCli([examples, '--format', 'gitlab'], '');
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const issues = gitlabReport(stdout);
    expect(issues.map((issue) => `${issue.check_name}:${issue.location.lines.begin}`)).toEqual(json.findings.map((f) => `${f.ruleId}:${f.line}`));
    expect(issues.every((issue) => !issue.location.path.startsWith('/') && issue.location.path.startsWith('fixtures/examples/'))).toBe(true);
  });

  it('keeps values from the input from reading as workflow commands or terminal control in a CI log', async () => {
    const payload = String.raw`x\n::stop-commands::x ##[set-output name=a;]b \e[2J \x9b`;
    const hostile = webhook('widgets', 45).replace('widgets.example.com', `"${payload}"`);
    const { stdout } = await runCli(['-', '--format', 'gitlab', '--fail-on', 'never'], `# Source: ::stop-commands::chart/templates/##[x]a.yaml\n${hostile}`);
    expect(stdout).toContain('stop-commands');
    expect(problems(stdout)).toEqual([]);
    const issues = gitlabReport(stdout);
    // The location is the stream read; the template's path is in the description, as written.
    expect(issues.every((issue) => issue.location.path === '<stdin>' && issue.description.includes('(template ::stop-commands::chart/templates/##[x]a.yaml)'))).toBe(true);
    expect(issues.some((issue) => issue.description.includes('x\\n::stop-commands::x'))).toBe(true);
  });
});
