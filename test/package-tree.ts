/**
 * For the tests of what users get (the npm package, the standalone file, the GitHub Action, the
 * pre-commit hook): copies of this checkout as it would be committed, and git with a fixed
 * identity and no user configuration.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV }, maxBuffer: 64 * 1024 * 1024 });
}

export function has(command: string): boolean {
  return spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * Copies the files of this checkout that a commit would hold (tracked, and new files that are
 * not ignored: no node_modules, no dist) to `dest`, with their modes (the standalone file is
 * executable). Returns their paths.
 */
export function copyWorkingTree(dest: string): string[] {
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter((file) => file !== '');
  const copied: string[] = [];
  for (const file of files) {
    // A file deleted in the working tree but still in the index is not part of it.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(join(dest, dirname(file)), { recursive: true });
    cpSync(join(ROOT, file), join(dest, file));
    copied.push(file);
  }
  return copied;
}

/** A git repository holding the working tree of this checkout, committed; returns its revision. */
export function committedCopy(dest: string): string {
  mkdirSync(dest, { recursive: true });
  copyWorkingTree(dest);
  git(dest, 'init', '-q');
  git(dest, 'add', '-A');
  git(dest, 'commit', '-q', '-m', 'working tree');
  return git(dest, 'rev-parse', 'HEAD').trim();
}

/** The folders from `dir` up to the root that hold a node_modules folder (Node would look there). */
export function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules'))) found.push(current);
    if (current === parse(current).root) return found;
  }
}
