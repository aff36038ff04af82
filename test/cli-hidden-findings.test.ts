/**
 * `-q` and `--baseline` say how many findings they hid (issue 15), and the output agrees with the
 * exit code: findings hidden by `-q` still count for `--fail-on`, so `-q --fail-on warning` with
 * only warnings exits 1 and says why instead of "✔ no problems".
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WARNINGS_AND_INFO_MANIFEST } from './helpers.js';
import { runCli } from './run-cli.js';

/** Findings: long-timeout (warning), editable-object-selector (warning), fail-open (info). */
const WARNINGS_ONLY = WARNINGS_AND_INFO_MANIFEST;

/** The same plus an error (side-effects). */
const WITH_ERROR = WARNINGS_ONLY.replace('sideEffects: None', 'sideEffects: Unknown');

const summaryLine = (stdout: string): string => stdout.trimEnd().split('\n').find((line) => /^[✔✖⚠ℹ] /.test(line)) ?? '';

describe('-q says what it hid, and its output agrees with the exit code', () => {
  it('-q --fail-on warning with only warnings: no ✔, the summary says the hidden warnings fail the run, exit 1', async () => {
    const { code, stdout } = await runCli(['-', '-q', '--fail-on', 'warning'], WARNINGS_ONLY);
    expect(code).toBe(1);
    expect(stdout).not.toContain('✔');
    expect(summaryLine(stdout)).toBe(
      '⚠ no problems shown (1 file, 1 document: 1 admission object linted, 0 Namespaces read, 0 other documents skipped); 2 warnings and 1 info hidden by -q fail the run (fails on: warning)',
    );
  });

  it('-q with the default --fail-on error: ✔, and how many were hidden; exit 0', async () => {
    const { code, stdout } = await runCli(['-', '-q'], WARNINGS_ONLY);
    expect(code).toBe(0);
    expect(summaryLine(stdout)).toBe('✔ no problems shown (1 file, 1 document: 1 admission object linted, 0 Namespaces read, 0 other documents skipped); 2 warnings and 1 info hidden by -q');
  });

  it('-q with errors: the errors, then the count of the rest', async () => {
    const { code, stdout } = await runCli(['-', '-q'], WITH_ERROR);
    expect(code).toBe(1);
    expect(stdout).toContain('side-effects');
    expect(stdout).not.toContain('long-timeout');
    expect(summaryLine(stdout)).toMatch(/^✖ 1 problem \(1 error, 0 warnings, 0 infos\) in 1 file, .*; 2 warnings and 1 info hidden by -q$/);
  });

  it('--write-baseline exits 0, so with it the hidden findings fail nothing and the summary does not say they do', async () => {
    const baseline = join(mkdtempSync(join(tmpdir(), 'admission-lint-hidden-')), 'baseline.json');
    const { code, stdout } = await runCli(['-', '-q', '--fail-on', 'warning', '--write-baseline', baseline], WARNINGS_ONLY);
    expect(code).toBe(0);
    expect(summaryLine(stdout)).toMatch(/^✔ no problems shown \(.*\); 2 warnings and 1 info hidden by -q$/);
  });

  it('JSON says when the hidden findings are what fails the run', async () => {
    const { code, stdout } = await runCli(['-', '-q', '--fail-on', 'warning', '--format', 'json'], WARNINGS_ONLY);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as { hidden: unknown }).hidden).toEqual({ quiet: { warnings: 2, infos: 1 }, failsRunOn: 'warning' });
  });

  it('without -q nothing is said about hiding', async () => {
    const { stdout } = await runCli(['-'], WARNINGS_ONLY);
    expect(stdout).not.toContain('hidden');
  });

  it('markdown: the headline has no ✅ when hidden findings fail the run, and says how many were hidden', async () => {
    const failing = await runCli(['-', '-q', '--fail-on', 'warning', '--format', 'markdown'], WARNINGS_ONLY);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toBe('### ⚠️ admission-lint: No problems shown\n\n1 file, 1 admission object (gate changed: fails on: warning) linted; 2 warnings and 1 info hidden by -q fail the run (fails on: warning).\n');
    const passing = await runCli(['-', '-q', '--format', 'markdown'], WARNINGS_ONLY);
    expect(passing.stdout.split('\n')[0]).toBe('### ✅ admission-lint: No problems shown');
  });

  it('JSON: a `hidden` field after the contract fields', async () => {
    const { stdout, stderr } = await runCli(['-', '-q', '--format', 'json'], WITH_ERROR);
    const data = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(data).slice(0, 3)).toEqual(['tool', 'findings', 'summary']);
    expect(Object.keys(data).at(-1)).toBe('hidden');
    expect(data.hidden).toEqual({ quiet: { warnings: 2, infos: 1 } });
    expect(stderr).toBe('');
    expect(Object.keys(JSON.parse((await runCli(['-', '--format', 'json'], WITH_ERROR)).stdout) as object)).not.toContain('hidden');
  });

  it('formats without a summary (compact, gitlab, sarif, github, junit) say it on stderr, one line', async () => {
    for (const format of ['compact', 'gitlab', 'sarif', 'github', 'junit']) {
      const { code, stderr } = await runCli(['-', '-q', '--fail-on', 'warning', '--format', format], WARNINGS_ONLY);
      expect({ format, code, stderr }).toEqual({ format, code: 1, stderr: 'admission-lint: 2 warnings and 1 info hidden by -q fail the run (fails on: warning)\n' });
    }
  });
});

describe('--baseline says how many findings it hid', () => {
  async function withBaseline(recorded: string, linted: string, args: string[]) {
    const baseline = join(mkdtempSync(join(tmpdir(), 'admission-lint-hidden-')), 'baseline.json');
    expect((await runCli(['-', '--write-baseline', baseline], recorded)).code).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8'))).toMatchObject({ entries: expect.any(Array) });
    return runCli(['-', '--baseline', baseline, ...args], linted);
  }

  it('stylish: "N findings in the baseline not shown"', async () => {
    const { code, stdout } = await withBaseline(WARNINGS_ONLY, WITH_ERROR, []);
    expect(code).toBe(1);
    expect(summaryLine(stdout)).toMatch(/^✖ 1 problem \(1 error, 0 warnings, 0 infos\) in .*; 3 findings in the baseline not shown$/);
  });

  it('everything in the baseline: ✔ no problems shown, and the count', async () => {
    const { code, stdout } = await withBaseline(WARNINGS_ONLY, WARNINGS_ONLY, []);
    expect(code).toBe(0);
    expect(summaryLine(stdout)).toMatch(/^✔ no problems shown \(.*\); 3 findings in the baseline not shown$/);
  });

  it('with -q too: both counts; JSON carries both', async () => {
    const { stdout } = await withBaseline(WARNINGS_ONLY.replace('timeoutSeconds: 30', 'timeoutSeconds: 5'), WITH_ERROR, ['-q']);
    expect(summaryLine(stdout)).toMatch(/; 1 warning hidden by -q; 2 findings in the baseline not shown$/);
    const json = JSON.parse((await withBaseline(WARNINGS_ONLY.replace('timeoutSeconds: 30', 'timeoutSeconds: 5'), WITH_ERROR, ['-q', '--format', 'json'])).stdout) as { hidden: unknown };
    expect(json.hidden).toEqual({ quiet: { warnings: 1, infos: 0 }, baseline: 2 });
  });

  it('compact: on stderr', async () => {
    const { stdout, stderr } = await withBaseline(WARNINGS_ONLY, WITH_ERROR, ['--format', 'compact']);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toBe('admission-lint: 3 findings in the baseline not shown\n');
  });
});
