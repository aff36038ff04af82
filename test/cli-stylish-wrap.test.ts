/**
 * Stylish wraps long messages to the terminal's width (issue 15), under the message column, so the
 * location and severity columns stay clear, and once only: a finding takes two lines at most
 * (issue 22), its fix only with --show-fixes. Only a terminal is wrapped (its width, or COLUMNS);
 * a pipe, a file or a CI log gets one line per finding, as Ruff and ESLint print them.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { wrapWidth } from '../src/cli/terminal.js';
import { formatStylish } from '../src/format/stylish.js';
import { wrapWords } from '../src/format/wrap.js';
import { finding, report } from './format-report.js';

const LONG = 'webhook "widgets.example.com" does not set failurePolicy; the API default is Fail: while the webhook is down, slow or presents a bad certificate, every request it matches is rejected';

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    clientConfig: {url: https://widgets.example.com/validate}
    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}]
`;

/** The CLI in this process, with stdout as a terminal of `columns` (or a pipe) and the given environment. */
async function lint(args: string[], stdout: { isTTY?: boolean; columns?: number }, env: Record<string, string> = {}): Promise<string> {
  let out = '';
  await run([...args], {
    stdout: { ...stdout, write: (text: string) => (out += text) },
    stderr: { write: () => undefined },
    env,
    readStdin: () => new TextEncoder().encode(MANIFEST),
  });
  return out;
}

const plain = new Chalk({ level: 0 });
/** The widest line as a terminal shows it (colour codes take no columns). */
// eslint-disable-next-line no-control-regex
const longest = (text: string): number => Math.max(...text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => [...line].length));

describe('wrapWords', () => {
  it('breaks at spaces into lines of at most the width', () => {
    expect(wrapWords('one two three four five', 9)).toEqual(['one two', 'three', 'four five']);
    expect(wrapWords('short', 40)).toEqual(['short']);
    expect(wrapWords('', 10)).toEqual(['']);
  });

  it('keeps a word longer than the width whole, on a line of its own', () => {
    expect(wrapWords('see https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/ now', 20)).toEqual([
      'see',
      'https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/',
      'now',
    ]);
  });
});

