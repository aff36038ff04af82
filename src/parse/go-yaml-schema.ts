/**
 * The scalars kubectl reads, as `yaml` options. kubectl and the API server decode YAML with
 * sigs.k8s.io/yaml, whose go-yaml v2 resolves a plain scalar (goyaml.v2/resolve.go) much as
 * YAML 1.1 does (`yes` and `on` are booleans, `~` is null, `<<` merges), but not quite as
 * `yaml`'s YAML 1.1 schema does:
 *
 * - a timestamp (`2024-01-01`) stays the string it is written as when decoded into an untyped
 *   value (decode.go keeps it "for backward compatibility"): a Namespace label
 *   `created: 2024-01-01` is the string `2024-01-01`, not a date;
 * - base-60 numbers (`1:20`) are "purposefully unsupported": strings;
 * - a scalar that starts with a digit or a sign is an integer when Go's
 *   `strconv.ParseInt(s, 0, 64)` reads it once every `_` is removed (so also `0o17`, `0X1F`,
 *   `0B101`, `-_1`), else a float when it then has the form of `yamlStyleFloat` (`1e3`, `08`,
 *   `1.`), and a float too large for 64 bits stays a string (`1e400`);
 * - a scalar that starts with `.` is a float only as Go's `strconv.ParseFloat` reads it as it is
 *   (`.5`, `.5_0`; not `.e5` or `._5`); one that starts with a letter is never a number (`e5`);
 * - `!!set`, `!!omap` and `!!pairs` are no types: the collection is read as written;
 * - a merge key (`<<`) sets its keys over those before it, as any entry does (decode.go reads a
 *   mapping's entries in order, the maps of a merged list last to first): `yaml` lets a written
 *   key win wherever it is, and the first merge. So `failurePolicy: Ignore` then
 *   `<<: *defaults` (with Fail) is Fail for kubectl; read otherwise, a file could show the linter
 *   one webhook and apply another. A `<<` key with the non-specific tag `!` (in any quoting) or
 *   the merge tag `!!merge` merges too: go-yaml's isMerge asks for the value `<<` and either an
 *   implicit tag (libyaml makes `!` one) or the merge tag (goMergeKeys). `!!str <<`, `'<<'` and
 *   `"<<"` are keys named `<<`.
 *
 * The kubectl differential test (test/kubectl-differential.test.ts) checks each form.
 */
import { pushAll } from '../collections.js';
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, Scalar, visit, YAMLParseError, type Document, type LineCounter, type ScalarTag, type Tags } from 'yaml';
import { stringifyNumber } from 'yaml/util';

const INT_TAG = 'tag:yaml.org,2002:int';
const FLOAT_TAG = 'tag:yaml.org,2002:float';
const TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp';
const MERGE_TAG = 'tag:yaml.org,2002:merge';
/**
 * Ours, not MERGE_TAG: `yaml` also merges a `<<` key whose tag makes it a string (`!!str <<`)
 * whenever its schema has a default tag named MERGE_TAG; go-yaml merges only a plain, untagged
 * `<<` (goyaml.v2/decode.go isMerge), and so do we.
 */
const GO_MERGE_TAG_NAME = 'tag:admission-lint,2026:go-merge';
/** YAML 1.1's ordered map, pairs and set: go-yaml has none, and reads such a collection as it is written (a list of one-entry maps, a map of nulls). */
const COLLECTION_TYPES = new Set(['tag:yaml.org,2002:omap', 'tag:yaml.org,2002:pairs', 'tag:yaml.org,2002:set']);

/** go-yaml's `yamlStyleFloat`, tried on the scalar without its underscores. */
const YAML_STYLE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** What Go's ParseInt reads with base 0 (a sign, then a 0x, 0b, 0o or 0 prefix, or a decimal). */
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
/** What Go's ParseFloat reads of a scalar starting with `.`: underscores only between digits. */
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;

/** The scalar without its underscores, when go-yaml tries it as a number (it starts with a digit or a sign). */
function numberText(text: string): string | undefined {
  const first = text.charCodeAt(0);
  const digitOrSign = (first >= 48 && first <= 57) || first === 43 || first === 45;
  return digitOrSign ? text.replace(/_/g, '') : undefined;
}

function goInt(text: string): number | undefined {
  const plain = numberText(text);
  if (plain === undefined || !GO_INT.test(plain)) return undefined;
  const negative = plain[0] === '-';
  const digits = plain[0] === '-' || plain[0] === '+' ? plain.slice(1) : plain;
  const prefix = digits.slice(0, 2).toLowerCase();
  const value =
    prefix === '0x' ? Number.parseInt(digits.slice(2), 16)
    : prefix === '0b' ? Number.parseInt(digits.slice(2), 2)
    : prefix === '0o' ? Number.parseInt(digits.slice(2), 8)
    : digits.length > 1 && digits[0] === '0' ? Number.parseInt(digits.slice(1), 8)
    : Number.parseInt(digits, 10);
  return negative ? -value : value;
}

