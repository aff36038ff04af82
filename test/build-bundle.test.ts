/**
 * The bundle (the standalone file, standalone/admission-lint.cjs) and code cache that
 * `npm run build` writes (src/build/bundle.ts), and the bin shim that loads them
 * (bin/admission-lint.js): the shim runs the bundle, V8 accepts the cache made for it, a cache of
 * another build is ignored (and the CLI still works), a bundle older than tsc's output is not
 * run, the bundle serves the project's files (package.json, rules/*.md) from inside itself, and
 * a build is the same every time.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiOnly, bundleSource, BUNDLED_REQUIRES, embeddedFiles, requiredPackages, yamlProcessUses } from '../src/build/bundle.js';
import { run } from '../src/cli/main.js';
import { PROJECT_ROOT, projectRoot } from '../src/cli/package-info.js';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLE = join(ROOT, 'fixtures', 'examples');
const BUNDLE = join(ROOT, 'standalone', 'admission-lint.cjs');
const CACHE = join(ROOT, 'dist', 'admission-lint.code-cache');

/** Loads the bundle through the shim's loader in a fresh node and says whether the cache was used. */
function probe(root: string): { cacheUsed: boolean; run: string } {
  const script = `const l = require(${JSON.stringify(join(root, 'bin', 'admission-lint.js'))}); const b = l.loadBundle(); process.stdout.write(JSON.stringify({ cacheUsed: b.cacheUsed, run: typeof b.exports.run }));`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { cacheUsed: boolean; run: string };
}

