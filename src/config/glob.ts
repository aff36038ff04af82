/**
 * The `ignore` patterns of the config file: a small, dependency-free subset of gitignore-style
 * globs, matched against `/`-separated paths relative to the config file's folder.
 *
 * - `*` matches any characters except `/`; `?` matches one character except `/`;
 * - `**` as a whole segment matches any number of segments (also none): `a/**` + `/b`;
 * - a pattern without a `/` (other than a trailing one) matches a file or folder name at any
 *   depth, as in .gitignore: `*.generated.yaml`, `vendor`;
 * - a pattern that matches a folder ignores everything under it (`charts/*` + `/templates`);
 * - a leading `./` or `/` anchors nothing more than a plain relative pattern; a trailing `/` is
 *   accepted (folders only match as ancestors anyway);
 * - every other character is literal (no `[...]`, `{a,b}` or `!` negation).
 *
 * Patterns are matched by src/text/glob.ts, without backtracking (a pull request's config can
 * hold any pattern).
 */
import { globMatch, type CompiledGlob, type GlobToken, type GlobWork } from '../text/glob.js';

export interface GlobMatcher {
  /** Whether the relative path (or one of its parent folders) matches a pattern. */
  matches(relativePath: string): boolean;
}

/** One pattern, compiled for matching a whole relative path. */
export function compilePathGlob(pattern: string): CompiledGlob {
  let text = pattern.trim().replace(/\\/g, '/');
  while (text.startsWith('./')) text = text.slice(2);
  const floating = !text.replace(/\/+$/, '').includes('/');
  text = text.replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = text.split('/').filter((segment) => segment !== '');
  // A floating pattern matches at any depth: any folders before it.
  const tokens: GlobToken[] = floating ? [{ type: 'segments' }] : [];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // Any number of whole segments, including none; last: anything under the folder.
      tokens.push(last ? { type: 'star', slash: true } : { type: 'segments' });
      return;
    }
    for (let at = 0; at < segment.length; at++) {
      const char = segment[at]!;
      if (char === '*') {
        if (tokens.at(-1)?.type !== 'star') tokens.push({ type: 'star', slash: false });
      } else if (char === '?') tokens.push({ type: 'one', slash: false });
      else tokens.push({ type: 'char', char });
    }
    if (!last) tokens.push({ type: 'char', char: '/' });
  });
  return { tokens };
}

export function globMatcher(patterns: readonly string[], work?: GlobWork): GlobMatcher {
  const globs = patterns.filter((pattern) => pattern.trim() !== '').map(compilePathGlob);
  return {
    matches(relativePath) {
      if (globs.length === 0) return false;
      const segments = relativePath.replace(/\\/g, '/').split('/').filter((segment) => segment !== '' && segment !== '.');
      // The path itself, then each parent folder: a matching folder ignores what is under it.
      for (let length = segments.length; length > 0; length--) {
        const candidate = segments.slice(0, length).join('/');
        if (globs.some((glob) => globMatch(glob, candidate, work))) return true;
      }
      return false;
    },
  };
}
