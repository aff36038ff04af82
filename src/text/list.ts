/** English lists for messages: "a", "a and b", "a, b and c" (no Oxford comma, as every message here writes them). */
export function joinWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]!}`;
}

/**
 * A list capped for a one-line message: at most `max` items, then "and N more" ("a, b and 3
 * more"); with `width`, fewer items when their text would pass that many characters (always at
 * least one). A list that fits is joined as joinWords joins it.
 */
export function joinCapped(items: readonly string[], max: number, options: { readonly width?: number; readonly conjunction?: 'and' | 'or' } = {}): string {
  const conjunction = options.conjunction ?? 'and';
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const fits = (shown: readonly string[]): boolean => shown.join(', ').length <= width;
  if (items.length <= 1 || (items.length <= max && fits(items))) return joinWords(items, conjunction);
  let shown = Math.max(1, Math.min(max, items.length - 1));
  while (shown > 1 && !fits(items.slice(0, shown))) shown--;
  return `${items.slice(0, shown).join(', ')} ${conjunction} ${items.length - shown} more`;
}

/**
 * A name for a one-line message, its middle elided when it is longer than `width` (the start and
 * the end tell names apart best); the finding's own fields keep the whole name.
 */
export function elideMiddle(name: string, width: number): string {
  if (name.length <= width) return name;
  // About five eighths before the ellipsis, the rest after it.
  const head = Math.ceil((width - 1) * 0.63);
  return `${name.slice(0, head)}…${name.slice(head - width + 1)}`;
}
