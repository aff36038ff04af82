/**
 * Whether kubectl's YAML decoder refuses a document for its aliases ("document contains excessive
 * aliasing"). go-yaml v2 (goyaml.v2/decode.go, through sigs.k8s.io/yaml) counts every node it
 * decodes, and those it decodes inside an alias's expansion; once more than 100 come from
 * expansions, more than 1,000 in all, and the share from expansions is above what
 * allowedAliasRatio allows (99 % up to 400,000 decodes, falling to 10 % at 4,000,000), it stops.
 * `yaml`'s own limit (maxAliasCount) is another rule: a document with 150 aliases of one scalar
 * is refused by it and applied by kubectl. The count is replayed here in go-yaml's order: the
 * document node, then depth first, a mapping's key before its value, a merge key's value in its
 * place (not the key; a merged list's maps last to first, the list itself not counted), an alias
 * once and then its anchor's node again, inside.
 */
import { isAlias, isMap, isScalar, isSeq, visit, type Document, type Node } from 'yaml';

/** goyaml.v2/decode.go allowedAliasRatio. */
function allowedAliasRatio(decodes: number): number {
  if (decodes <= 400_000) return 0.99;
  if (decodes >= 4_000_000) return 0.1;
  return 0.99 - 0.89 * ((decodes - 400_000) / 3_600_000);
}

class ExcessiveAliasing extends Error {}

/** A key go-yaml merges (src/parse/go-yaml-schema.ts gives such keys the merge's addToJSMap). */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && (key as { addToJSMap?: unknown }).addToJSMap !== undefined;
}

/** Whether go-yaml stops decoding `doc` for its aliases (see above); a document without aliases never. */
export function goRefusesAliases(doc: Document): boolean {
  const anchors = new Map<string, { start: number; node: Node }[]>();
  let aliases = 0;
  visit(doc, (_key, node) => {
    if (isAlias(node)) aliases++;
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) {
      const list = anchors.get(anchor) ?? [];
      list.push({ start: (node as Node).range?.[0] ?? -1, node: node as Node });
      anchors.set(anchor, list);
    }
  });
  if (aliases === 0) return false;
  /** The latest anchor of that name before the alias (YAML: an alias names the latest definition). */
  const target = (source: string, at: number): Node | undefined => {
    let found: Node | undefined;
    for (const anchor of anchors.get(source) ?? []) if (anchor.start < at) found = anchor.node;
    return found;
  };
  let decodes = 1; // the document node
  let expanded = 0;
  /** The aliases being expanded: one inside its own anchor is refused elsewhere (ALIAS_CYCLE), not followed here. */
  const expanding = new Set<unknown>();
  const decode = (node: unknown): void => {
    decodes++;
    if (expanding.size > 0) expanded++;
    if (expanded > 100 && decodes > 1000 && expanded / decodes > allowedAliasRatio(decodes)) throw new ExcessiveAliasing();
    if (isAlias(node)) {
      const anchored = target(node.source, node.range?.[0] ?? Number.MAX_SAFE_INTEGER);
      if (anchored === undefined || expanding.has(node)) return;
      expanding.add(node);
      decode(anchored);
      expanding.delete(node);
    } else if (isMap(node)) {
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) {
          merge(pair.value);
          continue;
        }
        decode(pair.key);
        decode(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) decode(item);
    }
  };
  const merge = (value: unknown): void => {
    if (isSeq(value)) for (let i = value.items.length - 1; i >= 0; i--) decode(value.items[i]);
    else decode(value);
  };
  try {
    decode(doc.contents);
  } catch (error) {
    if (error instanceof ExcessiveAliasing) return true;
    throw error;
  }
  return false;
}
