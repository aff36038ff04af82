/** Writes defaulted objects back as YAML, marking what the API server would fill in. */
import { Document, isCollection, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { FieldPath } from '../field-path.js';

function nodeAt(root: Node | null, path: FieldPath): { node: Node } | undefined {
  let node: unknown = root;
  for (const segment of path) {
    if (typeof segment === 'number' && isSeq(node)) node = node.items[segment];
    else if (typeof segment === 'string' && isMap(node)) node = node.items.find((pair) => isScalar(pair.key) && pair.key.value === segment)?.value;
    else return undefined;
  }
  return node ? { node: node as Node } : undefined;
}

/** `value` as YAML, with a trailing `# default` comment on each path in `defaulted`. */
export function emitWithDefaultComments(value: unknown, defaulted: readonly FieldPath[], header: string): string {
  const document = new Document(value);
  document.commentBefore = ` ${header}`;
  for (const path of defaulted) {
    const found = nodeAt(document.contents, path);
    if (!found) continue;
    // A trailing comment only stays on the line of a collection written in flow style ({}, [v1]).
    if (isCollection(found.node)) found.node.flow = true;
    found.node.comment = ' default';
  }
  return document.toString({ lineWidth: 0 });
}
