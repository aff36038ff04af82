/**
 * No run leaves state behind in a module: per-run analyses go through the run's memo or are
 * locals of a rule's create (src/run-scope.ts), and what outlives a run is one of the caches of
 * src/cache.ts, each listed in docs/architecture.md. A module-level `let`, or a Map, Set or
 * WeakMap made empty at module level (to be filled later), fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const sources = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'rules'))].map((file) => ({ name: relative(ROOT, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));

/** Statements at the top level of a module (column 0), which is where module state is declared. */
/** An empty collection typed Readonly… (a shared empty value) is not state. */
const MUTABLE = /^(?:export\s+)?(?:let|var)\s+\w+|^(?:export\s+)?const\s+\w+(?::(?![^=]*Readonly)[^=]+)?\s*=\s*new\s+(?:Map|Set|WeakMap|WeakSet)\s*(?:<[^\n]*?>)?\(\s*\)/gm;
const CACHES = /^(?:export\s+)?const\s+(\w+)(?::[^=]+)?\s*=\s*(?:\[\s*)?new\s+(BoundedCache|ObjectMemo|Lazy)\b/gm;

describe('module-level state', () => {
  it('no module in src/ or rules/ declares mutable state at its top level', () => {
    const offending = sources.flatMap(({ name, text }) => [...text.matchAll(MUTABLE)].map((match) => `${name}: ${match[0]}`));
    expect(offending).toEqual([]);
  });

  it('every cache that outlives a run is listed in docs/architecture.md, and every one listed exists', () => {
    const declared = sources.flatMap(({ name, text }) => [...text.matchAll(CACHES)].map((match) => `${name} ${match[1]}`)).sort();
    const docs = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## State that outlives a run'));
    const listed = [...section.matchAll(/^\| `([^`]+)` \| `(\w+)` \|/gm)].map((match) => `${match[1]} ${match[2]}`).sort();
    expect(listed).toEqual(declared);
  });

  it('finds what it looks for (the patterns match real declarations)', () => {
    expect('let cached: string | undefined;').toMatch(MUTABLE);
    expect('const seen = new Map<string, number>();').toMatch(new RegExp(MUTABLE.source, 'm'));
    expect('const TABLE = new Set([\'a\']);').not.toMatch(new RegExp(MUTABLE.source, 'm'));
    expect('const NONE: ReadonlyMap<string, number> = new Map();').not.toMatch(new RegExp(MUTABLE.source, 'm'));
    expect('const compiled = new BoundedCache<string, string>();').toMatch(new RegExp(CACHES.source, 'm'));
  });
});
