/** Small facts about decoded JSON/YAML values, shared by every layer. */

/** A mapping (a JSON object), not null and not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer (RFC 6901, as ajv reports `instancePath`) as path segments; list indexes become numbers. */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

/** Data as a string that ignores key order (dates as ISO strings, a cycle as `$cycle`): equal data, equal strings. */
export function canonical(value: unknown): string {
  const seen = new Set<object>();
  const walk = (node: unknown): unknown => {
    if (node instanceof Date) return { $date: node.toISOString() };
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node)) return '$cycle';
    seen.add(node);
    const out = Array.isArray(node) ? node.map(walk) : Object.fromEntries(Object.keys(node).sort().map((key) => [key, walk((node as Record<string, unknown>)[key])]));
    seen.delete(node);
    return out;
  };
  return JSON.stringify(walk(value));
}
