/**
 * The layering that keeps rules a plug-in and not a second library: a rule imports from src/
 * only (never another rule), and src/ reaches the rules only through the places that run them.
 * The known exceptions in src/ are listed; a new one fails here until it is justified.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative module specifiers a file imports (static imports and exports, dynamic imports). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith('.')) found.push(specifier);
  }
  return found;
}

/** src/ modules allowed to import rules/, and why. */
const SRC_TO_RULES: Readonly<Record<string, string>> = {
  'src/cli/main.ts': 'the CLI runs the rule registry',
  'src/report/build.ts': 'the report runs the rule registry',
};

/**
 * The layers of src/, bottom first: a module imports its own layer and the layers below, never
 * one above (docs/architecture.md draws them). Type-only imports count too: a type that a lower
 * layer needs belongs in that layer.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'field-path.ts', 'json.ts', 'severity.ts', 'cache.ts', 'collections.ts', 'text', 'kube'],
  ['load', 'parse', 'output-safety'],
  ['model'],
  ['run-scope.ts', 'rule.ts'],
  ['defaults', 'cel'],
  ['validate'],
  ['recognize', 'match', 'psa'],
  ['engine', 'fix'],
  ['format', 'config', 'simulate', 'report', 'probe'],
  ['cli', 'build'],
];
/** What a rule may import: the layers up to the one the analyses live in, never the engine or anything that runs rules. */
const RULE_LAYER = LAYERS.findIndex((layer) => layer.includes('match'));

function layerOf(srcRelative: string): number {
  // Specifiers name the built file (`../rule.js`); the layers name sources.
  const top = srcRelative.split('/')[0]!.replace(/\.js$/, '.ts');
  const index = LAYERS.findIndex((layer) => layer.includes(top));
  if (index < 0) throw new Error(`src/${srcRelative} is in no layer: add it to LAYERS (and to docs/architecture.md)`);
  return index;
}

describe('import graph', () => {
  it('src/ imports only its own layer and the layers below', () => {
    const offending: string[] = [];
    for (const file of files(join(ROOT, 'src'))) {
      const from = relative(join(ROOT, 'src'), file).split('\\').join('/');
      for (const specifier of imports(file)) {
        const target = relative(join(ROOT, 'src'), join(dirname(file), specifier)).split('\\').join('/');
        if (target.startsWith('..')) continue;
        if (layerOf(target) > layerOf(from)) offending.push(`src/${from} (layer ${layerOf(from)}) imports src/${target} (layer ${layerOf(target)})`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('rules import the analyses, never the engine, the formats or the commands', () => {
    const offending: string[] = [];
    for (const file of files(join(ROOT, 'rules'))) {
      if (file.endsWith('index.ts')) continue;
      for (const specifier of imports(file)) {
        const target = relative(join(ROOT, 'src'), join(dirname(file), specifier)).split('\\').join('/');
        if (!target.startsWith('..') && layerOf(target) > RULE_LAYER) offending.push(`${relative(ROOT, file)} imports src/${target}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('a rule imports from src/ only, never another rule', () => {
    const offending: string[] = [];
    for (const file of files(join(ROOT, 'rules'))) {
      if (file.endsWith('index.ts')) continue;
      for (const specifier of imports(file)) if (!specifier.startsWith('../src/')) offending.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
    expect(offending).toEqual([]);
  });

  it('src/ imports rules/ only where the rules are run (listed exceptions)', () => {
    const offending: string[] = [];
    for (const file of files(join(ROOT, 'src'))) {
      const name = relative(ROOT, file).split('\\').join('/');
      if (imports(file).some((specifier) => specifier.includes('/rules/')) && SRC_TO_RULES[name] === undefined) offending.push(name);
    }
    expect(offending).toEqual([]);
  });
});
