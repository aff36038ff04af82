/**
 * CEL's `matches` with RE2 semantics, as the API server runs it: linear time in the input, and
 * no backreferences or lookaround (patterns RE2 rejects are errors, never run by JS RegExp,
 * whose backtracking a pattern like `^(a+)+$` turns exponential).
 *
 * re2js is a pure JavaScript port of RE2/J: no native build, no install script.
 */
import { RE2JS } from 're2js';
import { BoundedCache } from '../cache.js';

/** Compiled patterns; a string is the compile error. */
const compiled = new BoundedCache<string, RE2JS | string>();

function compile(pattern: string): RE2JS | string {
  return compiled.get(pattern, () => {
    try {
      return RE2JS.compile(pattern);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  });
}

/** The RE2 error of a pattern, or undefined when RE2 accepts it. */
export function re2Error(pattern: string): string | undefined {
  const entry = compile(pattern);
  return typeof entry === 'string' ? entry : undefined;
}

/** `s.matches(pattern)`: whether the pattern matches anywhere in s; throws on an invalid pattern. */
export function re2Matches(s: string, pattern: string): boolean {
  const entry = compile(pattern);
  if (typeof entry === 'string') throw new Error(`invalid regular expression: ${entry}`);
  return entry.matcher(s).find();
}

/**
 * cel-go's cost of matches (interpreter/runtimecost.go): the string's traversal times a guess
 * at the pattern's size (a quarter per character).
 */
export function matchesCost(s: string, pattern: string): number {
  return Math.ceil((1 + s.length) * 0.1) * Math.ceil(pattern.length * 0.25);
}
