/**
 * The layering that keeps rules a plug-in and not a second library: a rule imports from src/
 * only (never another rule), and src/ reaches the rules only through the places that run them.
 * The known exceptions in src/ are listed; a new one fails here until it is justified.
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
  'src/engine/suppressions.ts': 'the suppression directives are reported as two rules of their own (TODO issue 13: move their metadata)',
};

describe('import graph', () => {
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