describe('stylish wrapping', () => {
  const findings = [
    finding({
      message: LONG,
      ruleId: 'implicit-failure-policy',
      severity: 'warning',
      line: 5,
      column: 5,
      help: 'Set failurePolicy explicitly: Fail for checks that must hold, Ignore for best-effort ones; keep the timeout short either way.',
    }),
    finding({ line: 120, column: 11 }),
  ];

  it('without a width, each finding is one line, however long', () => {
    const out = formatStylish(report(findings), plain);
    expect(out).toContain(`  5:5     warning  ${LONG}  implicit-failure-policy\n`);
  });

  it('with --show-fixes, wraps message and fix under the message column, keeping location and severity columns clear', () => {
    const help = 'Set failurePolicy explicitly: Fail for checks that must hold, Ignore for best-effort ones; keep the timeout short either way.';
    const out = formatStylish(report(findings), plain, { width: 80, showFixes: true });
    const lines = out.split('\n');
    const start = lines.findIndex((line) => line.startsWith('  5:5 '));
    const block = lines.slice(start, lines.findIndex((line) => line.startsWith('  120:11')));
    // The location column is as wide as its longest entry (120:11), the severity column 7, each with two spaces.
    const indent = ' '.repeat(2 + 6 + 2 + 7 + 2);
    expect(block[0]).toMatch(/^ {2}5:5 {5}warning {2}webhook "widgets\.example\.com" does not set/);
    const fixAt = block.findIndex((line) => line.startsWith(`${indent}fix: `));
    // The message wraps once: its first line fills the width, the second holds the rest and the rule id.
    expect(fixAt).toBe(2);
    expect([...block[0]!].length).toBeLessThanOrEqual(80);
    expect([...block[0]!].length).toBeGreaterThan(70);
    expect(block[1]).toMatch(new RegExp(`^${indent}\\S.*  implicit-failure-policy$`));
    for (const line of block.slice(fixAt + 1)) expect(line).toMatch(new RegExp(`^${indent} {5}\\S`));
    expect(block.length).toBeGreaterThan(fixAt + 1);
    expect(block.slice(fixAt).every((line) => [...line].length <= 80)).toBe(true);
    // Nothing lost or reordered: the words read back, the rule id ending the message, the fix below.
    expect(block.join(' ').split(/\s+/).filter((word) => word !== '')).toEqual(['5:5', 'warning', ...LONG.split(' '), 'implicit-failure-policy', 'fix:', ...help.split(' ')]);
  });

  it('a finding takes two lines at most: the rest of the message and the rule id share the second', () => {
    const width = 2 + 3 + 2 + 7 + 2 + 30;
    const one = formatStylish(report([finding({ message: 'abcdefghij abcdefghij abcdefghij', ruleId: 'implicit-failure-policy', line: 5, column: 5, help: null })]), plain, { width });
    // Under the message column it would not fit 46 columns; from the four-column hang it does.
    expect(one.split('\n').slice(1, 4)).toEqual(['  5:5  error    abcdefghij abcdefghij', '    abcdefghij  implicit-failure-policy', '']);
    const fits = formatStylish(report([finding({ message: 'abcdefghij abcdefghij abcdefghij', ruleId: 'implicit-failure-policy', line: 5, column: 5, help: null })]), plain, { width: width + 30 });
    expect(fits.split('\n')[1]).toBe('  5:5  error    abcdefghij abcdefghij abcdefghij  implicit-failure-policy');
    const twice = formatStylish(report([finding({ message: 'abcdefghij '.repeat(12).trim(), ruleId: 'implicit-failure-policy', line: 5, column: 5, help: null })]), plain, { width });
    expect(twice.split('\n').slice(1, 4)).toEqual(['  5:5  error    abcdefghij abcdefghij', `                ${'abcdefghij '.repeat(10)} implicit-failure-policy`, '']);
  });

  it('a second line too long under the message column starts at a four-column hang when it fits there', () => {
    const width = 2 + 3 + 2 + 7 + 2 + 30;
    const message = 'abcdefghij abcdefghij abcdefghij abcdefghij';
    const hang = formatStylish(report([finding({ message, ruleId: 'xx-rule-id', line: 5, column: 5, help: null })]), plain, { width });
    expect(hang.split('\n').slice(1, 3)).toEqual(['  5:5  error    abcdefghij abcdefghij', '    abcdefghij abcdefghij  xx-rule-id']);
    const under = formatStylish(report([finding({ message, ruleId: 'x-rule', line: 5, column: 5, help: null })]), plain, { width });
    expect(under.split('\n').slice(1, 3)).toEqual(['  5:5  error    abcdefghij abcdefghij', '                abcdefghij abcdefghij  x-rule']);
  });

  it('prints the fix only with --show-fixes, and says so below the summary', () => {
    const withFix = [finding({ help: 'Write failurePolicy: Fail.' })];
    expect(formatStylish(report(withFix), plain)).not.toContain('fix: ');
    expect(formatStylish(report(withFix), plain)).toContain('\nfixes: --show-fixes; why, and a correct example: admission-lint explain <rule-id>\n');
    expect(formatStylish(report(withFix), plain, { showFixes: true })).toContain('fix: Write failurePolicy: Fail.');
    expect(formatStylish(report(withFix), plain, { showFixes: true })).not.toContain('--show-fixes');
  });

  it('with --show-fixes and the finding\'s own edits: what each does, then its edits in short (three at most), instead of the help', () => {
    const at = (line: number, column: number) => ({ line, column, byteColumn: column });
    const own = [finding({ help: 'Write failurePolicy: Fail.' })];
    const fixes = () => [
      {
        description: 'move to v1',
        kind: 'fix' as const,
        edits: [
          { start: at(1, 13), end: at(1, 40), text: 'admissionregistration.k8s.io/v1', replaced: 'admissionregistration.k8s.io/v1beta1' },
          { start: at(5, 5), end: at(5, 5), text: `failurePolicy: Ignore\n    `, replaced: '' },
          { start: at(9, 30), end: at(9, 42), text: '', replaced: ', "pods/x"' },
          { start: at(5, 5), end: at(5, 5), text: 'matchPolicy: Exact\n    ', replaced: '' },
        ],
      },
      { description: `exclude ${'x'.repeat(10)}`, kind: 'suggestion' as const, edits: [{ start: at(5, 5), end: at(5, 5), text: `namespaceSelector: {matchExpressions: [{key: ${'k'.repeat(80)}}]}`, replaced: '' }] },
    ];
    const out = formatStylish(report(own), plain, { showFixes: true, fixes });
    expect(out).not.toContain('Write failurePolicy');
    expect(out).toContain('fix (--fix applies it): move to v1\n');
    expect(out).toContain('     line 1: admissionregistration.k8s.io/v1beta1 → admissionregistration.k8s.io/v1; line 5: + failurePolicy: Ignore; line 9: - , "pods/x"; and 1 more edit\n');
    expect(out).toContain('suggestion: exclude xxxxxxxxxx\n');
    expect(out).toMatch(/ {5}line 5: \+ namespaceSelector: \{matchExpressions: \[\{key: k+…\n/);
    // Without edits of its own, the help.
    expect(formatStylish(report(own), plain, { showFixes: true, fixes: () => [] })).toContain('fix: Write failurePolicy: Fail.');
  });

  it("does not wrap a CEL error's snippet and caret lines, whose columns must stay", () => {
    const snippet = ` | ${'object.spec.containers.all(c, c.image.startsWith("registry.example.com/")) &&& x'}`;
    const caret = ` | ${'.'.repeat(80)}^`;
    const out = formatStylish(report([finding({ message: `x: compilation failed: ERROR: <input>:1:81: Syntax error\n${snippet}\n${caret}`, help: null })]), plain, { width: 60 });
    expect(out).toContain(`\n${' '.repeat(17)}${snippet}\n${' '.repeat(17)}${caret}\n`);
  });
});

describe('stylish wrapping in the CLI', () => {
  it('a terminal is wrapped at its width', async () => {
    const out = await lint(['-'], { isTTY: true, columns: 60 });
    expect(out).toContain('\u001b[');
    expect(out).toContain('implicit-failure-policy');
    // The first line of each finding fills the width; the second holds the rest (two lines at most).
    const body = out.slice(0, out.indexOf('problem')).split('\n');
    const starts = body.filter((line) => /^ {2}(?:\u001b\[[0-9;]*m)?\d+:\d+/.test(line));
    expect(starts.length).toBeGreaterThan(0);
    expect(longest(starts.join('\n'))).toBeLessThanOrEqual(60);
    expect(body.filter((line) => line.startsWith('  ')).length).toBeLessThanOrEqual(2 * starts.length);
  });

  it('COLUMNS overrides the terminal width', async () => {
    const out = await lint(['-', '--no-color', '--show-fixes'], { isTTY: true, columns: 200 }, { COLUMNS: '70' });
    // The finding's own fix and suggestion (implicit failurePolicy), each with its edit.
    const fixes = out.slice(out.indexOf('fix (--fix applies it): '), out.indexOf('problem')).split('\n').slice(0, -2);
    expect(fixes.length).toBeGreaterThan(3);
    expect(fixes.join('\n')).toMatch(/suggestion: failurePolicy: Ignore/);
    expect(longest(fixes.join('\n'))).toBeLessThanOrEqual(70);
    expect(longest(out.split('\n')[1]!)).toBeLessThanOrEqual(70);
  });

  it('a pipe is not wrapped, whatever COLUMNS says; nor is --output', async () => {
    const piped = await lint(['-'], { isTTY: false }, { COLUMNS: '60' });
    const findingLine = piped.split('\n').find((line) => line.includes('implicit-failure-policy'))!;
    expect(findingLine.length).toBeGreaterThan(100);
    expect(findingLine).toMatch(/does not set failurePolicy.*implicit-failure-policy$/);
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-wrap-'));
    await lint(['-', '--output', join(dir, 'out.txt')], { isTTY: true, columns: 60 });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toContain(findingLine);
  });

  it('wrapWidth: only a terminal, COLUMNS first, never for --output', () => {
    expect(wrapWidth({}, { stdout: { isTTY: true, columns: 100 }, env: {} })).toBe(100);
    expect(wrapWidth({}, { stdout: { isTTY: true, columns: 100 }, env: { COLUMNS: '72' } })).toBe(72);
    expect(wrapWidth({}, { stdout: { isTTY: true, columns: 100 }, env: { COLUMNS: 'wide' } })).toBe(100);
    expect(wrapWidth({}, { stdout: { isTTY: false, columns: 100 }, env: { COLUMNS: '72' } })).toBeUndefined();
    expect(wrapWidth({ output: 'x.txt' }, { stdout: { isTTY: true, columns: 100 }, env: {} })).toBeUndefined();
    expect(wrapWidth({}, { stdout: { isTTY: true }, env: {} })).toBeUndefined();
  });
});
