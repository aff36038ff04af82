/**
 * The published pre-commit hook, end to end: a temporary git repository whose
 * `.pre-commit-config.yaml` names a hook repository made from this checkout, and Debian's
 * `pre-commit` running it. pre-commit clones the hook repository at a committed revision, so the
 * test commits a copy of the current working tree (tracked and new files, not node_modules or
 * dist) into a temporary repository first: that is what proves `.pre-commit-hooks.yaml` as
 * published — `language: node` install (npm install + build through `prepare`), `types: [yaml]`,
 * file names passed — and not some local shortcut (`repo: local` would not read the hook file).
 * Skipped, with the reason printed, when `pre-commit` or `git` is not installed (`.ci/run`
 * installs Debian's pre-commit).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function has(command: string): boolean {
  return spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;
}

const missing = ['git', 'pre-commit'].filter((command) => !has(command));
const skip = missing.length > 0 ? `${missing.join(' and ')} not installed (.ci/run installs Debian's pre-commit)` : null;
if (skip !== null) console.log(`test/pre-commit.test.ts skipped: ${skip}`);

const VALID = readFileSync(join(ROOT, 'fixtures/removed-api-version/valid/v1.yaml'), 'utf8');
const BAD = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: bad
webhooks:
  - name: bad.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 45
    clientConfig:
      url: https://bad.example.com/validate
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

const temp = mkdtempSync(join(tmpdir(), 'admission-lint-pre-commit-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A git repository holding the working tree of this checkout, committed; returns its revision. */
function hookRepository(): { path: string; rev: string } {
  const path = join(temp, 'hook-repo');
  mkdirSync(path);
  // Tracked and untracked-but-not-ignored files: the tree as it would be committed.
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter((file) => file !== '');
  for (const file of files) {
    try {
      mkdirSync(join(path, dirname(file)), { recursive: true });
      cpSync(join(ROOT, file), join(path, file));
    } catch (error) {
      // A file deleted in the working tree but still in the index is simply not part of it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  git(path, 'init', '-q');
  git(path, 'add', '-A');
  git(path, 'commit', '-q', '-m', 'working tree');
  return { path, rev: git(path, 'rev-parse', 'HEAD').trim() };
}

describe.skipIf(skip !== null)('pre-commit hook (.pre-commit-hooks.yaml)', () => {
  it('fails a bad manifest and passes a good one', { timeout: 180_000 }, () => {
    const hook = hookRepository();
    const project = join(temp, 'project');
    mkdirSync(project);
    git(project, 'init', '-q');
    writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hook.path}\n    rev: ${hook.rev}\n    hooks:\n      - id: admission-lint\n`);
    writeFileSync(join(project, 'bad.yaml'), BAD);
    writeFileSync(join(project, 'good.yaml'), VALID);
    writeFileSync(join(project, 'notes.txt'), 'not YAML: the hook never sees it\n');
    git(project, 'add', '-A');
    const env = {
      ...process.env,
      ...GIT_ENV,
      // A private cache, so the hook is installed from the committed tree and not reused.
      PRE_COMMIT_HOME: join(temp, 'pre-commit-home'),
      // npm installs the hook's dependencies: from the local cache where it can (CI just ran npm ci).
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      NO_COLOR: '1',
    };
    const run = (...files: string[]) => spawnSync('pre-commit', ['run', '--color', 'never', '--files', ...files], { cwd: project, env, encoding: 'utf8' });

    const bad = run('bad.yaml');
    expect(bad.status, bad.stdout + bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/admission-lint\.+Failed/);
    expect(bad.stdout).toContain('bad.yaml');
    expect(bad.stdout).toContain('timeout-out-of-range');

    const good = run('good.yaml', 'notes.txt');
    expect(good.status, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toMatch(/admission-lint\.+Passed/);
  });
});
