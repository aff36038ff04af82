/**
 * Duplicate keys are found in one pass over each mapping (reportDuplicateKeys), not by `yaml`'s
 * check, which compares each key with every key before it: the errors are the ones `yaml` gives
 * with the key comparison the parse used before (keys that are one JSON key for kubectl).
 */
import { readFileSync } from 'node:fs';
import { isScalar, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { GO_YAML, parseAsGoYaml } from '../src/parse/go-yaml-schema.js';
import { parseFile } from '../src/parse/yaml.js';
import { yamlFiles } from './yaml-files.js';

/** `yaml`'s own duplicate check, with the key comparison the parse used before (the oracle). */
function duplicatesAsYamlFinds(text: string): [string, number][] {
  const parsed = parseAllDocuments(text, {
    ...GO_YAML,
    uniqueKeys: (a, b) => {
      if (a === b) return true;
      if (!isScalar(a) || !isScalar(b)) return false;
      const merge = (node: typeof a) => node.value === '<<' && (node.tag === '!' || node.tag === 'tag:yaml.org,2002:merge');
      if (merge(a) || merge(b)) return false;
      const key = (value: unknown) => (typeof value === 'symbol' ? undefined : value === null ? '' : String(value));
      return key(a.value) !== undefined && key(a.value) === key(b.value);
    },
    logLevel: 'silent',
  });
  return (Array.isArray(parsed) ? parsed : []).flatMap((doc) => doc.errors.map((error) => [error.code, error.pos[0]] as [string, number]));
}

const duplicatesFound = (text: string): [string, number][] => parseAsGoYaml(text, { logLevel: 'silent', prettyErrors: false }).flatMap((doc) => doc.errors.map((error) => [error.code, error.pos[0]] as [string, number]));

describe('duplicate keys are the ones yaml finds', () => {
  const cases = [
    'a: 1\na: 2\n',
    'a: 1\nb: 2\na: 3\na: 4\n',
    "1: x\n'1': y\n",
    'true: x\n"true": y\n',
    'null: x\n~: y\n: z\n',
    '{a: 1, a: 2}\n',
    '[{a: 1}, {a: 1, b: 2, a: 3}]\n',
    '<<: {a: 1}\n<<: {b: 2}\n',
    '!!merge <<: {a: 1}\n"<<": x\n<<: y\n',
    '? [a]\n: 1\n? [a]\n: 2\n',
    '&k a: 1\n*k : 2\n',
    'm:\n  a: 1\n  a: [\n  ]\n  bad: "x\n',
    'a: 1\n---\na: 1\na: 2\n---\nb: {c: 1, c: 2}\n',
    '0x1F: a\n31: b\n1_0: c\n10: d\n',
  ];
  it.each(cases)('%j', (text) => {
    expect(duplicatesFound(text)).toEqual(duplicatesAsYamlFinds(text));
  });

  it('on every file of the fixtures and corpora', () => {
    const files = ['fixtures', 'test/corpus', '../shared/corpus/real-world'].flatMap((dir) => yamlFiles(dir));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(duplicatesFound(text), file).toEqual(duplicatesAsYamlFinds(text));
    }
  });

  it('a duplicate key is still reported as one', () => {
    const { problems } = parseFile({ path: 'x.yaml', text: 'apiVersion: v1\nkind: Namespace\n# n\nmetadata:\n  name: a\n  name: b\n' });
    expect(problems.map((problem) => problem.code)).toEqual(['DUPLICATE_KEY']);
  });
});
