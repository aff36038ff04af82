/**
 * The default terminal output (issue 22): as ESLint's and Ruff's, one line per finding (two at
 * most on a terminal), the fix on request (--show-fixes), infos counted in the summary and shown
 * on request (--show-info), -q for errors only, --max-warnings N as ESLint's. The machine formats
 * keep every finding and its fix.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { WARNINGS_AND_INFO_MANIFEST } from './helpers.js';
import { runCli } from './run-cli.js';

/** Findings: long-timeout (warning), editable-object-selector (warning), fail-open (info). */
const WARNINGS_AND_INFO = WARNINGS_AND_INFO_MANIFEST;

/** Only fail-open (info). */
const INFO_ONLY = WARNINGS_AND_INFO.replace('    timeoutSeconds: 30\n', '').replace(/ {4}objectSelector: .*\n/, '');

const summaryLine = (stdout: string): string => stdout.trimEnd().split('\n').find((line) => /^[✔✖⚠ℹ] /.test(line)) ?? '';

/** The CLI in this process with stdout a terminal `columns` wide, no colour. */
async function onTerminal(args: string[], columns: number): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: { isTTY: true, columns, write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1' },
  });
  return { code, stdout, stderr };
}

describe('infos: counted in the summary, shown on request', () => {
  it('stylish leaves infos out and counts them; --show-info shows them', async () => {
    const { code, stdout } = await runCli(['-'], WARNINGS_AND_INFO);
    expect(code).toBe(0);
    expect(stdout).toContain('long-timeout');
    expect(stdout).not.toContain('fail-open');
    expect(summaryLine(stdout)).toMatch(/^⚠ 3 problems \(0 errors, 2 warnings, 1 info\) in 1 file, .*; 1 info not shown \(--show-info shows it\)$/);
    const shown = await runCli(['-', '--show-info'], WARNINGS_AND_INFO);
    expect(shown.stdout).toContain('fail-open');
    expect(summaryLine(shown.stdout)).toMatch(/^⚠ 3 problems \(0 errors, 2 warnings, 1 info\) in 1 file, [^;]*$/);
  });

  it('a hidden info that fails the run (--fail-on info) says so', async () => {
    const { code, stdout } = await runCli(['-', '--fail-on', 'info'], INFO_ONLY);
    expect(code).toBe(1);
    expect(summaryLine(stdout)).toBe(
      'ℹ 1 problem (0 errors, 0 warnings, 1 info) in 1 file, 1 document: 1 admission object linted, 0 Namespaces read, 0 other documents skipped; 1 info not shown fails the run (fails on: info) (--show-info shows it)',
    );
    expect((await runCli(['-'], INFO_ONLY)).code).toBe(0);
  });

  it('-q (ESLint: errors only) still hides warnings and infos, and says so once', async () => {
    const { stdout } = await runCli(['-', '-q'], WARNINGS_AND_INFO);
    expect(stdout).not.toContain('long-timeout');
    expect(summaryLine(stdout)).toMatch(/; 2 warnings and 1 info hidden by -q$/);
  });

  it.each(['json', 'sarif', 'compact', 'github', 'gitlab', 'junit', 'markdown'])('--format %s keeps the info and the fix', async (format) => {
    const { stdout, stderr } = await runCli(['-', '--format', format], WARNINGS_AND_INFO);
    expect(stdout).toContain('fail-open');
    expect(stderr).not.toContain('not shown');
    if (format === 'json') expect(JSON.parse(stdout).findings.every((f: { help: string | null }) => typeof f.help === 'string')).toBe(true);
  });
});

