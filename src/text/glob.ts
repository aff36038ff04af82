/**
 * Glob patterns matched without backtracking: a pattern is compiled to a small automaton and a
 * name is read once, keeping the set of states it can be in (Thompson's construction). The work
 * is at most (pattern length + 1) × (name length + 1) state visits, whatever the pattern: a
 * pattern of many `*` against a long name stays linear, where a regular expression built from it
 * (`^.*a.*a.*…$`) backtracks exponentially in V8.
 *
 * Patterns come from config files and rule options (untrusted in a pull request).
 */

/** One piece of a compiled pattern. */
export type GlobToken =
  /** One literal character (a UTF-16 unit). */
  | { readonly type: 'char'; readonly char: string }
  /** Any one character; `/` only when `slash`. */
  | { readonly type: 'one'; readonly slash: boolean }
  /** Any run of characters (also none); `/` only when `slash`. */
  | { readonly type: 'star'; readonly slash: boolean }
  /** Any number of whole path segments, each followed by `/` (also none): `**` + `/`. */
  | { readonly type: 'segments' };

export interface CompiledGlob {
  readonly tokens: readonly GlobToken[];
}

/** State visits of the matches so far, for tests that bound the work (not read by the product). */
export interface GlobWork {
  steps: number;
}

/**
 * Whether the whole `text` matches. States: 2i is "before token i", 2i+1 is "inside the segment
 * token i is reading"; 2n is the end.
 */
export function globMatch(glob: CompiledGlob, text: string, work?: GlobWork): boolean {
  const tokens = glob.tokens;
  const n = tokens.length;
  const size = 2 * n + 2;
  let current = new Uint8Array(size);
  let next = new Uint8Array(size);
  let steps = 0;
  // Adds a state and what it reaches without reading (a star or segments token can match nothing).
  const add = (set: Uint8Array, state: number): void => {
    while (set[state] === 0) {
      set[state] = 1;
      steps++;
      if (state % 2 === 1 || state === 2 * n) return;
      const token = tokens[state / 2]!;
      if (token.type !== 'star' && token.type !== 'segments') return;
      state += 2;
    }
  };
  add(current, 0);
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    next.fill(0);
    let any = false;
    for (let state = 0; state < size; state++) {
      if (current[state] === 0) continue;
      steps++;
      if (state % 2 === 1) {
        // Inside a segment of `**/`: more of it, or its `/` ends it.
        if (char === '/') add(next, state - 1);
        else add(next, state);
        any = true;
        continue;
      }
      if (state === 2 * n) continue;
      const token = tokens[state / 2]!;
      if (token.type === 'char') {
        if (char === token.char) (add(next, state + 2), (any = true));
      } else if (token.type === 'one') {
        if (token.slash || char !== '/') (add(next, state + 2), (any = true));
      } else if (token.type === 'star') {
        if (token.slash || char !== '/') (add(next, state), (any = true));
      } else if (char !== '/') {
        add(next, state + 1);
        any = true;
      }
    }
    [current, next] = [next, current];
    if (!any) {
      if (work) work.steps += steps;
      return false;
    }
  }
  if (work) work.steps += steps;
  return current[2 * n] === 1;
}

/**
 * A name pattern of a rule option: `*` matches any characters (also none), every other character
 * is itself. Names (of objects, namespaces) have no `/`, so there are no segments.
 */
export function compileNamePattern(pattern: string): CompiledGlob {
  const tokens: GlobToken[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char !== '*') tokens.push({ type: 'char', char });
    // `**` is `*`: consecutive stars add nothing but states.
    else if (tokens.at(-1)?.type !== 'star') tokens.push({ type: 'star', slash: true });
  }
  return { tokens };
}

/** A comma-separated list of name patterns (a rule option), blanks dropped. */
export function namePatterns(list: string): string[] {
  return list
    .split(',')
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '');
}

/** Whether a pattern matches every name: only stars. */
export function matchesEveryName(pattern: string): boolean {
  return pattern.length > 0 && /^\*+$/.test(pattern);
}

/** A matcher for a comma-separated list of name patterns. */
export function namePatternMatcher(list: string): (name: string) => boolean {
  const globs = namePatterns(list).map(compileNamePattern);
  return (name) => globs.some((glob) => globMatch(glob, name));
}
