/**
 * The GitHub Action (action.yml) as a runner runs it, without GitHub: its steps' scripts run in
 * bash as GitHub runs a composite step (`bash --noprofile --norc -eo pipefail`), with the step's
 * environment (the `${{ inputs.* }}` expressions filled in from the inputs or their defaults),
 * GITHUB_ACTION_PATH set to a copy of this checkout as committed (no node_modules, no dist: what
 * `uses: admission-lint/admission-lint@<ref>` downloads), and a workspace holding the manifests.
 * So the Action needs no install step, and its inputs do what action.yml says.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { copyWorkingTree, nodeModulesAbove, ROOT } from './package-tree.js';

interface Step {
  name?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
  uses?: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

const temp = mkdtempSync(join(tmpdir(), 'admission-lint-action-'));
// Generous: on a busy machine, removing the copies has taken longer than the default 10 s.
afterAll(() => rmSync(temp, { recursive: true, force: true }), 60_000);
const ACTION_PATH = join(temp, 'action');
copyWorkingTree(ACTION_PATH);
const WORKSPACE = join(temp, 'workspace');
cpSync(join(ROOT, 'fixtures', 'examples'), join(WORKSPACE, 'deploy'), { recursive: true });

/** Fills in the expressions the action may use; any other expression fails the test. */
function expand(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input && input[1]! in action.inputs) return inputs[input[1]!] ?? action.inputs[input[1]!]!.default ?? '';
    throw new Error(`action.yml uses an expression this test does not know: ${expression}`);
  });
}

/** Runs every step of the action with these inputs; the first failing step ends it, as on a runner. */
function runAction(inputs: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  for (const step of action.runs.steps) {
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(String(value), inputs)]));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!, inputs)], {
      cwd: WORKSPACE,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: ACTION_PATH, GITHUB_WORKSPACE: WORKSPACE, ...env },
    });
    stdout += result.stdout;
    stderr += result.stderr;
    if (result.status !== 0) return { code: result.status, stdout, stderr };
  }
  return { code: 0, stdout, stderr };
}

describe('the GitHub Action (action.yml)', () => {
  it('is a composite action of bash steps that install nothing', () => {
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      expect(step.uses, step.name).toBeUndefined();
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).not.toMatch(/\b(npm|npx|yarn|pnpm|curl|wget)\b/);
    }
    expect(existsSync(join(ACTION_PATH, 'node_modules'))).toBe(false);
    expect(nodeModulesAbove(WORKSPACE)).toEqual([]);
  });

  it('annotates the findings (format github by default) and fails on errors', () => {
    const started = performance.now();
    const { code, stdout, stderr } = runAction({ paths: 'deploy/' });
    console.log(`action run on the examples: ${Math.round(performance.now() - started)} ms`);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^::error file=deploy\/[\w.-]+\.yaml,line=\d+/m);
    expect(stdout).toMatch(/^::warning file=deploy\//m);
  });

  it('writes a report file, with fail-on and args passed through', () => {
    const { code, stderr } = runAction({ paths: 'deploy/', format: 'sarif', output: 'admission-lint.sarif', 'fail-on': 'never', args: '--rule long-timeout=off' });
    // A format without a summary says the changed gate on stderr (issue 21, class 5).
    expect([code, stderr]).toEqual([0, 'admission-lint: gate changed: 1 rule off (long-timeout); fails on: never\n']);
    const sarif = JSON.parse(readFileSync(join(WORKSPACE, 'admission-lint.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
    expect(sarif.runs[0]!.results.map((result) => result.ruleId)).not.toContain('long-timeout');
  });

  it('treats inputs as data: a path that looks like a command is a path', () => {
    mkdirSync(join(WORKSPACE, 'odd'), { recursive: true });
    writeFileSync(join(WORKSPACE, 'odd', 'ok.yaml'), readFileSync(join(ROOT, 'fixtures/removed-api-version/valid/v1.yaml')));
    const { code, stdout, stderr } = runAction({ paths: 'odd/ok.yaml $(touch pwned) ;touch pwned2' });
    expect(existsSync(join(WORKSPACE, 'pwned'))).toBe(false);
    expect(existsSync(join(WORKSPACE, 'pwned2'))).toBe(false);
    // The extra words are paths that do not exist: a usage error, not a command run.
    expect(code).toBe(2);
    expect(stdout + stderr).toMatch(/\$\(touch/);
  });
});
