/** A path named twice on the command line (two spellings, its folder) is linted once, under the first name given. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const TEXT = readFileSync(join(ROOT, 'fixtures', 'self-deadlock', 'invalid', 'own-pods-selected.yaml'), 'utf8');

describe('a file named twice', () => {
  it('is linted once, under the first name given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'same-file-twice-'));
    const file = join(dir, 'a.yaml');
    writeFileSync(file, TEXT);
    const once = JSON.parse((await runCli(['--no-config-lookup', '--format', 'json', file], '')).stdout) as { findings: { file: string }[] };
    expect(once.findings.length).toBeGreaterThan(0);
    const twice = JSON.parse((await runCli(['--no-config-lookup', '--format', 'json', file, `${dir}/./a.yaml`, `${dir}//a.yaml`, `${dir}/../${basename(dir)}/a.yaml`, dir], '')).stdout) as { findings: { file: string }[] };
    expect(twice.findings.length).toBe(once.findings.length);
    expect(new Set(twice.findings.map((finding) => finding.file))).toEqual(new Set(once.findings.map((finding) => finding.file)));
  });
});
