/**
 * Go's text primitives as Pod Security Admission uses them, so that reasons and details match
 * the API server's message byte for byte: `%q` (strconv.Quote), sort.Strings order (UTF-8 byte
 * order), and the `joinQuote`/`pluralize` helpers of upstream `policy/helpers.go`.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A decoded JSON string as Go holds it: encoding/json turns an unpaired surrogate escape into
 * U+FFFD, so Go strings are always valid UTF-8. Normalising here keeps quoting and sorting exact.
 */
export function goString(text: string): string {
  // Nearly every string is well formed: V8's native test is much cheaper than the regex's scan.
  return (text as unknown as WellFormedTest).isWellFormed() ? text : text.replace(LONE_SURROGATE, '\uFFFD');
}

/** String.prototype.isWellFormed (ES2024; Node 20 has it, the ES2022 lib does not declare it). */
interface WellFormedTest {
  isWellFormed(): boolean;
}

/**
 * A UTF-16 code unit mapped so that code unit order becomes code point order (which is UTF-8
 * byte order, Go's string order): surrogates (code points above U+FFFF) move above U+E000–U+FFFF.
 */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Go's `a < b` for strings, as sort.Strings and sets.List order them. */
export function compareGoStrings(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const left = a.charCodeAt(i);
    const right = b.charCodeAt(i);
    if (left !== right) return codePointRank(left) - codePointRank(right);
  }
  return a.length - b.length;
}

/** `sets.NewString(values...).List()`: distinct values in Go string order. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}

/** strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** strconv.Quote, which `%q` uses for strings. */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of goString(text)) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (GO_PRINTABLE.test(char)) out += char;
    else if (SHORT_ESCAPES[char] !== undefined) out += SHORT_ESCAPES[char];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Upstream `joinQuote`: `"a", "b"`, with no escaping inside the quotes. */
export function joinQuote(items: readonly string[]): string {
  if (items.length === 0) return '';
  return `"${items.join('", "')}"`;
}

/** Upstream `pluralize`. */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}