describe('--show-fixes', () => {
  it('prints no fix by default; with --show-fixes, each finding\'s own fix or suggestion and its edit, else the rule\'s help', async () => {
    const plain = await runCli(['-'], WARNINGS_AND_INFO);
    expect(plain.stdout).not.toMatch(/^\s+(fix|suggestion)\b/m);
    expect(plain.stdout).toContain('fixes: --show-fixes');
    const fixes = await runCli(['-', '--show-fixes'], WARNINGS_AND_INFO);
    const lines = fixes.stdout.split('\n');
    // long-timeout has its own edit (a suggestion: a shorter timeout changes behaviour), shown with the line it changes.
    const timeout = lines.findIndex((line) => line.includes('long-timeout'));
    expect(lines[timeout + 1]).toMatch(/^\s+suggestion: timeoutSeconds: 5: /);
    expect(lines[timeout + 2]).toMatch(/^\s+line 9: 30 → 5$/);
    // editable-object-selector has no edit of its own: the rule's help.
    const selector = lines.findIndex((line) => line.includes('editable-object-selector'));
    expect(lines[selector + 1]).toMatch(/^\s+fix: The requester writes the object's labels/);
    expect(fixes.stdout.match(/^\s+(fix|suggestion)\b/gm)).toHaveLength(2);
  });

  it('shows a fix --fix applies as one, with its edit', async () => {
    const implicit = WARNINGS_AND_INFO.replace('    failurePolicy: Ignore\n', '');
    const { stdout } = await runCli(['-', '--show-fixes'], implicit);
    // With failurePolicy, the webhook's other implicit defaults are written (timeoutSeconds is set).
    expect(stdout).toMatch(/\n\s+fix \(--fix applies it\): write failurePolicy: Fail and the other defaults left implicit \(matchPolicy: Equivalent\): the API's values, so nothing changes\n\s+line 5: \+ failurePolicy: Fail, matchPolicy: Equivalent\n/);
    expect(stdout).toMatch(/\n\s+suggestion: failurePolicy: Ignore: .*\n\s+line 5: \+ failurePolicy: Ignore\n/);
  });
});

describe('--max-warnings (ESLint)', () => {
  it('exits 1 when warnings exceed N, and says so; N or fewer pass', async () => {
    const over = await runCli(['-', '--max-warnings', '1'], WARNINGS_AND_INFO);
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('admission-lint: 2 warnings, more than --max-warnings 1 allows: exit 1\n');
    const within = await runCli(['-', '--max-warnings', '2'], WARNINGS_AND_INFO);
    expect(within.code).toBe(0);
    expect(within.stderr).toBe('');
    // -q hides the warnings; they still count, as for --fail-on.
    expect((await runCli(['-', '-q', '--max-warnings', '0'], WARNINGS_AND_INFO)).code).toBe(1);
    expect((await runCli(['-', '--format', 'json', '--max-warnings', '0'], WARNINGS_AND_INFO)).code).toBe(1);
  });

  it('refuses a value that is not a whole number, as a usage error', async () => {
    const bad = await runCli(['-', '--max-warnings', 'many'], WARNINGS_AND_INFO);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^admission-lint: --max-warnings takes a whole number, 0 or more, not "many"\n {2}hint: /);
  });
});

const REAL_WORLD = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'real-world');

describe.skipIf(!existsSync(REAL_WORLD))('the real-world corpus at a terminal 100 columns wide', () => {
  it('prints at most two lines per error or warning, plus the summary', async () => {
    const { stdout } = await onTerminal([REAL_WORLD], 100);
    const json = JSON.parse((await runCli([REAL_WORLD, '--format', 'json'], '')).stdout) as { findings: { severity: string; file: string }[] };
    const shown = json.findings.filter((f) => f.severity !== 'info');
    expect(shown.length).toBeGreaterThan(20);
    const lines = stdout.trimEnd().split('\n');
    const summaryAt = lines.findIndex((line) => /^[✔✖⚠ℹ] /.test(line));
    const body = lines.slice(0, summaryAt);
    const files = new Set(shown.map((f) => f.file)).size;
    const findingLines = body.filter((line) => line.startsWith('  '));
    // Each finding starts with its line:column; a second line may follow it, never a third.
    const starts = findingLines.filter((line) => /^ {2}\d+:\d+ /.test(line));
    expect(starts.length).toBe(shown.length);
    expect(findingLines.length).toBeLessThanOrEqual(2 * shown.length);
    expect(body.length).toBe(findingLines.length + 2 * files);
    // The first line of each finding fits the terminal; the summary is at most three lines and a hint.
    expect(starts.every((line) => [...line].length <= 100)).toBe(true);
    expect(lines.length - summaryAt).toBeLessThanOrEqual(4);
    // Was 1,654 lines for 200 findings (113 infos, each finding with its fix paragraph).
    expect(lines.length).toBeLessThan(3 * shown.length + 2 * files);
  });
});