function goFloat(text: string): number | undefined {
  const plain = numberText(text);
  let value: number | undefined;
  if (plain !== undefined) value = YAML_STYLE_FLOAT.test(plain) ? Number(plain) : undefined;
  else if (GO_DOT_FLOAT.test(text)) value = Number(text.replace(/_/g, ''));
  // ParseFloat's range error: go-yaml then keeps the string.
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** The number go-yaml reads a plain scalar as (an integer first, then a float), or undefined: not one. */
export function goYamlNumber(text: string): number | undefined {
  return goInt(text) ?? goFloat(text);
}

/**
 * `yaml` asks a tag's `test` for one thing, `test.test(text)`; these tests are Go's parsers, not
 * patterns, so they are given that shape.
 */
function accepts(parse: (text: string) => number | undefined): RegExp {
  return { test: (text: string) => parse(text) !== undefined } as unknown as RegExp;
}

const GO_INT_TAG: ScalarTag = {
  identify: (value) => typeof value === 'bigint' || Number.isInteger(value),
  default: true,
  tag: INT_TAG,
  test: accepts(goInt),
  resolve: (text) => goInt(text) ?? text,
  stringify: stringifyNumber,
};

/**
 * Also what is written as an integer: implicitly the int tag comes first; an explicit `!!float`
 * on `017` is go-yaml's 15 (resolve.go reads the integer, then makes it a float).
 */
const GO_FLOAT_TAG: ScalarTag = {
  identify: (value) => typeof value === 'number',
  default: true,
  tag: FLOAT_TAG,
  test: accepts(goYamlNumber),
  resolve: (text) => goYamlNumber(text) ?? text,
  stringify: stringifyNumber,
};

/** The context `yaml` converts a document with, as far as a merge needs it. */
interface ToJSContext {
  readonly doc: unknown;
}

/** A merged mapping's entries, set over what the mapping holds so far. */
function mergeOver(context: ToJSContext, target: unknown, merged: unknown): void {
  const source = isAlias(merged) ? merged.resolve(context.doc as never, context as never) : merged;
  if (!isMap(source)) throw new Error('Merge sources must be maps or map aliases');
  const entries = source.toJSON(null, context as never, Map) as Map<unknown, unknown>;
  for (const [key, value] of entries) {
    if (target instanceof Map) target.set(key, value);
    // defineProperty: a `__proto__` key is an entry like any other, never the prototype.
    else Object.defineProperty(target, String(key), { value, writable: true, enumerable: true, configurable: true });
  }
}

/** A merge key's entries set into the mapping (see above): in its place among the entries, a list's maps last to first. */
function addMergeToJSMap(context: ToJSContext, target: unknown, value: unknown): void {
  const source = isAlias(value) ? value.resolve(context.doc as never, context as never) : value;
  const maps = isSeq(source) ? [...source.items].reverse() : [source];
  for (const map of maps) mergeOver(context, target, map);
}

/** `<<` as go-yaml merges (see above). */
const GO_MERGE_TAG: ScalarTag = {
  identify: (value) => value === '<<' || (typeof value === 'symbol' && value.description === '<<'),
  default: 'key',
  tag: GO_MERGE_TAG_NAME,
  test: /^<<$/,
  resolve: () => Object.assign(new Scalar(Symbol('<<')), { addToJSMap: addMergeToJSMap }),
  stringify: () => '<<',
};

/**
 * An explicit `!!merge` on a scalar: a string for `yaml` (go-yaml resolves no value by that tag),
 * never the "unresolved tag" `yaml` would warn of; on a `<<` key, goMergeKeys makes it a merge.
 */
const EXPLICIT_MERGE_TAG: ScalarTag = {
  identify: () => false,
  default: false,
  tag: MERGE_TAG,
  resolve: (text) => text,
};

/** A `<<` key that go-yaml merges though `yaml` reads it as a string: tagged `!` (any quoting) or `!!merge`. */
function isTaggedMergeKey(node: unknown): boolean {
  return isScalar(node) && node.value === '<<' && (node.tag === '!' || node.tag === MERGE_TAG);
}

/**
 * Makes each `<<` key that go-yaml merges and `yaml` reads as a string (isTaggedMergeKey) a merge,
 * in place, its node and positions kept (parseAsGoYaml).
 */
function goMergeKeys(documents: readonly Document[], text: string): void {
  if (!text.includes('<<')) return;
  for (const doc of documents) {
    visit(doc, {
      Pair(_, pair) {
        if (isScalar(pair.key) && isTaggedMergeKey(pair.key)) Object.assign(pair.key, { addToJSMap: addMergeToJSMap });
      },
    });
  }
}

/**
 * YAML 1.1's tags without timestamps, base-60 numbers, its own integers, floats (`.inf` and
 * `.nan` stay) and merge, with go-yaml's in their place.
 */
function goYamlTags(tags: Tags): Tags {
  const kept = tags.filter((tag) => {
    if (typeof tag === 'string') return true;
    if (tag.tag === TIMESTAMP_TAG || tag.tag === INT_TAG || tag.tag === MERGE_TAG || COLLECTION_TYPES.has(tag.tag)) return false;
    // Of the floats, only the one for `.inf` and `.nan` is go-yaml's too.
    return tag.tag !== FLOAT_TAG || tag.test?.test('.nan') === true;
  });
  return [...kept, GO_INT_TAG, GO_FLOAT_TAG, GO_MERGE_TAG, EXPLICIT_MERGE_TAG];
}

/**
 * The JSON key sigs.k8s.io/yaml makes of a scalar key (yaml.go convertToJSONableObject: numbers
 * and booleans as their text), or undefined for a merge key. Floats are compared as numbers:
 * Go formats them at 32-bit precision, which only makes more of them equal.
 */
function jsonKey(value: unknown): string | undefined {
  if (typeof value === 'symbol') return undefined;
  return value === null ? '' : String(value);
}

/**
 * The JSON key of a mapping key as duplicates are found (keys that are one JSON key for kubectl:
 * `1` and `'1'`, `true` and `'true'`, whose value kubectl picks at random, Go map order), or
 * undefined for a key that never duplicates another (not a scalar, or a merge key).
 */
function duplicateCheckedKey(key: unknown): string | undefined {
  if (!isScalar(key) || isTaggedMergeKey(key)) return undefined;
  return jsonKey(key.value);
}

/**
 * The options every parse of a manifest (or of a file the API server reads) uses. Duplicate keys
 * are found by reportDuplicateKeys, not by `yaml`: its check compares each key with every key
 * before it (24,000 labels took 20 s to parse: s38e 4).
 */
export const GO_YAML = { version: '1.1', customTags: goYamlTags, merge: false, uniqueKeys: false } as const;

/**
 * Adds to `doc.errors` the DUPLICATE_KEY errors `yaml` reports with uniqueKeys (at the later
 * key, in the order of the text), for keys that are one JSON key (duplicateCheckedKey); one pass
 * over each mapping.
 */
export function reportDuplicateKeys(doc: Document): void {
  const found: YAMLParseError[] = [];
  visit(doc, {
    Map(_, map) {
      if (map.items.length < 2) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = duplicateCheckedKey(pair.key);
        if (key === undefined) continue;
        if (!seen.has(key)) seen.add(key);
        else {
          const at = (pair.key as Scalar).range?.[0] ?? 0;
          found.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
      }
    },
  });
  if (found.length === 0) return;
  found.sort((a, b) => a.pos[0] - b.pos[0]);
  // Merged by offset into the errors composing gave, which come in the order of the text.
  const merged: YAMLParseError[] = [];
  let next = 0;
  for (const error of doc.errors) {
    while (next < found.length && found[next]!.pos[0] < error.pos[0]) merged.push(found[next++]!);
    merged.push(error);
  }
  pushAll(merged, found.slice(next));
  // Refilled one by one: splice(…, ...merged) would pass every error as an argument.
  doc.errors.length = 0;
  pushAll(doc.errors, merged);
}

/**
 * Every document of a text as kubectl's go-yaml reads it: `yaml` with GO_YAML, and the `<<` keys
 * go-yaml merges that `yaml` would read as strings (goMergeKeys). The one parse of manifests, of
 * the texts `--fix` edits and of Pod Security configurations.
 */
export function parseAsGoYaml(text: string, options: { readonly logLevel: 'silent' | 'error'; readonly prettyErrors?: boolean; readonly lineCounter?: LineCounter }): Document.Parsed[] {
  const parsed = parseAllDocuments(text, { ...GO_YAML, ...options });
  // parseAllDocuments returns an EmptyStream (not an array) for a text with no documents.
  const documents = Array.isArray(parsed) ? parsed : [];
  for (const doc of documents) reportDuplicateKeys(doc);
  goMergeKeys(documents, text);
  return documents;
}