const cli = (root: string, args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'admission-lint.js'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('the bundled CLI', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });

  it('is one ASCII file that ends with its build id, with a code cache for that build that V8 accepts', () => {
    const bundle = readFileSync(BUNDLE);
    expect(bundle.every((byte) => byte < 0x80)).toBe(true);
    const id = /\/\/# admission-lint-build ([0-9a-f]{64})\n$/.exec(bundle.toString('latin1'))?.[1];
    expect(id).toBeDefined();
    expect(readFileSync(CACHE).subarray(0, 64).toString('latin1')).toBe(id);
    expect(probe(ROOT)).toEqual({ cacheUsed: true, run: 'function' });
  });

  it('ignores a code cache of another build, or none, and still lints the same', () => {
    const copy = mkdtempSync(join(tmpdir(), 'admission-lint-bundle-'));
    copies.push(copy);
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'standalone'), join(copy, 'standalone'), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    cpSync(join(ROOT, 'rules'), join(copy, 'rules'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const cacheFile = join(copy, 'dist', 'admission-lint.code-cache');
    const cache = readFileSync(cacheFile);
    writeFileSync(cacheFile, Buffer.concat([Buffer.from('0'.repeat(64), 'latin1'), cache.subarray(64)]));
    expect(probe(copy)).toEqual({ cacheUsed: false, run: 'function' });
    // Garbage after a matching id: V8 rejects it.
    writeFileSync(cacheFile, Buffer.concat([cache.subarray(0, 64), Buffer.from('not a code cache')]));
    expect(probe(copy)).toEqual({ cacheUsed: false, run: 'function' });
    // No cache at all (a git install, the Action, the hook): compiled as usual.
    rmSync(cacheFile);
    expect(probe(copy)).toEqual({ cacheUsed: false, run: 'function' });
    const expected = cli(ROOT, [EXAMPLE]);
    const actual = cli(copy, [EXAMPLE]);
    expect(actual.status).toBe(expected.status);
    expect(actual.stdout).toBe(expected.stdout);
    expect(actual.stderr).toBe(expected.stderr);
    // A bundle older than tsc's output is not used: the compiled modules run instead.
    const bundleFile = join(copy, 'standalone', 'admission-lint.cjs');
    const bundle = readFileSync(bundleFile);
    writeFileSync(bundleFile, 'throw new Error("stale bundle used");\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy, 'dist', 'src', 'cli', 'main.js'), later, later);
    const fallback = cli(copy, [EXAMPLE]);
    expect([fallback.status, fallback.stdout, fallback.stderr]).toEqual([expected.status, expected.stdout, expected.stderr]);
    writeFileSync(bundleFile, bundle);
    const latest = new Date(Date.now() + 120_000);
    utimesSync(bundleFile, latest, latest);
    expect(probe(copy).run).toBe('function');
    // The bundle's rule docs are its own (embedded), whatever the folder beside it holds; the
    // compiled modules read the project's rules/*.md.
    writeFileSync(join(copy, 'rules', 'fail-open.md'), '# fail-open (from the copy)\n');
    expect(cli(copy, ['explain', 'fail-open']).stdout).toBe(cli(ROOT, ['explain', 'fail-open']).stdout);
    utimesSync(join(copy, 'dist', 'src', 'cli', 'main.js'), new Date(Date.now() + 180_000), new Date(Date.now() + 180_000));
    expect(cli(copy, ['explain', 'fail-open']).stdout).toContain('from the copy');
  });

  it('writes the same report to a file or /dev/null as to a pipe (stdout is then written directly)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-stdout-'));
    copies.push(dir);
    const piped = cli(ROOT, [EXAMPLE]);
    const file = join(dir, 'report.txt');
    const fd = openSync(file, 'w');
    const toFile = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), EXAMPLE], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    closeSync(fd);
    expect([toFile.status, toFile.stderr, readFileSync(file, 'utf8')]).toEqual([piped.status, piped.stderr, piped.stdout]);
    const devNull = openSync('/dev/null', 'w');
    const toNull = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), EXAMPLE], { stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8' });
    closeSync(devNull);
    expect([toNull.status, toNull.stderr]).toEqual([piped.status, piped.stderr]);
  });

  it('loads no builtin it defers (child_process, crypto, net, tls) to lint a webhook without certificates or a url', () => {
    // Each costs milliseconds at every start (node:tls with node:net about 5): src/build/bundle.ts LAZY_BUILTINS.
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-builtins-'));
    copies.push(dir);
    const preload = join(dir, 'loaded.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, `LOADED ${JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (tls|net|child_process|crypto)$/.test(m)))}\\n`));\n");
    const manifest = join(dir, 'webhook.yaml');
    writeFileSync(manifest, 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: x\nwebhooks:\n  - name: x.example.com\n    clientConfig:\n      service: {namespace: x, name: x}\n    rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]\n    sideEffects: None\n    admissionReviewVersions: [v1]\n');
    // Standard output to a file: a pipe is a socket, which makes Node itself load node:net.
    const report = join(dir, 'report.txt');
    const fd = openSync(report, 'w');
    const result = spawnSync(process.execPath, ['-r', preload, join(ROOT, 'bin', 'admission-lint.js'), '--no-color', manifest], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    expect(readFileSync(report, 'utf8')).toContain('x.example.com');
    expect(result.stderr.trim().split('\n').pop()).toBe('LOADED []');
  });

  it('is a script for node, and strict code, as the ES modules it is made of', () => {
    expect(readFileSync(BUNDLE, 'latin1').startsWith('#!/usr/bin/env node\n"use strict";\n')).toBe(true);
  });

  it('reports what the sources report, on every fixture (json, and sarif, which hashes)', async () => {
    // Certificates (node:crypto), urls (node:net) and CEL go through the bundle's lazy loading.
    for (const format of ['json', 'sarif']) {
      const args = ['lint', '--format', format, '--no-color', 'fixtures'];
      let stdout = '';
      let stderr = '';
      const code = await run(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: {} });
      const bundled = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(bundled.stdout).toBe(stdout);
      expect(bundled.stderr).toBe(stderr);
      expect(bundled.status).toBe(code);
    }
  }, 180_000);

  it('finds the project root from the sources and the compiled modules; the bundle\'s is inside the bundle file', () => {
    expect(PROJECT_ROOT).toBe(`${ROOT}/`);
    expect(projectRoot(pathToFileURL(join(ROOT, 'dist', 'src', 'cli', 'package-info.js')).href)).toBe(`${ROOT}/`);
    // The bundle's import.meta.url (src/build/bundle.ts importMetaUrl), also under a dist/ folder.
    expect(projectRoot(`${pathToFileURL(BUNDLE).href}/dist/src/cli/main.js`)).toBe(`${BUNDLE}/`);
    expect(projectRoot('file:///opt/dist/tools/admission-lint.cjs/dist/src/cli/main.js')).toBe('/opt/dist/tools/admission-lint.cjs/');
  });

  it('embeds package.json\'s name and version and every rule doc, and nothing else', () => {
    const files = embeddedFiles();
    const docs = readdirSync(join(ROOT, 'rules')).filter((file) => file.endsWith('.md'));
    expect(Object.keys(files).sort()).toEqual(['package.json', ...docs.map((doc) => `rules/${doc}`)].sort());
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    expect(JSON.parse(files['package.json']!)).toEqual({ name, version });
  });

  it('serves every package the sources require() from the bundle', () => {
    // The scan finds the requires that are there (createRequire in src/config, src/validate)…
    const required = [...requiredPackages().keys()].sort();
    expect(required).toEqual(expect.arrayContaining(['@marcbachmann/cel-js', 'ajv']));
    // …and the build refuses any that the bundle does not serve.
    expect(required.filter((id) => !(BUNDLED_REQUIRES as readonly string[]).includes(id))).toEqual([]);
  });

  it("gives yaml a process whose env is read once: yaml's per-token debug switch costs no environment lookup", () => {
    // The scan finds what yaml reads of process (LOG_TOKENS, LOG_STREAM, emitWarning)…
    expect([...yamlProcessUses()].sort()).toEqual(['emitWarning', 'env.LOG_STREAM', 'env.LOG_TOKENS']);
    // …and no file of yaml in the bundle requires Node's process itself.
    const source = readFileSync(BUNDLE, 'utf8');
    const yamlFiles = source.split(/^\/\/ /m).filter((section) => section.startsWith('node_modules/yaml/'));
    expect(yamlFiles.length).toBeGreaterThan(10);
    expect(yamlFiles.filter((section) => /require\("(node:)?process"\)/.test(section)).map((section) => section.split('\n')[0])).toEqual([]);
    expect(yamlFiles.filter((section) => section.includes('node_process.env.LOG_TOKENS'))).toHaveLength(1);
  });

  it('is the same bytes every time it is built', async () => {
    // (In another folder too: test/package-standalone-committed.test.ts builds a clone.)
    const [first, second] = [await bundleSource(), await bundleSource()];
    expect(first.id).toBe(second.id);
    expect(first.source === second.source).toBe(true);
  }, 120_000);

  it('escapes non-ASCII characters only where an escape means the same', () => {
    expect(asciiOnly('// ─ 1.28–\nconst p = /(ns|µs)/;\n')).toBe('// \\u2500 1.28\\u2013\nconst p = /(ns|\\u00b5s)/;\n');
    expect(asciiOnly('// a `code` span – in a comment\n')).toBe('// a `code` span \\u2013 in a comment\n');
    expect(() => asciiOnly('const s = String.raw`µ`;\n')).toThrow(/template literal/);
  });
});
