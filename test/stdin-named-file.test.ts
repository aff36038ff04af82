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
});
