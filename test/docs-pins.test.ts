/**
 * Every copy-paste snippet pins something that exists (issue 22): the README's and docs' GitHub
 * Action `uses:`, pre-commit `rev:`, download URLs and git installs name either the `main` branch,
 * a tag this repository has, or a placeholder (`vX.Y.Z`, `<…>`) in prose that says what to put
 * there. A release tag named before it is pushed fails here (the README once pinned `v0.1.0`,
 * which did not exist: pre-commit failed with "pathspec 'v0.1.0' did not match"). What a pinned
 * path names (the action, the hook, the standalone file) must exist too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The tags of this repository (none before the first release). */
function tags(): string[] {
  try {
    return execFileSync('git', ['tag', '--list'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((tag) => tag !== '');
  } catch {
    return [];
  }
}

interface Pin {
  readonly page: string;
  readonly line: number;
  readonly ref: string;
  /** The file in this repository the pin points at, when it names one. */
  readonly path?: string;
}

const PATTERNS: readonly { re: RegExp; path?: string }[] = [
  { re: /admission-lint\/admission-lint@([^\s`'"]+)/g, path: 'action.yml' },
  { re: /releases\/download\/([^/\s`]+)\//g },
  { re: /raw\.githubusercontent\.com\/admission-lint\/admission-lint\/([^/\s`]+)\/([^\s`'"]+)/g },
  { re: /admission-lint(?:\.git)?#([^\s`'"]+)/g },
];

/** The pins of a page: its pattern matches, and the `rev:` of a pre-commit snippet that names this repository. */
function pinsOf(page: string): Pin[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const lines = text.split('\n');
  const pins: Pin[] = [];
  lines.forEach((line, index) => {
    for (const { re, path } of PATTERNS) {
      for (const match of line.matchAll(re)) {
        const named = match[2] ?? path;
        pins.push({ page, line: index + 1, ref: match[1]!, ...(named !== undefined ? { path: named } : {}) });
      }
    }
    const rev = /^\s*rev:\s*([^\s#]+)/.exec(line);
    if (rev && /repo:\s*https:\/\/github\.com\/admission-lint\/admission-lint\s*$/.test(lines[index - 1] ?? '')) {
      pins.push({ page, line: index + 1, ref: rev[1]!, path: '.pre-commit-hooks.yaml' });
    }
  });
  return pins;
}

const placeholder = (ref: string): boolean => /^vX\.Y\.Z$/.test(ref) || ref.includes('<');

describe('copy-paste pins in README.md and docs/*.md', () => {
  const all = PAGES.flatMap(pinsOf);

  it('finds the README\'s Action, GitLab and pre-commit pins', () => {
    const readme = all.filter((pin) => pin.page === 'README.md');
    expect(readme.some((pin) => pin.path === 'action.yml')).toBe(true);
    expect(readme.some((pin) => pin.path === '.pre-commit-hooks.yaml')).toBe(true);
    expect(readme.some((pin) => pin.path === 'standalone/admission-lint.cjs')).toBe(true);
  });

  it('pin main, a tag that exists, or a placeholder', () => {
    const known = new Set(['main', ...tags()]);
    const missing = all.filter((pin) => !placeholder(pin.ref) && !known.has(pin.ref)).map((pin) => `${pin.page}:${pin.line}: ${pin.ref}`);
    expect(missing, 'pins of a ref this repository does not have (push the tag first)').toEqual([]);
  });

  it('name files that exist in the repository', () => {
    const gone = all.filter((pin) => pin.path !== undefined && !existsSync(join(ROOT, pin.path))).map((pin) => `${pin.page}:${pin.line}: ${pin.path}`);
    expect(gone).toEqual([]);
  });

  it('say what the first release will be named: v<the version in package.json>', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    if (tags().includes(`v${version}`)) return;
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`v${version}\``);
    expect(readFileSync(join(ROOT, 'docs', 'release.md'), 'utf8')).toContain(`the first\nwill be \`${version}\``);
  });
});
