/**
 * The npm package as a user gets it: `npm pack` in a copy of this checkout as committed (its
 * `prepack` builds), then `npm install --omit=dev <tarball>` in an empty project with an empty npm
 * cache and `--offline`, so the install can fetch nothing: the package has no dependencies and no
 * install script, and needs no compiler. Then `npx admission-lint` lints, explains and reports its
 * version there, as the sources do, with the code cache the package ships.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkingTree, ROOT } from './package-tree.js';
import { runCli } from './run-cli.js';

const temp = mkdtempSync(join(tmpdir(), 'admission-lint-package-'));
// Generous: on a busy machine, removing the copies has taken longer than the default 10 s.
afterAll(() => rmSync(temp, { recursive: true, force: true }), 60_000);
const SOURCE = join(temp, 'checkout');
const CONSUMER = join(temp, 'consumer');
const CACHE = join(temp, 'npm-cache');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** npm with a private, empty cache, no audit and no funding notes. */
function npm(cwd: string, args: string[]) {
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: CACHE, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

let tarball = '';
let installSeconds = 0;

beforeAll(() => {
  copyWorkingTree(SOURCE);
  // The build (prepack) needs the dev dependencies: this checkout's.
  symlinkSync(join(ROOT, 'node_modules'), join(SOURCE, 'node_modules'));
  const out = join(temp, 'out');
  mkdirSync(out);
  const packStarted = performance.now();
  const pack = npm(SOURCE, ['pack', '--pack-destination', out]);
  expect(pack.status, pack.stdout + pack.stderr).toBe(0);
  console.log(`npm pack (with the prepack build): ${((performance.now() - packStarted) / 1000).toFixed(1)} s`);
  tarball = join(out, readdirSync(out).find((name) => name.endsWith('.tgz'))!);

  mkdirSync(CONSUMER);
  writeFileSync(join(CONSUMER, 'package.json'), '{ "name": "consumer", "private": true }\n');
  cpSync(join(ROOT, 'fixtures', 'examples'), join(CONSUMER, 'examples'), { recursive: true });
  const started = performance.now();
  const install = npm(CONSUMER, ['install', '--omit=dev', '--offline', tarball]);
  installSeconds = (performance.now() - started) / 1000;
  console.log(`npm install --omit=dev --offline <tarball>: ${installSeconds.toFixed(1)} s; tarball ${readFileSync(tarball).length} bytes`);
  expect(install.status, install.stdout + install.stderr).toBe(0);
  // No install script ran, and none was held back: npm names such scripts in a warning.
  expect(install.stderr).not.toMatch(/install-scripts|allowScripts|prepare|postinstall/i);
}, 300_000);

describe('the npm package', () => {
  it('holds the bin, the standalone build and its code cache, and nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual([
      'package/README.md',
      'package/bin/admission-lint.js',
      'package/bin/package.json',
      'package/dist/admission-lint.code-cache',
      'package/package.json',
      'package/standalone/admission-lint.cjs',
    ]);
  });

  it('installs with no dependency, no install script and no build', () => {
    const manifest = JSON.parse(readFileSync(join(CONSUMER, 'node_modules', 'admission-lint', 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[script], script).toBeUndefined();
    expect(readdirSync(join(CONSUMER, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['admission-lint']);
    expect(installSeconds).toBeLessThan(30);
  });

  it('lints with npx: the findings, and the json the sources write', async () => {
    const npx = spawnSync('npx', ['--no', 'admission-lint', 'examples', '--show-info'], { cwd: CONSUMER, encoding: 'utf8', env: { ...process.env, npm_config_cache: CACHE, npm_config_offline: 'true', NO_COLOR: '1' } });
    expect([npx.status, npx.stderr]).toEqual([1, '']);
    expect(npx.stdout).toContain('examples/sidecar-injector.yaml');
    const args = ['lint', '--format', 'json', 'fixtures/examples'];
    const expected = await runCli(args, '');
    const installed = spawnSync(process.execPath, [join(CONSUMER, 'node_modules', '.bin', 'admission-lint'), ...args], { cwd: ROOT, encoding: 'utf8' });
    expect({ code: installed.status, stdout: installed.stdout, stderr: installed.stderr }).toEqual(expected);
  });

  it('explains a rule and prints its version', async () => {
    const bin = join(CONSUMER, 'node_modules', '.bin', 'admission-lint');
    const explain = spawnSync(process.execPath, [bin, 'explain', 'fail-open'], { cwd: CONSUMER, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const expected = await runCli(['explain', 'fail-open'], '');
    expect({ code: explain.status, stdout: explain.stdout, stderr: explain.stderr }).toEqual(expected);
    expect(spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).stdout).toBe(`${VERSION}\n`);
  });

  it('starts from the code cache it ships, on the Node.js that packed it', () => {
    const shim = join(CONSUMER, 'node_modules', 'admission-lint', 'bin', 'admission-lint.js');
    const probe = spawnSync(process.execPath, ['-e', `process.stdout.write(String(require(${JSON.stringify(shim)}).loadBundle().cacheUsed))`], { encoding: 'utf8' });
    expect([probe.stdout, probe.stderr]).toEqual(['true', '']);
  });
});
