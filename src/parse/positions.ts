/**
 * Where each field of an object is in its file, without the YAML document it came from. A
 * `yaml` Document takes about 20 times the bytes of its text; the linter needs positions of the
 * objects it reads until the report is written, so it keeps this index instead: a few numbers
 * per node in one typed array.
 */
import { isAlias, isCollection, isMap, isScalar, isSeq, visit, type Alias, type Document, type Node } from 'yaml';
import type { FieldPath } from '../field-path.js';
import { END, FIELDS, KEY_END, KEY_START, KIND, NodeKind as Kind, SIZE, START, TARGET, type PositionRecords } from './position-records.js';

/** A found place: the offsets `locate` of src/parse/yaml.ts turns into a span. */
export interface Located {
  readonly start: number;
  readonly end: number;
  readonly exact: boolean;
}

/** Nodes with more descendants than this have their children indexed when first walked. */
const INDEXED_FROM = 64;

export class PositionIndex {
  /** Children and last children by key of large nodes (see childrenOf). */
  private readonly children = new Map<number, number[]>();
  private readonly namedChildren = new Map<number, Map<string, number>>();

  private constructor(
    private readonly data: Int32Array,
    /** Per node: the key that names it in its parent map (undefined for others and non-scalar keys). */
    private readonly keys: readonly (string | undefined)[],
    /**
     * The first mapping key that is itself a mapping or list (an unrendered `{{placeholder}}`),
     * as offsets; JSON, and so the API server, cannot read such an object.
     */
    readonly collectionKey: readonly [number, number] | undefined,
    /**
     * The first mapping key that is null (`~`, `null`), as offsets: sigs.k8s.io/yaml cannot turn
     * it into a JSON key ("unsupported map key"), so kubectl cannot read the object.
     */
    readonly nullKey: readonly [number, number] | undefined,
    /**
     * The first alias inside the node its anchor names (`&a [1, *a]`), as offsets: go-yaml
     * refuses it ("anchor 'a' value contains itself"), so kubectl cannot read the object.
     */
    readonly cyclicAlias: readonly [number, number] | undefined,
  ) {}

  /**
   * Indexes `root` (a node of `doc`); aliases point at the nodes they name. `shift` is added to
   * every offset: `doc` was parsed from a part of the file that starts there.
   */
  /** An index the fast reader wrote as it read a document (src/parse/simple-yaml.ts): it has no aliases, collection or null keys. */
  static fromRecords(records: PositionRecords): PositionIndex {
    return new PositionIndex(records.data, records.keys, undefined, undefined, undefined);
  }

  /** The nodes, as the fast reader's records would give them (for tests that compare the two). */
  records(): PositionRecords {
    return { data: this.data, keys: this.keys };
  }

