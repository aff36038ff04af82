/**
 * The standalone file (standalone/admission-lint.cjs, from `npm run build`; attached to releases
 * as admission-lint.cjs) copied alone into a temporary folder with no node_modules anywhere above
 * it: it lints, reads a config file (ajv), compiles CEL, prints every rule's doc (embedded) and
 * its version, exactly as the sources do.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { nodeModulesAbove, ROOT } from './package-tree.js';
import { runCli } from './run-cli.js';

const STANDALONE = join(ROOT, 'standalone', 'admission-lint.cjs');
const temp = mkdtempSync(join(tmpdir(), 'admission-lint-standalone-'));
// Generous: on a busy machine, removing the copies has taken longer than the default 10 s.
afterAll(() => rmSync(temp, { recursive: true, force: true }), 60_000);
const FILE = join(temp, 'admission-lint.cjs');
copyFileSync(STANDALONE, FILE);
const PROJECT = join(temp, 'project');
cpSync(join(ROOT, 'fixtures', 'examples'), join(PROJECT, 'examples'), { recursive: true });

/** The standalone file run by node, from `cwd`. */
function standalone(args: string[], options: { cwd?: string; input?: string } = {}) {
  const result = spawnSync(process.execPath, [FILE, ...args], { cwd: options.cwd ?? PROJECT, input: options.input ?? '', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the standalone file', () => {
  it('lies where no node_modules can serve it a package', () => {
    expect(nodeModulesAbove(temp)).toEqual([]);
  });

  it('is an executable script: #! node, then strict code', () => {
    const text = readFileSync(FILE, 'latin1');
    expect(text.startsWith('#!/usr/bin/env node\n"use strict";\n')).toBe(true);
    expect(statSync(STANDALONE).mode & 0o111).toBe(0o111);
    chmodSync(FILE, 0o755);
    const direct = spawnSync(FILE, ['--version'], { cwd: PROJECT, encoding: 'utf8' });
    expect(direct.stdout).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it('lints the examples: the findings a person reads, and the json the sources write', async () => {
    const { code, stdout, stderr } = standalone(['examples', '--show-info']);
    expect([code, stderr]).toEqual([1, '']);
    expect(stdout).toContain('examples/sidecar-injector.yaml');
    expect(stdout).toMatch(/✖ \d+ problems/);
    // The same run from the sources (in this process; paths relative to the project root).
    // ca-bundle and client-config-url: node:crypto and node:net, which the bundle loads lazily.
    const args = ['lint', '--format', 'json', 'fixtures/examples', 'fixtures/ca-bundle', 'fixtures/client-config-url'];
    const expected = await runCli(args, '');
    const actual = standalone(args, { cwd: ROOT });
    expect({ code: actual.code, stdout: actual.stdout, stderr: actual.stderr }).toEqual(expected);
  });

  it('reads standard input and checks CEL', async () => {
    const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: p }
spec:
  failurePolicy: Fail
  matchConstraints: { resourceRules: [{ apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }] }
  validations:
    - expression: "object.spec.replicas <= "
`;
    const expected = await runCli(['--format', 'json', '-'], policy);
    expect(expected.stdout).toContain('"ruleId": "api-validation"');
    const actual = standalone(['--format', 'json', '-'], { input: policy });
    expect({ code: actual.code, stdout: actual.stdout, stderr: actual.stderr }).toEqual(expected);
  });

  it('reads a config file (validated with ajv, bundled) and reports a bad one as the sources do', async () => {
    const dir = join(temp, 'configured');
    mkdirSync(dir, { recursive: true });
    cpSync(join(ROOT, 'fixtures', 'examples'), join(dir, 'examples'), { recursive: true });
    writeFileSync(join(dir, '.admission-lint.yaml'), 'extends: strict\nrules:\n  long-timeout: off\n');
    const good = standalone(['--format', 'json', 'examples'], { cwd: dir });
    expect(good.stderr).toBe('admission-lint: gate changed by .admission-lint.yaml: 1 rule off (long-timeout)\n');
    expect(good.stdout).not.toContain('"ruleId": "long-timeout"');
    writeFileSync(join(dir, 'bad.yaml'), 'rules:\n  long-timeout: sometimes\n');
    const bad = standalone(['--config', 'bad.yaml', 'examples'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.yaml:2:');
    expect(bad.stderr).toContain('long-timeout');
  });

  it('prints every rule\'s doc as the sources do (the docs are embedded), and refuses an unknown rule', async () => {
    // One node process for all the rules: the file is also a CommonJS module that exports run.
    const driver = `
      const { run } = require(${JSON.stringify(FILE)});
      (async () => {
        const out = {};
        for (const id of JSON.parse(process.argv[1])) {
          let text = '';
          const code = await run(['explain', id], { stdout: { write: (t) => (text += t) }, stderr: { write: (t) => (text += t) }, env: {} });
          out[id] = { code, text };
        }
        process.stdout.write(JSON.stringify(out));
      })();`;
    const ids = rules.map((rule) => rule.meta.id);
    expect(ids.length).toBeGreaterThan(20);
    const result = spawnSync(process.execPath, ['-e', driver, JSON.stringify(ids)], { cwd: temp, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.stderr).toBe('');
    const docs = JSON.parse(result.stdout) as Record<string, { code: number; text: string }>;
    for (const id of ids) {
      const expected = await runCli(['explain', id], '');
      expect(docs[id], id).toEqual({ code: expected.code, text: expected.stdout + expected.stderr });
      expect(docs[id]!.code, id).toBe(0);
    }
    const unknown = standalone(['explain', 'no-such-rule']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown rule "no-such-rule"');
  });
});
