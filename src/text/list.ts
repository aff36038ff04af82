/** English lists for messages: "a", "a and b", "a, b and c" (no Oxford comma, as every message here writes them). */
export function joinWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]!}`;
}
