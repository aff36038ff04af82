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
 */

export interface GlobMatcher {
  /** Whether the relative path (or one of its parent folders) matches a pattern. */
  matches(relativePath: string): boolean;
}

function segmentToRegExp(segment: string): string {
  let out = '';
  for (const char of segment) {
    if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else out += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/** One pattern as a regular expression over a whole relative path. */
export function globToRegExp(pattern: string): RegExp {
  let text = pattern.trim().replace(/\\/g, '/');
  while (text.startsWith('./')) text = text.slice(2);
  const floating = !text.replace(/\/+$/, '').includes('/');
  text = text.replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = text.split('/').filter((segment) => segment !== '');
  let source = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // Any number of whole segments, including none.
      source += last ? '.*' : '(?:[^/]+/)*';
    } else {
      source += segmentToRegExp(segment) + (last ? '' : '/');
    }
  });
  return new RegExp(`^${floating ? '(?:.*/)?' : ''}${source}$`);
}

export function globMatcher(patterns: readonly string[]): GlobMatcher {
  const expressions = patterns.filter((pattern) => pattern.trim() !== '').map(globToRegExp);
  return {
    matches(relativePath) {
      if (expressions.length === 0) return false;
      const segments = relativePath.replace(/\\/g, '/').split('/').filter((segment) => segment !== '' && segment !== '.');
      // The path itself, then each parent folder: a matching folder ignores what is under it.
      for (let length = segments.length; length > 0; length--) {
        const candidate = segments.slice(0, length).join('/');
        if (expressions.some((expression) => expression.test(candidate))) return true;
      }
      return false;
    },
  };
}
