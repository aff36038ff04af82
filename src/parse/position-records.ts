/**
 * The layout of a position index (src/parse/positions.ts): a few numbers per node, in the order
 * a walk of the document visits the nodes (a node, then its children). Written by two readers:
 * PositionIndex.of from a `yaml` document, and the fast reader (src/parse/simple-yaml.ts) as it
 * reads a document, which then needs no parse for its positions.
 */

export const enum NodeKind {
  /** A scalar, a missing value, or anything that has no fields. */
  Leaf = 0,
  Map = 1,
  Seq = 2,
  Alias = 3,
}

/** Fields per node. */
export const FIELDS = 7;
export const KIND = 0;
/** Nodes in the subtree, this one included (children follow their parent in order). */
export const SIZE = 1;
/** The node's range as `yaml` gives it: range[0] and range[1] (its value's end, before comments). */
export const START = 2;
export const END = 3;
/** For the value of a map entry: its key's range; -1 otherwise. */
export const KEY_START = 4;
export const KEY_END = 5;
/** For an alias: the node it refers to (-1 when that is outside what was indexed). */
export const TARGET = 6;

/** The nodes of a document, as a position index holds them. */
export interface PositionRecords {
  readonly data: Int32Array;
  /** Per node: the key that names it in its parent map (undefined for others). */
  readonly keys: readonly (string | undefined)[];
}

/**
 * Records nodes as a reader meets them: `open` a node when it starts (the key that names it, if
 * any, was given to `name` just before), `close` it when its last child is read.
 */
export class RecordWriter {
  private readonly data: number[] = [];
  private readonly keys: (string | undefined)[] = [];
  private key: { readonly name: string; readonly start: number; readonly end: number } | undefined;

  /** The next node opened is the value of this key. */
  name(name: string, start: number, end: number): void {
    this.key = { name, start, end };
  }

  open(kind: NodeKind, start: number): number {
    const at = this.keys.length;
    const key = this.key;
    this.key = undefined;
    this.keys.push(key?.name);
    this.data.push(kind, 1, start, -1, key === undefined ? -1 : key.start, key === undefined ? -1 : key.end, -1);
    return at;
  }

  close(node: number, end: number): void {
    this.data[node * FIELDS + END] = end;
    this.data[node * FIELDS + SIZE] = this.keys.length - node;
  }

  /** A scalar (or a missing value) from `start` to `end`. */
  leaf(start: number, end: number): void {
    this.close(this.open(NodeKind.Leaf, start), end);
  }

  records(): PositionRecords {
    return { data: Int32Array.from(this.data), keys: this.keys };
  }
}
