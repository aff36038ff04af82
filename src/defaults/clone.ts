/**
 * A deep copy of decoded YAML/JSON data (plain objects, arrays, scalars), as structuredClone
 * makes it but several times faster: shared subtrees (YAML aliases) stay shared and cycles are
 * kept; anything that is not plain data (a Date from a YAML 1.1 timestamp, bytes from !!binary)
 * is copied by structuredClone itself.
 */
export function cloneData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return copy(value, new Map()) as T;
  } catch (error) {
    // Nesting deeper than the stack allows: structuredClone does not recurse on the JS stack.
    if (error instanceof RangeError) return structuredClone(value);
    throw error;
  }
}

function copy(value: object, seen: Map<object, unknown>): unknown {
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out[i] = typeof item === 'object' && item !== null ? copy(item, seen) : item;
    }
    return out;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    const cloned: unknown = structuredClone(value);
    seen.set(value, cloned);
    return cloned;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    const copied = typeof item === 'object' && item !== null ? copy(item, seen) : item;
    // An own "__proto__" key (written in the YAML) stays a key, as structuredClone keeps it.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out;
}
