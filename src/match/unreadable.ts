/**
 * Whether a document the run could not read could be an object of a kind: for the analyses that
 * conclude from an object's absence ("no policy of that name", "no binding binds it", "no CRD
 * serves that group"). Where one could be, the absence is not known, and they say nothing.
 */
import type { RunScope } from '../run-scope.js';

/**
 * Ways a document can spell a kind without writing its name: an escape in a double-quoted
 * string, an escaped line break, a `!!binary` scalar (as src/parse/prefilter.ts reads them).
 */
const SPELLED_OTHERWISE = /\\[xuU]|\\\r?\n|binary/;

/** Whether an unreadable document of the run could hold an object of `kind`. */
export function unreadableMayHold(scope: Pick<RunScope, 'unreadable'>, kind: string): boolean {
  return scope.unreadable.some(({ text }) => text === undefined || SPELLED_OTHERWISE.test(text) || text.includes(kind));
}

/** Whether an unreadable document of the run could hold an object of `kind` that names `word` (a CRD of a group). */
export function unreadableMayHoldNaming(scope: Pick<RunScope, 'unreadable'>, kind: string, word: string): boolean {
  return scope.unreadable.some(({ text }) => text === undefined || SPELLED_OTHERWISE.test(text) || (text.includes(kind) && text.includes(word)));
}
