/**
 * Appends `items` to `target` one by one: `target.push(...items)` passes every item as an
 * argument, and past about 100,000 of them (a hostile file's findings, duplicate keys, patches)
 * it overflows the stack.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