  static of(doc: Document, root: Node, shift = 0): PositionIndex {
    const records: number[] = [];
    const keys: (string | undefined)[] = [];
    /** Anchored nodes, for the aliases that name them. */
    const indexOf = new Map<Node, number>();
    /** Aliases whose anchor is outside `root` (a List item naming an anchor elsewhere in the document). */
    const outside: { alias: number; target: Node }[] = [];
    let collectionKey: [number, number] | undefined;
    let nullKey: [number, number] | undefined;
    let cyclicAlias: [number, number] | undefined;
    let inRoot = true;
    /**
     * The anchors of the whole document by name, in document order, found in one visit: `yaml`'s
     * Alias.resolve walks the document for each alias, so 10,000 aliases took 16 s.
     */
    let anchors: Map<string, { start: number; node: Node }[]> | undefined;
    const resolveAlias = (alias: Alias): Node | undefined => {
      if (anchors === undefined) {
        const found = new Map<string, { start: number; node: Node }[]>();
        visit(doc, (_key, node) => {
          const anchor = (node as { anchor?: string } | null)?.anchor;
          if (anchor) {
            const list = found.get(anchor) ?? [];
            list.push({ start: (node as Node).range?.[0] ?? -1, node: node as Node });
            found.set(anchor, list);
          }
        });
        anchors = found;
      }
      // The last anchor of that name before the alias (YAML: an alias names the latest definition).
      const list = anchors.get(alias.source);
      if (list === undefined) return undefined;
      const at = alias.range?.[0] ?? Number.MAX_SAFE_INTEGER;
      let low = 0;
      let high = list.length - 1;
      let best: Node | undefined;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if (list[mid]!.start < at) {
          best = list[mid]!.node;
          low = mid + 1;
        } else high = mid - 1;
      }
      return best;
    };
    const add = (node: unknown, key: string | undefined, keyRange: readonly number[] | undefined): number => {
      const at = keys.length;
      keys.push(key);
      const range = (node as Node | null)?.range;
      records.push(Kind.Leaf, 1, range ? range[0] + shift : -1, range ? range[1] + shift : -1, keyRange ? keyRange[0]! + shift : -1, keyRange ? keyRange[1]! + shift : -1, -1);
      if ((node as { anchor?: string } | null)?.anchor) indexOf.set(node as Node, at);
      if (isMap(node)) {
        records[at * FIELDS + KIND] = Kind.Map;
        for (const pair of node.items) {
          if (inRoot && collectionKey === undefined && isCollection(pair.key) && pair.key.range) collectionKey = [pair.key.range[0] + shift, pair.key.range[1] + shift];
          if (inRoot && nullKey === undefined && isScalar(pair.key) && pair.key.value === null && pair.key.range) nullKey = [pair.key.range[0] + shift, pair.key.range[1] + shift];
          // A pair without a scalar key can never be named by a field path. Its value is indexed
          // (unnamed) only to look for collection keys in it, unless its key is one already.
          if (isScalar(pair.key) && pair.key.range) add(pair.value, String(pair.key.value), pair.key.range);
          else if (!isCollection(pair.key)) add(pair.value, undefined, undefined);
        }
      } else if (isSeq(node)) {
        records[at * FIELDS + KIND] = Kind.Seq;
        for (const item of node.items) add(item, undefined, undefined);
      } else if (isScalar(node) && typeof node.value === 'string') {
        // `yaml` builds quoted strings piece by piece, which V8 keeps as a tree of concatenations
        // (15 times the string's length, for as long as the object lives, and traced by every
        // garbage collection). Reading a character flattens such a string in place.
        node.value.charCodeAt(0);
      } else if (isAlias(node)) {
        records[at * FIELDS + KIND] = Kind.Alias;
        const target = resolveAlias(node);
        if (inRoot && cyclicAlias === undefined && target?.range && node.range && target.range[0] <= node.range[0] && node.range[0] < target.range[1]) cyclicAlias = [node.range[0] + shift, node.range[1] + shift];
        // The anchor precedes its aliases, so it is indexed already unless it lies outside `root`.
        const known = target ? indexOf.get(target) : undefined;
        if (known !== undefined) records[at * FIELDS + TARGET] = known;
        else if (target) outside.push({ alias: at, target });
      }
      records[at * FIELDS + SIZE] = keys.length - at;
      return at;
    };
    add(root, undefined, undefined);
    inRoot = false;
    // Anchors outside `root` are indexed after it, each once, as trees of their own.
    for (let i = 0; i < outside.length; i++) {
      const { alias, target } = outside[i]!;
      records[alias * FIELDS + TARGET] = indexOf.get(target) ?? add(target, undefined, undefined);
    }
    return new PositionIndex(Int32Array.from(records), keys, collectionKey, nullKey, cyclicAlias);
  }

  private field(node: number, field: number): number {
    return this.data[node * FIELDS + field]!;
  }

  /** The `index`-th child of a node, or -1. */
  private child(node: number, index: number): number {
    const size = this.field(node, SIZE);
    if (size > INDEXED_FROM) {
      const children = this.childrenOf(node);
      return children[index] ?? -1;
    }
    let at = node + 1;
    const end = node + size;
    for (let i = 0; at < end; i++, at += this.field(at, SIZE)) if (i === index) return at;
    return -1;
  }

  /** The last entry of that key: with a duplicate key, the last value is the one read (as kubectl reads it). */
  private childNamed(node: number, key: string): number {
    const size = this.field(node, SIZE);
    if (size > INDEXED_FROM) {
      let named = this.namedChildren.get(node);
      if (named === undefined) {
        named = new Map();
        for (const at of this.childrenOf(node)) if (this.keys[at] !== undefined) named.set(this.keys[at]!, at);
        this.namedChildren.set(node, named);
      }
      return named.get(key) ?? -1;
    }
    const end = node + size;
    let found = -1;
    for (let at = node + 1; at < end; at += this.field(at, SIZE)) if (this.keys[at] === key) found = at;
    return found;
  }

  /**
   * A large node's children, found once: a finding per item of a long list (or per key of a
   * large map) would otherwise walk the siblings before it each time (s38e 4: 100,000 findings in
   * one list took 17 s to place).
   */
  private childrenOf(node: number): readonly number[] {
    let children = this.children.get(node);
    if (children === undefined) {
      children = [];
      const end = node + this.field(node, SIZE);
      for (let at = node + 1; at < end; at += this.field(at, SIZE)) children.push(at);
      this.children.set(node, children);
    }
    return children;
  }

  /**
   * Same walk as the one over the document: follow the path while it is written; a map entry is
   * its key to its value's end (or its key, or its value, for `part`); a list item is the item.
   * When the path leaves what is written, the closest written ancestor.
   */
  locate(path: FieldPath, part: 'pair' | 'key' | 'value'): Located {
    let node = 0;
    let best: [number, number] = [Math.max(0, this.field(0, START)), Math.max(0, this.field(0, END))];
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const isLast = i === path.length - 1;
      if (node >= 0 && this.field(node, KIND) === Kind.Alias) node = this.field(node, TARGET);
      let next = -1;
      let range: [number, number] | undefined;
      if (node >= 0 && typeof segment === 'number' && this.field(node, KIND) === Kind.Seq) {
        next = this.child(node, segment);
        if (next >= 0 && this.field(next, START) >= 0) range = [this.field(next, START), this.field(next, END)];
      } else if (node >= 0 && typeof segment === 'string' && this.field(node, KIND) === Kind.Map) {
        next = this.childNamed(node, segment);
        if (next >= 0) {
          const keyRange: [number, number] = [this.field(next, KEY_START), this.field(next, KEY_END)];
          const hasValue = this.field(next, START) >= 0;
          if (isLast && part === 'key') range = keyRange;
          else if (isLast && part === 'value' && hasValue) range = [this.field(next, START), this.field(next, END)];
          else range = [keyRange[0], hasValue ? this.field(next, END) : keyRange[1]];
        }
      }
      if (range === undefined) return { start: best[0], end: best[1], exact: false };
      best = range;
      node = next;
    }
    return { start: best[0], end: best[1], exact: true };
  }
}
