/** `--format markdown`: a summary for a pull-request comment or $GITHUB_STEP_SUMMARY. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_DOCS_BASE_URL } from '../src/format/docs.js';
import { DETAILS_THRESHOLD, escapeCell, formatMarkdown } from '../src/format/markdown.js';
import { finding, report } from './format-report.js';

const ROOT = join(import.meta.dirname, '..');

/** The cells of a Markdown table row, split on unescaped pipes as GitHub does. */
const cells = (row: string): string[] => row.replace(/^\| | \|$/g, '').split(/(?<!\\)\| /).map((cell) => cell.trim());
const rows = (markdown: string): string[] => markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Severity') && !line.startsWith('| ---'));

describe('markdown: headline', () => {
  it('says "No problems found" with what was linted', () => {
    expect(formatMarkdown(report([], 3, 2))).toBe('### ✅ admission-lint: No problems found\n\n3 files, 2 admission objects linted.\n');
  });

  it('counts problems by severity', () => {
    const out = formatMarkdown(report([finding(), finding({ severity: 'warning', ruleId: 'implicit-failure-policy' }), finding({ severity: 'warning', ruleId: 'long-timeout' })], 2, 3));
    expect(out.split('\n')[0]).toBe('### ❌ admission-lint: 3 problems (1 error, 2 warnings, 0 infos)');
    expect(out.split('\n')[2]).toBe('2 files, 3 admission objects linted.');
    expect(formatMarkdown(report([finding({ severity: 'warning' })])).split('\n')[0]).toBe('### ⚠️ admission-lint: 1 problem (0 errors, 1 warning, 0 infos)');
    expect(formatMarkdown(report([finding({ severity: 'info' })])).split('\n')[0]).toBe('### ℹ️ admission-lint: 1 problem (0 errors, 0 warnings, 1 info)');
  });
});

describe('markdown: table', () => {
  it('has one row per finding: severity, rule (linked to its docs), file:line, webhook/object, message', () => {
    const out = formatMarkdown(report([finding(), finding({ ruleId: 'yaml-syntax', file: 'broken.yaml', line: 2, object: null, webhook: null, fieldPath: null, documentIndex: 1, message: 'unexpected end' })]));
    expect(out).toContain('| Severity | Rule | File | Webhook / object | Message |\n| --- | --- | --- | --- | --- |\n');
    expect(rows(out).map(cells)).toEqual([
      [
        '❌ error',
        `[timeout-out-of-range](${RULE_DOCS_BASE_URL}timeout-out-of-range.md)`,
        'deploy/webhook.yaml:14',
        'validate.policy.example.com<br>ValidatingWebhookConfiguration/policy',
        'timeoutSeconds is 45; the API server accepts 1 to 30 seconds',
      ],
      ['❌ error', `[yaml-syntax](${RULE_DOCS_BASE_URL}yaml-syntax.md)`, 'broken.yaml:2', 'document 2', 'unexpected end'],
    ]);
    expect(out).not.toContain('<details>');
  });

  it('escapes pipes and line breaks, HTML, Markdown syntax and @mentions', () => {
    expect(escapeCell('a | b')).toBe('a \\| b');
    expect(escapeCell('one\ntwo\r\nthree')).toBe('one<br>two<br>three');
    expect(escapeCell('<stdin> & <script>')).toBe('&lt;stdin&gt; &amp; &lt;script&gt;');
    expect(escapeCell('`code` *em* _u_ [link](x) ~s~ \\')).toBe('\\`code\\` \\*em\\* \\_u\\_ \\[link\\](x) \\~s\\~ \\\\');
    expect(escapeCell('ping @org/team')).toBe('ping &#64;org/team');
  });

  it('keeps a hostile message inside its cell, on one line', () => {
    const message = "CEL error: has(object.x) || y\n | ^ here\n`oops` <b>bold</b> @admin";
    const out = formatMarkdown(report([finding({ message, file: '<stdin>', webhook: 'a|b' })]));
    const [row] = rows(out);
    expect(out.split('\n').filter((line) => line.startsWith('| ')).length).toBe(3);
    expect(cells(row!)).toHaveLength(5);
    expect(cells(row!)[2]).toBe('&lt;stdin&gt;:14');
    expect(cells(row!)[3]).toBe('a\\|b<br>ValidatingWebhookConfiguration/policy');
    expect(cells(row!)[4]).toBe('CEL error: has(object.x) \\|\\| y<br> \\| ^ here<br>\\`oops\\` &lt;b&gt;bold&lt;/b&gt; &#64;admin');
  });
});

describe('markdown: many findings', () => {
  const many = [
    ...Array.from({ length: 8 }, (_, i) => finding({ severity: 'warning', ruleId: 'implicit-failure-policy', line: i + 1 })),
    ...Array.from({ length: 3 }, (_, i) => finding({ ruleId: 'timeout-out-of-range', line: i + 20 })),
    finding({ severity: 'info', ruleId: 'long-timeout', line: 40 }),
  ];

  it(`collapses the findings per rule in <details> above ${DETAILS_THRESHOLD}, errors first`, () => {
    expect(many.length).toBeGreaterThan(DETAILS_THRESHOLD);
    const out = formatMarkdown(report(many));
    const summaries = [...out.matchAll(/<summary>(.*)<\/summary>/g)].map((m) => m[1]);
    expect(summaries).toEqual([
      '❌ <code>timeout-out-of-range</code>: 3 findings',
      '⚠️ <code>implicit-failure-policy</code>: 8 findings',
      'ℹ️ <code>long-timeout</code>: 1 finding',
    ]);
    expect(out.match(/<details>/g)).toHaveLength(3);
    expect(out.match(/<\/details>/g)).toHaveLength(3);
    expect(rows(out)).toHaveLength(many.length);
    // A blank line after <summary> and before </details>, or GitHub does not render the table.
    expect(out).toMatch(/<\/summary>\n\n\| Severity/);
    expect(out).toMatch(/\|\n\n<\/details>/);
  });

  it('takes the threshold as an option', () => {
    expect(formatMarkdown(report(many), { detailsThreshold: 100 })).not.toContain('<details>');
    expect(formatMarkdown(report([finding()]), { detailsThreshold: 0 })).toContain('<details>');
  });

  it('stays under the size limit of a comment and says how many findings it left out', () => {
    const lots = Array.from({ length: 2000 }, (_, i) => finding({ line: i + 1, message: `problem number ${i} `.repeat(10) }));
    const out = formatMarkdown(report(lots));
    expect(out.length).toBeLessThan(65_536);
    const shown = rows(out).length;
    expect(shown).toBeGreaterThan(10);
    expect(out).toContain(`… and ${2000 - shown} more findings not shown here`);
  });
});

describe('markdown: the built CLI', () => {
  it('writes the summary for the bundled examples', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), '--format', 'markdown', 'fixtures/examples'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^### ❌ admission-lint: \d+ problems \(\d+ errors?, \d+ warnings?, \d+ infos?\)\n/);
    expect(run.stdout).toContain('fixtures/examples/policy-webhook.yaml:');
    const clean = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), '--format', 'markdown', 'fixtures/removed-api-version/valid/v1.yaml'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('No problems found');
  });
});
