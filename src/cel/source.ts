/**
 * Scanning CEL source text as characters, for the passes that rewrite it before parsing
 * (src/cel/depth.ts collapses unary runs, src/validate/cel.ts masks syntax cel-js lacks): both
 * must step over string literals whole, so that nothing inside a literal is rewritten.
 */

export const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;

/**
 * The index just past the string literal whose opening quote is at `i` (`"`, `'`, or a triple
 * quote). A literal prefixed with `r`/`R` (also `br`, `Rb`, …) is raw: a backslash escapes nothing.
 */
export function stringLiteralEnd(chars: readonly string[], i: number): number {
  const c = chars[i]!;
  const n = chars.length;
  const triple = chars[i + 1] === c && chars[i + 2] === c;
  const raw = /[rR]/.test(chars[i - 1] ?? '') && (!IDENTIFIER_CHAR.test(chars[i - 2] ?? ' ') || /[bB]/.test(chars[i - 2] ?? ''));
  let j = i + (triple ? 3 : 1);
  while (j < n) {
    if (!raw && chars[j] === '\\') {
      j += 2;
      continue;
    }
    if (triple ? chars[j] === c && chars[j + 1] === c && chars[j + 2] === c : chars[j] === c) break;
    j++;
  }
  return j + (triple ? 3 : 1);
}
