/**
 * Issue 12 item 5: outputs (`--output`, `--write-baseline`) are written atomically, never through
 * a symbolic link, never onto an input of the run, never two onto one file. Each finding of the
 * issue is reproduced in a temp folder with the built CLI (`npm run build` first, as `npm test` does).
 */
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDestinations } from '../src/output-safety/destinations.js';
import { writeFileAtomic } from '../src/output-safety/write.js';
import { webhookConfiguration, webhookEntry, PODS_RULE } from './helpers.js';
import { spawnCli } from './spawn-cli.js';


/** One webhook without failurePolicy: a warning, so every format has a finding to write. */
const MANIFEST = webhookConfiguration('Validating', 'widgets', webhookEntry('widgets.example.com', PODS_RULE)).replace('    failurePolicy: Ignore\n', '');

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], cwd: string) => spawnCli(args, { cwd });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout: deploy/hook.yaml, plus whatever the test adds. */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-writes-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'deploy'));
  writeFileSync(join(dir, 'deploy', 'hook.yaml'), MANIFEST);
  return dir;
}

const oneLine = (stderr: string): void => expect(stderr.trimEnd().split('\n')).toHaveLength(1);
const tempFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('safe writes', () => {
  it('-o onto a file committed as a symbolic link: exit 2, the link and its target untouched', () => {
    const dir = checkout();
    const outside = mkdtempSync(join(tmpdir(), 'admission-lint-target-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'precious'), 'keep me\n');
    symlinkSync(join(outside, 'precious'), join(dir, 'planted.sarif'));
    const result = cli(['deploy', '-f', 'sarif', '-o', 'planted.sarif'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --output planted.sarif: is a symbolic link; admission-lint does not write through one\n');
    expect(readFileSync(join(outside, 'precious'), 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(dir, 'planted.sarif')).isSymbolicLink()).toBe(true);
    // A dangling link is refused too: writing would create its target.
    symlinkSync(join(outside, 'new-file'), join(dir, 'dangling.json'));
    expect(cli(['deploy', '--write-baseline', 'dangling.json'], dir).code).toBe(2);
    expect(existsSync(join(outside, 'new-file'))).toBe(false);
  });

  it('-o into a folder committed as a symbolic link: exit 2', () => {
    const dir = checkout();
    const outside = mkdtempSync(join(tmpdir(), 'admission-lint-target-'));
    dirs.push(outside);
    symlinkSync(outside, join(dir, 'reports'));
    const result = cli(['deploy', '-f', 'sarif', '-o', 'reports/out.sarif'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --output reports/out.sarif: its folder reports is a symbolic link; admission-lint does not write through one\n');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('-o onto a folder or another file that is not regular: exit 2', () => {
    const dir = checkout();
    const result = cli(['deploy', '-o', 'deploy'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --output deploy: is not a regular file\n');
  });

  it('--write-baseline onto a manifest being linted: exit 2, the manifest kept', () => {
    const dir = checkout();
    for (const args of [
      ['deploy', '--write-baseline', 'deploy/hook.yaml'],
      ['deploy/hook.yaml', '--write-baseline', 'deploy/hook.yaml'],
      ['.', '-o', './deploy/hook.yaml'],
    ]) {
      const result = cli(args, dir);
      expect(result.code).toBe(2);
      oneLine(result.stderr);
      expect(result.stderr).toMatch(/^admission-lint: --(write-baseline|output) \.?\/?deploy\/hook\.yaml: is a file this run lints; write it elsewhere\n$/);
      expect(readFileSync(join(dir, 'deploy', 'hook.yaml'), 'utf8')).toBe(MANIFEST);
    }
    // A hard link to the manifest is the same file.
    linkSync(join(dir, 'deploy', 'hook.yaml'), join(dir, 'alias.yaml'));
    expect(cli(['deploy', '--write-baseline', 'alias.yaml'], dir).code).toBe(2);
    expect(readFileSync(join(dir, 'deploy', 'hook.yaml'), 'utf8')).toBe(MANIFEST);
  });

  it('--write-baseline same.json -o same.json: exit 2, nothing written', () => {
    const dir = checkout();
    const result = cli(['deploy', '--write-baseline', 'same.json', '-o', 'same.json', '-f', 'json'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --write-baseline same.json: is also the destination of --output\n');
    expect(existsSync(join(dir, 'same.json'))).toBe(false);
    // The same file by another spelling.
    expect(cli(['deploy', '--write-baseline', 'same.json', '-o', './deploy/../same.json'], dir).code).toBe(2);
  });

  it('--baseline b.json -o b.json: exit 2, the baseline kept', () => {
    const dir = checkout();
    expect(cli(['deploy', '--write-baseline', 'b.json'], dir).code).toBe(0);
    const baseline = readFileSync(join(dir, 'b.json'), 'utf8');
    const result = cli(['deploy', '--baseline', 'b.json', '-o', 'b.json'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --output b.json: is the baseline this run reads; write it elsewhere\n');
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(baseline);
    // Refreshing the baseline in place is the documented way to prune it: read whole, replaced atomically.
    expect(cli(['deploy', '--baseline', 'b.json', '--write-baseline', 'b.json'], dir).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'))).toEqual(JSON.parse(baseline));
  });

  it('-o onto the config file read: exit 2', () => {
    const dir = checkout();
    writeFileSync(join(dir, '.admission-lint.json'), '{"failOn": "warning"}\n');
    const result = cli(['deploy', '-o', '.admission-lint.json'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('admission-lint: --output .admission-lint.json: is the config file this run reads; write it elsewhere\n');
  });

  it('what keeps working: rewriting a baseline or a report inside the linted folder, new files in new places', () => {
    const dir = checkout();
    for (let i = 0; i < 2; i++) {
      expect(cli(['--write-baseline', 'baseline.json', '.'], dir).code).toBe(0);
      expect(cli(['.', '-f', 'json', '-o', 'report.json', '--fail-on', 'never'], dir).code).toBe(0);
      expect(cli(['.', '-f', 'sarif', '-o', 'report.sarif.json', '--fail-on', 'never'], dir).code).toBe(0);
    }
    expect(JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'))).toMatchObject({ tool: 'admission-lint' });
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ tool: { name: 'admission-lint' } });
    expect(cli(['deploy', '--baseline', 'baseline.json', '-o', 'new.txt'], dir).code).toBe(0);
    expect(tempFiles(dir)).toEqual([]);
  });

  it('writes atomically: a temp file in the same folder, renamed over the destination', () => {
    const dir = checkout();
    const file = join(dir, 'out.txt');
    writeFileSync(file, 'old\n', { mode: 0o640 });
    writeFileAtomic('--output', 'out.txt', 'new\n', { cwd: dir });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(lstatSync(file).mode & 0o777).toBe(0o640);
    expect(tempFiles(dir)).toEqual([]);
    // A failed write leaves no temp file and names the file (a missing folder is created: issue 22).
    expect(() => writeFileAtomic('--output', 'out.txt/inner.txt', 'x', { cwd: dir })).toThrow('cannot write out.txt/inner.txt: ENOTDIR');
    expect(tempFiles(dir)).toEqual([]);
  });

  it('checkDestinations accepts new files, and a path that is neither input nor duplicate', () => {
    const dir = checkout();
    expect(() => checkDestinations([{ flag: '--output', path: 'a.json' }, { flag: '--write-baseline', path: 'b.json' }], { paths: ['deploy'] }, dir)).not.toThrow();
  });
  it('simulate -o and report -o: not through a symlink, not onto a linted file', () => {
    const dir = checkout();
    const hook = join(dir, 'deploy', 'hook.yaml');
    const before = readFileSync(hook, 'utf8');
    const simulate = cli(['simulate', 'deploy', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a', '-o', 'deploy/hook.yaml'], dir);
    expect(simulate.code).toBe(2);
    expect(simulate.stderr).toBe('admission-lint: --output deploy/hook.yaml: is a file this run lints; write it elsewhere\n');
    const report = cli(['report', 'deploy', '-o', 'deploy/hook.yaml'], dir);
    expect(report.code).toBe(2);
    expect(readFileSync(hook, 'utf8')).toBe(before);
    symlinkSync(hook, join(dir, 'planted.md'));
    expect(cli(['report', 'deploy', '--format', 'markdown', '-o', 'planted.md'], dir).code).toBe(2);
    expect(readFileSync(hook, 'utf8')).toBe(before);
    expect(cli(['report', 'deploy', '-o', 'report.txt'], dir).code).toBe(0);
  });
});
