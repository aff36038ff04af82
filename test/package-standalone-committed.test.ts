/**
 * The standalone file the repository commits (standalone/admission-lint.cjs) is what the GitHub
 * Action and the pre-commit hook run at a ref, so at every commit it must be exactly what that
 * commit's sources build to. This clones the last commit (HEAD: committed files only, whatever the
 * working tree holds), builds it with `npm run build` in the clone (another folder, so the build's
 * output must not depend on where the checkout lies), and compares byte for byte. It fails when a
 * commit changed the sources, the rule docs, the version or the lock file without committing the
 * rebuilt file; docs/release.md says how to rebuild it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, GIT_ENV, ROOT } from './package-tree.js';

const FILE = 'standalone/admission-lint.cjs';

describe('the committed standalone file', () => {
  const temp = mkdtempSync(join(tmpdir(), 'admission-lint-committed-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }), 60_000);

  it('is what a fresh build of the same commit writes, and executable', { timeout: 300_000 }, () => {
    const clone = join(temp, 'clone');
    git(temp, 'clone', '--quiet', '--no-local', ROOT, clone);
    const entry = git(clone, 'ls-tree', 'HEAD', FILE).trim();
    expect(entry, `${FILE} is not committed`).not.toBe('');
    // language: script (pre-commit) runs the file itself.
    expect(entry).toMatch(/^100755 blob /);
    // The build needs the dev dependencies: this checkout's (the lock file is the clone's own).
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const started = performance.now();
    const build = spawnSync('npm', ['run', 'build'], { cwd: clone, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    console.log(`npm run build of HEAD in a clone: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const committed = execFileSync('git', ['show', `HEAD:${FILE}`], { cwd: clone, env: { ...process.env, ...GIT_ENV }, maxBuffer: 64 * 1024 * 1024 });
    const built = readFileSync(join(clone, FILE));
    // Not toEqual on 2.5 MB: the first differing line says what changed.
    if (!built.equals(committed)) {
      const a = committed.toString('latin1').split('\n');
      const b = built.toString('latin1').split('\n');
      const line = a.findIndex((text, index) => text !== b[index]);
      expect.fail(`${FILE} at HEAD is not what HEAD's sources build to (npm run build, then commit it); first difference at line ${line + 1}:\n- ${a[line]?.slice(0, 200)}\n+ ${b[line]?.slice(0, 200)}`);
    }
    // And the build changed no other committed file.
    expect(git(clone, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  });
});
