/** fast-check generators: valid manifests from the fixtures, mutated at random paths. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { parseAllDocuments } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');

export function seedTexts(): string[] {
  const texts: string[] = [];
  const fixtures = join(ROOT, 'fixtures');
  for (const rule of readdirSync(fixtures)) {
    const dir = rule === 'examples' ? join(fixtures, rule) : join(fixtures, rule, 'valid');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.yaml'));
    } catch {
      continue;
    }
    for (const name of names) texts.push(readFileSync(join(dir, name), 'utf8'));
  }
  return texts;
}

export function seedObjects(texts: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const text of texts) {
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length === 0) {
        try {
          const value = doc.toJS({ maxAliasCount: 100 });
          if (value !== null && typeof value === 'object') out.push(value);
        } catch {
          /* skip */
        }
      }
    }
  }
  return out;
}

const weird = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.constant(1e308), fc.constant(-0),
  fc.constant(Number.MAX_SAFE_INTEGER * 1000), fc.string(), fc.string({ unit: 'grapheme' }), fc.constant('\u202e\u0000\ud83d\ude00'),
  fc.constant('*'), fc.constant(''), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
  fc.integer({ min: 1, max: 60 }).map((n) => { let v: unknown = 'x'; for (let i = 0; i < n; i++) v = i % 2 ? [v] : { k: v }; return v; }),
);

type Path = (string | number)[];
function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

type Mutation = { kind: 'set' | 'delete' | 'extra'; pick: number; value: unknown; key: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('set' as const, 'delete' as const, 'extra' as const),
  pick: fc.nat(),
  value: weird,
  key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('kind', 'apiVersion', 'metadata', 'webhooks', 'rules', 'name', 'items')),
});

function mutate(object: unknown, mutations: readonly Mutation[]): unknown {
  let root = structuredClone(object);
  for (const generated of mutations) {
    // fast-check may hand the same value to several runs (shrinking replays them): a value put in
    // the tree and then changed by a later mutation must not change it there, or runs would build cycles.
    const m = { ...generated, value: structuredClone(generated.value) };
    const all = paths(root);
    const path = all[m.pick % all.length]!;
    if (path.length === 0) {
      if (m.kind === 'set') root = m.value;
      continue;
    }
    let parent: any = root;
    for (const seg of path.slice(0, -1)) parent = parent[seg];
    const last = path[path.length - 1]!;
    if (m.kind === 'set') parent[last] = m.value;
    else if (m.kind === 'delete') Array.isArray(parent) ? parent.splice(last as number, 1) : delete parent[last];
    else {
      const target = parent[last];
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) target[m.key] = m.value;
      else parent[last] = m.value;
    }
  }
  return root;
}

/** Text-level damage: tags, anchors, CRLF, tabs, BOM, truncation, spliced bytes. */
const textMutation = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), s: fc.constantFrom('!!str ', '!!int ', '!foo ', '&a ', '*a', '<<: *a\n', '---\n', '...\n', '\t', '{', ']', '"', "'", '# c\n', '? ', '|\n', '%YAML 1.2\n', '\ufeff', ': ', '- ', '!!binary ', '&a [*a]') }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), s: fc.string({ maxLength: 1 }) }),
  fc.record({ op: fc.constant('crlf' as const), at: fc.nat(), s: fc.constant('') }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat(), s: fc.constant('') }),
  fc.record({ op: fc.constant('random' as const), at: fc.nat(), s: fc.string({ unit: 'binary', maxLength: 8 }) }),
);

function applyText(text: string, ops: readonly { op: string; at: number; s: string }[]): string {
  for (const { op, at, s } of ops) {
    const i = text.length === 0 ? 0 : at % (text.length + 1);
    if (op === 'insert' || op === 'random') text = text.slice(0, i) + s + text.slice(i);
    else if (op === 'delete') text = text.slice(0, i) + text.slice(i + 1 + (s.length ? 3 : 0));
    else if (op === 'crlf') text = text.replace(/\n/g, '\r\n');
    else if (op === 'truncate') text = text.slice(0, i);
  }
  return text;
}

export function manifestText(texts: readonly string[], objects: readonly unknown[]): fc.Arbitrary<string> {
  const structural = fc.tuple(fc.constantFrom(...objects), fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.boolean())
    .map(([object, ms, json]) => {
      const value = mutate(object, ms);
      if (json) return JSON.stringify(value);
      try {
        return stringify(value, { aliasDuplicateObjects: false });
      } catch (error) {
        // Nested mutations can stack values hundreds of levels deep, past what yaml's stringify
        // recurses through: the same value as JSON (which is YAML) still reaches the linter.
        if (error instanceof RangeError) return JSON.stringify(value);
        throw error;
      }
    });
  const textual = fc.tuple(fc.constantFrom(...texts), fc.array(textMutation, { minLength: 1, maxLength: 5 })).map(([t, ops]) => applyText(t, ops));
  const both = fc.tuple(structural, fc.array(textMutation, { maxLength: 3 })).map(([t, ops]) => applyText(t, ops));
  return fc.oneof({ weight: 4, arbitrary: structural }, { weight: 3, arbitrary: textual }, { weight: 2, arbitrary: both }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) });
}

/** Raw bytes, sometimes invalid UTF-8. */
export const rawBytes = fc.uint8Array({ maxLength: 300 });
