/** `--format github`: GitHub Actions workflow commands, escaped as the Actions toolkit escapes them. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/engine/finding.js';
import { escapeData, escapeProperty, formatGithub } from '../src/format/github.js';
import { finding, report } from './format-report.js';

const ROOT = join(import.meta.dirname, '..');

/** Reads a workflow command back as the runner does (actions/runner ActionCommand.TryParseV2). */
function parse(line: string): { command: string; properties: Record<string, string>; data: string } {
  const match = /^::(\S+?)(?: (.*?))?::(.*)$/.exec(line);
  if (!match) throw new Error(`not a workflow command: ${line}`);
  const unescape = (value: string) => value.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const properties: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split(',').filter((p) => p !== '')) {
    const [key, value] = pair.split('=') as [string, string];
    properties[key] = unescape(value);
  }
  return { command: match[1]!, properties, data: unescape(match[3]!) };
}

describe('github: escaping', () => {
  it('escapes data like @actions/core: %, CR and LF', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
  });

  it('escapes properties like @actions/core: also : and ,', () => {
    expect(escapeProperty('a:b,c%d\ne')).toBe('a%3Ab%2Cc%25d%0Ae');
  });

  it('keeps a message with newlines, commas, colons and percent signs on one line and intact', () => {
    const message = 'expression failed: 100% of\nrequests, e.g. "a::b",\r\n  ^ here';
    const out = formatGithub(report([finding({ message })]));
    expect(out.split('\n')).toHaveLength(2);
    expect(out).toBe(
      '::error file=deploy/webhook.yaml,line=14,col=5,endLine=14,endColumn=23,title=timeout-out-of-range::expression failed: 100%25 of%0Arequests, e.g. "a::b",%0D%0A  ^ here\n',
    );
    expect(parse(out.trimEnd()).data).toBe(message);
  });

  it('escapes a file name with commas, colons and percent signs', () => {
    const out = formatGithub(report([finding({ file: 'deploy/a,b:c%d.yaml' })])).trimEnd();
    expect(out).toContain('file=deploy/a%2Cb%3Ac%25d.yaml,');
    expect(parse(out).properties.file).toBe('deploy/a,b:c%d.yaml');
  });
});

describe('github: commands', () => {
  it('writes one command per finding, warning as ::warning and info as ::notice', () => {
    const out = formatGithub(report([finding(), finding({ severity: 'warning', ruleId: 'implicit-failure-policy' }), finding({ severity: 'info', ruleId: 'long-timeout' })]));
    expect(out.split('\n').filter((l) => l !== '').map((l) => parse(l).command)).toEqual(['error', 'warning', 'notice']);
    expect(out.endsWith('\n')).toBe(true);
  });

  it('gives file, line, col, endLine, endColumn and the rule id as title', () => {
    expect(parse(formatGithub(report([finding()])).trimEnd()).properties).toEqual({
      file: 'deploy/webhook.yaml',
      line: '14',
      col: '5',
      endLine: '14',
      endColumn: '23',
      title: 'timeout-out-of-range',
    });
  });

  it('leaves the columns out of a span over several lines (the runner ignores them there)', () => {
    expect(parse(formatGithub(report([finding({ line: 7, column: 5, endLine: 14, endColumn: 1 })])).trimEnd()).properties).toEqual({
      file: 'deploy/webhook.yaml',
      line: '7',
      endLine: '14',
      title: 'timeout-out-of-range',
    });
  });

  it('widens an empty span to one column', () => {
    expect(parse(formatGithub(report([finding({ column: 5, endColumn: 5 })])).trimEnd()).properties).toMatchObject({ col: '5', endColumn: '6' });
  });

  it('puts the position of a finding on stdin into the message: there is no file to annotate', () => {
    const line = formatGithub(report([finding({ file: '<stdin>' })])).trimEnd();
    expect(line).toBe('::error title=timeout-out-of-range::<stdin>:14:5: timeoutSeconds is 45; the API server accepts 1 to 30 seconds');
  });

  it('uses / separators and a normalised path', () => {
    expect(parse(formatGithub(report([finding({ file: 'deploy\\webhook.yaml' })])).trimEnd()).properties.file).toBe('deploy/webhook.yaml');
    expect(parse(formatGithub(report([finding({ file: './deploy/../deploy/webhook.yaml' })])).trimEnd()).properties.file).toBe('deploy/webhook.yaml');
  });

  it('prints nothing when there is nothing to report', () => {
    expect(formatGithub(report([]))).toBe('');
  });
});

describe('github: the built CLI', () => {
  it('writes workflow commands only, one per finding, matching the JSON report', () => {
    const run = (format: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), '--format', format, 'fixtures/examples'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    const github = run('github');
    expect(github.status).toBe(1);
    expect(github.stderr).toBe('');
    const lines = github.stdout.trimEnd().split('\n');
    const json = JSON.parse(run('json').stdout) as { findings: Finding[] };
    expect(lines).toHaveLength(json.findings.length);
    lines.forEach((line, i) => {
      const { command, properties, data } = parse(line);
      const f = json.findings[i]!;
      expect(command).toBe({ error: 'error', warning: 'warning', info: 'notice' }[f.severity]);
      expect(properties).toMatchObject({ file: f.file, line: String(f.line), title: f.ruleId });
      expect(data).toBe(f.message);
    });
  });
});

describe('rendered input', () => {
  it('annotates where the finding is true, in the stream read (stdin: in the message), and names the template in the message only', () => {
    const finding = {
      ruleId: 'implicit-failure-policy',
      severity: 'warning' as const,
      message: 'no failurePolicy',
      file: 'chart/templates/webhook.yaml',
      line: 40,
      column: 5,
      endLine: 41,
      endColumn: 9,
      documentIndex: 3,
      fieldPath: 'webhooks[0].failurePolicy',
      object: null,
      webhook: null,
      help: null,
      rendered: { file: '<stdin>', line: 40, column: 5, endLine: 41, endColumn: 9 },
    };
    const report = { toolVersion: 't', inventory: { files: [] }, findings: [finding], summary: { files: 1, documents: 4, objects: 1, namespaces: 0, skipped: 3, errors: 0, warnings: 1, infos: 0, suppressed: 0 } };
    expect(formatGithub(report)).toBe('::warning title=implicit-failure-policy::<stdin>:40:5: no failurePolicy (template chart/templates/webhook.yaml)\n');
    const fromFile = { ...report, findings: [{ ...finding, rendered: { ...finding.rendered, file: 'rendered.yaml' } }] };
    expect(formatGithub(fromFile)).toBe('::warning file=rendered.yaml,line=40,endLine=41,title=implicit-failure-policy::no failurePolicy (template chart/templates/webhook.yaml)\n');
  });
});
