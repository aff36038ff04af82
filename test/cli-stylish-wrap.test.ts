/**
 * Stylish wraps long messages to the terminal's width (issue 15), under the message column, so the
 * location and severity columns stay clear. Only a terminal is wrapped (its width, or COLUMNS);
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
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
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

  it('wraps message and fix under the message column, keeping location and severity columns clear', () => {
    const help = 'Set failurePolicy explicitly: Fail for checks that must hold, Ignore for best-effort ones; keep the timeout short either way.';
    const out = formatStylish(report(findings), plain, { width: 80 });
    const lines = out.split('\n');
    const start = lines.findIndex((line) => line.startsWith('  5:5 '));
    const block = lines.slice(start, lines.findIndex((line) => line.startsWith('  120:11')));
    // The location column is as wide as its longest entry (120:11), the severity column 7, each with two spaces.
    const indent = ' '.repeat(2 + 6 + 2 + 7 + 2);
    expect(block[0]).toMatch(/^ {2}5:5 {5}warning {2}webhook "widgets\.example\.com" does not set/);
    const fixAt = block.findIndex((line) => line.startsWith(`${indent}fix: `));
    expect(fixAt).toBeGreaterThan(2);
    for (const line of block.slice(1, fixAt)) expect(line).toMatch(new RegExp(`^${indent}\\S`));
    for (const line of block.slice(fixAt + 1)) expect(line).toMatch(new RegExp(`^${indent} {5}\\S`));
    expect(block.length).toBeGreaterThan(fixAt + 1);
    expect(block.every((line) => [...line].length <= 80)).toBe(true);
    // Nothing lost or reordered: the words read back, the rule id ending the message, the fix below.
    expect(block.join(' ').split(/\s+/).filter((word) => word !== '')).toEqual(['5:5', 'warning', ...LONG.split(' '), 'implicit-failure-policy', 'fix:', ...help.split(' ')]);
  });

  it('puts the rule id on a line of its own when the last message line has no room for it', () => {
    const width = 2 + 3 + 2 + 7 + 2 + 30;
    const out = formatStylish(report([finding({ message: 'abcdefghij abcdefghij abcdefghij', ruleId: 'implicit-failure-policy', line: 5, column: 5, help: null })]), plain, { width });
    expect(out.split('\n').slice(1, 4)).toEqual(['  5:5  error    abcdefghij abcdefghij', '                abcdefghij', '                implicit-failure-policy']);
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
    expect(longest(out.slice(0, out.indexOf('problem')))).toBeLessThanOrEqual(60);
  });

  it('COLUMNS overrides the terminal width', async () => {
    const out = await lint(['-', '--no-color'], { isTTY: true, columns: 200 }, { COLUMNS: '70' });
    expect(longest(out.slice(0, out.indexOf('problem')))).toBeLessThanOrEqual(70);
    expect(out.split('\n').filter((line) => line.startsWith('  ')).length).toBeGreaterThan(3);
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
