/** A path into a manifest object: object keys and list indexes, e.g. ['webhooks', 0, 'rules']. */
export type FieldPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The API server's notation: `webhooks[0].rules[1].operations[2]`. Keys that are not plain
 * identifiers (label keys) are written in brackets, as the API server does for
 * `metadata.labels[pod-security.kubernetes.io/enforce]`.
 */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${segment}]`;
  }
  return out;
}

/** The value at `path` inside `root`, or undefined where the path leads nowhere. */
export function valueAtPath(root: unknown, path: FieldPath): unknown {
  let value = root;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
