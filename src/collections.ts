/** Small helpers over arrays and maps, for lists that may be long (a hostile file's). */

/**
 * Appends `items` to `target` one by one: `target.push(...items)` passes every item as an
 * argument, and past about 100,000 of them (a hostile file's findings, duplicate keys, patches)
 * it overflows the stack.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The items by key, each list in the items' order. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** The index of the last of ascending `sorted` that is at most `value`, or -1 (by halving). */
export function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** The index of the first of ascending `sorted` that is above `value`, or -1. */
export function firstAbove(sorted: readonly number[], value: number): number {
  const index = lastAtOrBefore(sorted, value) + 1;
  return index < sorted.length ? index : -1;
}
