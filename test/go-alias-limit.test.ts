/**
 * src/parse/go-alias-limit.ts: kubectl's decoder (go-yaml v2) refuses a document whose alias
 * expansions pass its ratio, and applies one with many aliases that do not. The same documents
 * are compared with kubectl itself in test/kubectl-differential.test.ts (slow suite).
 */
import { describe, expect, it } from 'vitest';
import { parseAsGoYaml } from '../src/parse/go-yaml-schema.js';
import { goRefusesAliases } from '../src/parse/go-alias-limit.js';

const refuses = (text: string): boolean => goRefusesAliases(parseAsGoYaml(text, { logLevel: 'silent' })[0]!);
const HEAD = 'apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n';
const list = (name: string, of: string): string => `  ${name}: &${name} [${Array(10).fill(of).join(', ')}]\n`;
const map = (name: string, key: string, of: string): string => `  ${name}: &${name} {${Array.from({ length: 10 }, (_, i) => `${key}${i}: ${of}`).join(', ')}}\n`;

describe('the alias limit of kubectl\'s decoder', () => {
  it('applies a document without aliases, and one with 150 aliases of one scalar (yaml\'s own limit is 100)', () => {
    expect(refuses(`${HEAD}  a: 1\n`)).toBe(false);
    expect(refuses(`${HEAD}  x: &x v\n${Array.from({ length: 150 }, (_, i) => `  k${i}: *x\n`).join('')}`)).toBe(false);
  });

  it('applies aliases that expand to 1,110 nodes, and refuses two more levels of them', () => {
    const three = `${HEAD}${list('a', 'x')}${list('b', '*a')}${list('c', '*b')}`;
    expect(refuses(three)).toBe(false);
    expect(refuses(`${three}${list('d', '*c')}${list('e', '*d')}`)).toBe(true);
  });

  it('counts what merge keys expand', () => {
    const maps = `${HEAD}${map('a', 'k', 'v')}${map('b', 'x', '*a')}${map('c', 'y', '*b')}`;
    expect(refuses(`${maps}  e: {<<: [*c, *b]}\n`)).toBe(false);
    expect(refuses(`${maps}  e: {<<: [${Array(10).fill('*c').join(', ')}]}\n`)).toBe(true);
  });

  it('does not follow an alias inside its own anchor (reported as ALIAS_CYCLE)', () => {
    expect(refuses(`${HEAD}  x: &x {a: &y [1, *y]}\n`)).toBe(false);
  });
});
