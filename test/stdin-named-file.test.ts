/**
 * A file named as standard input is shown (`<stdin>`) is shown as `./<stdin>`: the formats,
 * --stdin-filename and --fix take `<stdin>` for standard input, and would take the file's
 * findings for standard input's (renamed, written to stdout, a SARIF uri of `stdin`).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'admission-lint.js');

describe('a file named <stdin>', () => {
  it('is shown as ./<stdin>, apart from standard input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stdin-named-'));
    copyFileSync(join(ROOT, 'fixtures', 'examples', 'legacy-v1beta1.yaml'), join(dir, '<stdin>'));
    const input = readFileSync(join(ROOT, 'fixtures', 'examples', 'namespaces.yaml'), 'utf8');
    const result = spawnSync(process.execPath, [BIN, '--no-config-lookup', '--format', 'json', '--stdin-filename', 'ns.yaml', '-', '<stdin>'], { cwd: dir, input, encoding: 'utf8' });
    const report = JSON.parse(result.stdout) as { findings: { file: string; ruleId: string }[] };
    expect(report.findings.filter((finding) => finding.ruleId === 'removed-api-version').map((finding) => finding.file)).toEqual(['./<stdin>']);
    expect(report.findings.some((finding) => finding.file === 'ns.yaml' && finding.ruleId === 'removed-api-version')).toBe(false);
    const sarif = spawnSync(process.execPath, [BIN, '--no-config-lookup', '--format', 'sarif', '<stdin>'], { cwd: dir, encoding: 'utf8' });
    expect(sarif.stdout).not.toContain('"uri": "stdin"');
  });

  it('keeps its own baseline entries, apart from standard input\'s (attack s50d 9)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stdin-named-'));
    const text = readFileSync(join(ROOT, 'fixtures', 'examples', 'legacy-v1beta1.yaml'), 'utf8');
    copyFileSync(join(ROOT, 'fixtures', 'examples', 'legacy-v1beta1.yaml'), join(dir, '<stdin>'));
    spawnSync(process.execPath, [BIN, '--no-config-lookup', '--write-baseline', 'baseline.json', '<stdin>'], { cwd: dir, encoding: 'utf8' });
    // Standard input with the same text is not in the baseline of the file: its findings show.
    const fromStdin = spawnSync(process.execPath, [BIN, '--no-config-lookup', '--format', 'json', '--baseline', 'baseline.json', '-'], { cwd: dir, input: text, encoding: 'utf8' });
    expect((JSON.parse(fromStdin.stdout) as { findings: unknown[] }).findings.length).toBeGreaterThan(0);
    const fromFile = spawnSync(process.execPath, [BIN, '--no-config-lookup', '--format', 'json', '--baseline', 'baseline.json', '<stdin>'], { cwd: dir, encoding: 'utf8' });
    expect((JSON.parse(fromFile.stdout) as { findings: unknown[] }).findings).toEqual([]);
  });

  it('is what a helm `# Source: <stdin>` comment names: ./<stdin>, not standard input (attack s50d 10)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stdin-named-'));
    const text = `---\n# Source: <stdin>\n${readFileSync(join(ROOT, 'fixtures', 'examples', 'legacy-v1beta1.yaml'), 'utf8')}`;
    const result = spawnSync(process.execPath, [BIN, '--no-config-lookup', '--format', 'json', '--stdin-filename', 'ns.yaml', '-'], { cwd: dir, input: text, encoding: 'utf8' });
    const files = (JSON.parse(result.stdout) as { findings: { file: string }[] }).findings.map((finding) => finding.file);
    expect(files.length).toBeGreaterThan(0);
    expect(new Set(files)).toEqual(new Set(['./<stdin>']));
  });
});
