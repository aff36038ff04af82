/**
 * JSON Patch (RFC 6902) on JSON values, as the API server applies a mutating webhook's patch
 * (mutating/dispatcher.go: jsonpatch.DecodePatch, then Apply to the object's JSON). Decoding
 * checks the shape (a list of operations, each an object); applying checks every operation and
 * its paths (RFC 6901 pointers). Errors are said in the words of the library the API server uses
 * (gopkg.in/evanphx/json-patch.v4) where they are known. Pure: the input is never changed.
 */
import { isRecord } from '../json.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface PatchOperation {
  readonly op: string;
  readonly path?: unknown;
  readonly from?: unknown;
  readonly value?: unknown;
  readonly hasValue: boolean;
}

export class PatchError extends Error {}

/** The patch as DecodePatch reads it: a JSON list of objects (an empty list is no change). */
export function decodePatch(text: string): PatchOperation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PatchError(`invalid character in the patch: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new PatchError(`json: cannot unmarshal ${jsonKind(parsed)} into Go value of type jsonpatch.Patch`);
  return parsed.map((operation) => {
    if (!isRecord(operation)) throw new PatchError(`json: cannot unmarshal ${jsonKind(operation)} into Go value of type jsonpatch.Operation`);
    return { op: typeof operation.op === 'string' ? operation.op : 'unknown', path: operation.path, from: operation.from, value: operation.value, hasValue: 'value' in operation };
  });
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** RFC 6901: "" is the whole document; "/a/0/b~1c" is ["a", "0", "b/c"]. */
export function parsePointer(pointer: unknown, operation: string): string[] {
  if (typeof pointer !== 'string') throw new PatchError(`${operation} operation does not apply: missing path`);
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`${operation} operation does not apply: invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** An array index of an existing element (or, for add, one past the end or "-"). */
function arrayIndex(segment: string, length: number, forAdd: boolean, operation: string, pointer: string): number {
  if (forAdd && segment === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) throw new PatchError(`${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: invalid array index ${JSON.stringify(segment)}`);
  const index = Number(segment);
  if (index > length || (!forAdd && index === length)) throw new PatchError(`${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: index out of bounds`);
  return index;
}

/** The container that holds the last segment of `path`, which must exist. */
function parentOf(document: JsonValue, path: readonly string[], operation: string, pointer: string): JsonValue[] | { [key: string]: JsonValue } {
  let node: JsonValue = document;
  for (const segment of path.slice(0, -1)) {
    let next: JsonValue | undefined;
    if (Array.isArray(node)) next = /^(0|[1-9][0-9]*)$/.test(segment) ? node[Number(segment)] : undefined;
    else if (isRecord(node)) next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (next === undefined || next === null || typeof next !== 'object') throw new PatchError(`${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}`);
    node = next;
  }
  if (node === null || typeof node !== 'object') throw new PatchError(`${operation} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}`);
  return node;
}

function get(document: JsonValue, path: readonly string[], operation: string, pointer: string): JsonValue {
  if (path.length === 0) return document;
  const parent = parentOf(document, path, operation, pointer);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) return parent[arrayIndex(last, parent.length, false, operation, pointer)]!;
  if (!Object.hasOwn(parent, last)) throw new PatchError(`${operation} operation does not apply: doc is missing key: ${JSON.stringify(pointer)}`);
  return parent[last]!;
}

function remove(document: JsonValue, path: readonly string[], operation: string, pointer: string): JsonValue {
  if (path.length === 0) throw new PatchError(`${operation} operation does not apply: cannot remove the whole document`);
  const parent = parentOf(document, path, operation, pointer);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) return parent.splice(arrayIndex(last, parent.length, false, operation, pointer), 1)[0]!;
  if (!Object.hasOwn(parent, last)) throw new PatchError(`${operation} operation does not apply: doc is missing key: ${JSON.stringify(pointer)}`);
  const value = parent[last]!;
  delete parent[last];
  return value;
}

/** Adds `value` at `path`; returns the new document (the root is replaced when the path is ""). */
function add(document: JsonValue, path: readonly string[], value: JsonValue, operation: string, pointer: string): JsonValue {
  if (path.length === 0) return value;
  const parent = parentOf(document, path, operation, pointer);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, true, operation, pointer), 0, value);
  else parent[last] = value;
  return document;
}

function valueOf(operation: PatchOperation): JsonValue {
  if (!operation.hasValue) throw new PatchError(`${operation.op} operation does not apply: missing value`);
  return clone(operation.value as JsonValue);
}

/** Applies the operations in order to a copy of `document`; throws PatchError at the first that does not apply. */
export function applyPatch(document: JsonValue, operations: readonly PatchOperation[]): JsonValue {
  let result = clone(document);
  for (const operation of operations) {
    const { op } = operation;
    const pointer = typeof operation.path === 'string' ? operation.path : '';
    switch (op) {
      case 'add':
        result = add(result, parsePointer(operation.path, op), valueOf(operation), op, pointer);
        break;
      case 'remove':
        remove(result, parsePointer(operation.path, op), op, pointer);
        break;
      case 'replace': {
        const path = parsePointer(operation.path, op);
        const value = valueOf(operation);
        if (path.length === 0) {
          result = value;
          break;
        }
        get(result, path, op, pointer);
        const parent = parentOf(result, path, op, pointer);
        const last = path.at(-1)!;
        if (Array.isArray(parent)) parent[Number(last)] = value;
        else parent[last] = value;
        break;
      }
      case 'move': {
        const from = parsePointer(operation.from, op);
        const to = parsePointer(operation.path, op);
        const fromPointer = typeof operation.from === 'string' ? operation.from : '';
        if (to.length > from.length && from.every((segment, i) => to[i] === segment)) throw new PatchError(`move operation does not apply: ${JSON.stringify(fromPointer)} cannot be moved into its own child ${JSON.stringify(pointer)}`);
        const value = remove(result, from, op, fromPointer);
        result = add(result, to, value, op, pointer);
        break;
      }
      case 'copy': {
        const fromPointer = typeof operation.from === 'string' ? operation.from : '';
        const value = clone(get(result, parsePointer(operation.from, op), op, fromPointer));
        result = add(result, parsePointer(operation.path, op), value, op, pointer);
        break;
      }
      case 'test': {
        const actual = get(result, parsePointer(operation.path, op), 'test', pointer);
        if (!deepEqual(actual, operation.hasValue ? operation.value : undefined)) throw new PatchError(`testing value ${JSON.stringify(pointer)} failed: test failed`);
        break;
      }
      default:
        throw new PatchError(`Unexpected kind: ${op}`);
    }
  }
  return result;
}
