/**
 * Plain scalars read as kubectl reads them (src/parse/go-yaml-schema.ts): each expected value is
 * what `kubectl annotate --local -f FILE x=y -o json` printed for the scalar (kubectl v1.32,
 * sigs.k8s.io/yaml's go-yaml v2). The slow suite asks kubectl itself
 * (test/kubectl-differential.test.ts); this table keeps the answers where kubectl is missing.
 */
import { describe, expect, it } from 'vitest';
import { parseFile } from '../src/parse/yaml.js';
import { readSimpleDocument } from '../src/parse/simple-yaml.js';

const AS_KUBECTL_READS: readonly (readonly [string, unknown])[] = [
  ['0o36', 30],
  ['036', 30],
  ['08', 8],
  ['09.5', 9.5],
  ['0x1E', 30],
  ['0X1E', 30],
  ['0b101', 5],
  ['-0b101', -5],
  ['+0b101', 5],
  ['0B101', 5],
  ['1_000', 1000],
  ['0x_1F', 31],
  ['1:20', "1:20"],
  ['1:20.5', "1:20.5"],
  ['190:20:30', "190:20:30"],
  ['+12', 12],
  ['-12', -12],
  ['1e3', 1000],
  ['1E3', 1000],
  ['1.', 1],
  ['-.5', -0.5],
  ['.5', 0.5],
  ['1.5e3', 1500],
  ['1_0.5', 10.5],
  ['0.1_0', 0.1],
  ['inf', "inf"],
  ['nan', "nan"],
  ['yes', true],
  ['Yes', true],
  ['YES', true],
  ['y', true],
  ['Y', true],
  ['no', false],
  ['n', false],
  ['N', false],
  ['on', true],
  ['On', true],
  ['ON', true],
  ['off', false],
  ['Off', false],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['False', false],
  ['~', null],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['2001-12-14', "2001-12-14"],
  ['2001-12-14t21:59:43.10-05:00', "2001-12-14t21:59:43.10-05:00"],
  ['2001-12-14 21:59:43.10 -5', "2001-12-14 21:59:43.10 -5"],
  ['0', 0],
  ['-0', 0],
  ['00', 0],
  ['0o', "0o"],
  ['0x', "0x"],
  ['0b', "0b"],
  ['1__0', 10],
  ['_1', "_1"],
  ['1_', 1],
  ['9223372036854775807', 9223372036854776000],
  ['9223372036854775808', 9223372036854776000],
  ['18446744073709551615', 18446744073709552000],
  ['18446744073709551616', 18446744073709552000],
  ['-9223372036854775809', -9223372036854776000],
  ['0.0000001', 1e-7],
  ['123456789012345678901234567890', 1.2345678901234568e+29],
  ['0777', 511],
  ['0o777', 511],
  ['+0x10', 16],
  ['-0x10', -16],
  ['0x-10', "0x-10"],
  ['1,000', "1,000"],
  ['12:30:45', "12:30:45"],
  ['00:30', "00:30"],
  ['0:30', "0:30"],
  ['1:60', "1:60"],
  ['1:5', "1:5"],
  ['1:05', "1:05"],
  ['e5', "e5"],
  ['E3', "E3"],
  ['+e5', "+e5"],
  ['-e5', "-e5"],
  ['.e5', ".e5"],
  ['._5', "._5"],
  ['1_000e1', 10000],
  ['1.5_0', 1.5],
  ['0e0', 0],
  ['0e', "0e"],
  ['1e', "1e"],
  ['1e+', "1e+"],
  ['0_7', 7],
  ['0_x1F', 31],
  ['0x1F_', 31],
  ['0o_17', 15],
  ['0O17', 15],
  ['-0o17', -15],
  ['+0X1f', 31],
  ['0B1_0', 2],
  ['-0B11', -3],
  ['00o17', "00o17"],
  ['0o8', "0o8"],
  ['0xG', "0xG"],
  ['__1', "__1"],
  ['-_1', -1],
  ['+_1', 1],
  ['0.', 0],
  ['0.e1', 0],
  ['1.e1', 10],
  ['.5e-1', 0.05],
  ['5.e-1', 0.5],
  ['01.5', 1.5],
  ['001', 1],
  ['-01', -1],
  ['08.5', 8.5],
  ['0_8', 8],
  ['1e1_0', 10000000000],
  ['1E+1', 10],
  ['0x1p4', "0x1p4"],
  ['0x1.8p1', "0x1.8p1"],
  ['1_2_3', 123],
  ['0b2', "0b2"],
  ['+0', 0],
  ['0.0', 0],
  ['-0.0', 0],
  ['1.0e2', 100],
  ['12e03', 12000],
];

function specOf(text: string): Record<string, unknown> {
  const parsed = parseFile({ path: 'scalars.yaml', text }, { prefilter: false });
  expect(parsed.problems).toEqual([]);
  const read = parsed.manifests[0]!.toValue();
  if (!('value' in read)) throw new Error(read.problem.message);
  return (read.value as { spec: Record<string, unknown> }).spec;
}

describe('plain scalars, as go-yaml v2 resolves them', () => {
  const text = `apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n${AS_KUBECTL_READS.map(([scalar], index) => `  k${index}: ${scalar}\n`).join('')}`;

  it('the full parse reads each as kubectl does', () => {
    const spec = specOf(text);
    const differences = AS_KUBECTL_READS.filter(([, expected], index) => JSON.stringify(spec[`k${index}`]) !== JSON.stringify(expected));
    expect(differences.map(([scalar, expected], index) => `${scalar}: ${JSON.stringify(spec[`k${AS_KUBECTL_READS.findIndex((row) => row[0] === scalar)}`])}, kubectl ${JSON.stringify(expected)} (${index})`)).toEqual([]);
  });

  it('the fast reader reads each the same, or leaves it to the full parse', () => {
    for (const [index, [scalar, expected]] of AS_KUBECTL_READS.entries()) {
      const value = readSimpleDocument(`apiVersion: v1\nkind: Thing\nspec:\n  k${index}: ${scalar}\n`);
      if (value === undefined) continue;
      expect(JSON.stringify((value.spec as Record<string, unknown>)[`k${index}`]), scalar).toBe(JSON.stringify(expected));
    }
  });

  it('a date in a Namespace label is the string it is written as, which the API server accepts', () => {
    const spec = specOf('apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec: {created: 2024-01-01, at: 2001-12-14t21:59:43.10-05:00, big: 1e400}\n');
    expect(spec).toEqual({ created: '2024-01-01', at: '2001-12-14t21:59:43.10-05:00', big: '1e400' });
  });
});

describe('double-quoted escapes, as go-yaml v2 reads them (src/parse/lenient.ts)', () => {
  const read = (value: string) => parseFile({ path: 'escapes.yaml', text: `apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n  a: ${value}\n` }, { prefilter: false });

  it("reads \\' as an apostrophe, also in a scalar over several lines", () => {
    // (An escaped backslash, then a plain apostrophe: `a\'`.)
    for (const [written, expected] of [[`"it\\'s"`, "it's"], [`"it\\'s\n    two"`, "it's two"], [`"a\\\\'"`, "a\\'"]] as const) {
      const parsed = read(written);
      expect(parsed.problems, written).toEqual([]);
      const value = parsed.manifests[0]!.toValue();
      expect('value' in value && (value.value as { spec: { a: unknown } }).spec.a, written).toBe(expected);
    }
  });

  it('rejects \\/ and escapes of surrogates, which kubectl refuses (past Unicode, both reject it)', () => {
    for (const written of ['"https:\\/\\/example.com"', '"\\ud800"', '"\\U00110000"']) {
      expect(read(written).problems.map((problem) => problem.code), written).toEqual(['BAD_DQ_ESCAPE']);
    }
    expect(read('"a\\\\/b"').problems).toEqual([]);
  });
});

describe('merge keys and aliases, as go-yaml v2 reads them', () => {
  const spec = (body: string): unknown => {
    const parsed = parseFile({ path: 'merge.yaml', text: `apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n${body}` }, { prefilter: false });
    expect(parsed.problems).toEqual([]);
    const read = parsed.manifests[0]!.toValue();
    if (!('value' in read)) throw new Error(read.problem.message);
    return (read.value as { spec: unknown }).spec;
  };

  it('a merge sets its keys over those written before it, and a later merge over an earlier one', () => {
    expect(spec('  d: &d {failurePolicy: Fail, t: 10}\n  w:\n    failurePolicy: Ignore\n    <<: *d\n')).toEqual({ d: { failurePolicy: 'Fail', t: 10 }, w: { failurePolicy: 'Fail', t: 10 } });
    expect(spec('  w:\n    <<: {q: 1}\n    q: 2\n    <<: {q: 3}\n')).toEqual({ w: { q: 3 } });
    // In a merged list, the first map wins; a key written after the merge wins over it.
    expect(spec('  a: &a {p: 1}\n  b: &b {p: 2, s: 2}\n  w:\n    <<: [*a, *b]\n    s: 3\n')).toEqual({ a: { p: 1 }, b: { p: 2, s: 2 }, w: { p: 1, s: 3 } });
  });

  it('an alias inside the node its anchor names is a document kubectl refuses', () => {
    const parsed = parseFile({ path: 'cycle.yaml', text: 'apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec: &s {self: *s}\n' }, { prefilter: false });
    const read = parsed.manifests[0]!.toValue();
    expect('problem' in read && read.problem.code).toBe('ALIAS_CYCLE');
  });
});

describe('tags and keys, as go-yaml v2 and sigs.k8s.io/yaml read them', () => {
  const parse = (body: string) => parseFile({ path: 'tags.yaml', text: `apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n${body}` }, { prefilter: false });

  it('merges only a plain, untagged <<: !!str << is a key', () => {
    const parsed = parse('  b: &a {x: 1}\n  c:\n    !!str <<: *a\n');
    const read = parsed.manifests[0]!.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ b: { x: 1 }, c: { '<<': { x: 1 } } });
  });

  it('merges a << key tagged ! (in any quoting) or !!merge, as go-yaml does, in its place', () => {
    const read = parse("  b: &a {p: Fail, x: 1}\n  c:\n    p: Ignore\n    ! <<: *a\n  d: {p: Ignore, ! '<<': *a}\n  e:\n    p: Ignore\n    !!merge <<: *a\n    x: 2\n  f: !!merge <<\n").manifests[0]!.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ b: { p: 'Fail', x: 1 }, c: { p: 'Fail', x: 1 }, d: { p: 'Fail', x: 1 }, e: { p: 'Fail', x: 2 }, f: '<<' });
  });

  it('two tagged merge keys in one mapping are no duplicate', () => {
    const parsed = parse('  c:\n    ! <<: {a: 1}\n    ! <<: {b: 2}\n');
    expect(parsed.problems).toEqual([]);
    const read = parsed.manifests[0]!.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ c: { a: 1, b: 2 } });
  });

  it('reads !!float 017 as the integer go-yaml reads (15), as a float', () => {
    const read = parse('  a: !!float 017\n').manifests[0]!.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ a: 15 });
  });

  it('refuses a value its tag does not fit, as kubectl does', () => {
    for (const body of ['  a: !!int abc\n', '  a: !!bool 1\n', '  a: !!null x\n', '  a: !!int 1.5\n']) {
      expect(parse(body).problems.filter((problem) => problem.severity === 'error').map((problem) => problem.code), body).toEqual(['TAG_RESOLVE_FAILED']);
    }
    expect(parse('  a: !foo bar\n  b: !!int "12"\n').problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it('reports keys that are one JSON key for kubectl (1 and "1"), whose value it picks at random', () => {
    for (const body of ["  1: a\n  '1': b\n", "  true: a\n  'true': b\n", '  yes: a\n  on: b\n']) {
      expect(parse(body).problems.map((problem) => problem.code), body).toEqual(['DUPLICATE_KEY']);
    }
  });
});

describe('flow collections, as go-yaml v2 scans them', () => {
  it('keeps a colon just before , ] or } in the plain scalar it ends, at the same positions', () => {
    const text = 'apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n  a: [b:, c]\n  b: {e:, f: g}\n  c: {b: c:}\n  d: [b:c, "q":, r]\n';
    const parsed = parseFile({ path: 'flow.yaml', text }, { prefilter: false });
    expect(parsed.problems).toEqual([]);
    const manifest = parsed.manifests[0]!;
    const read = manifest.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ a: ['b:', 'c'], b: { 'e:': null, f: 'g' }, c: { b: 'c:' }, d: ['b:c', { q: null }, 'r'] });
    expect(manifest.locate(['spec', 'b', 'f']).line).toBe(6);
  });
});

describe('what go-yaml scans otherwise: ? in flow collections, tags through , [ ], JSON escapes', () => {
  const spec = (body: string): unknown => {
    const parsed = parseFile({ path: 'scan.yaml', text: `apiVersion: v1\nkind: Thing\nmetadata: {name: a}\nspec:\n${body}` }, { prefilter: false });
    const read = parsed.manifests[0]!.toValue();
    return 'value' in read ? (read.value as { spec: unknown }).spec : read.problem.message;
  };

  it('reads ?key in a flow collection as the key', () => {
    expect(spec('  w: {name: w, ?failurePolicy: Ignore}\n')).toEqual({ w: { name: 'w', failurePolicy: 'Ignore' } });
  });

  it('runs a tag on through , [ and ], as go-yaml does', () => {
    expect(spec('  matchLabels: {kubernetes.io/metadata.name: !,tier: default}\n  ops: [CREATE, !t,UPDATE DELETE]\n')).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'default' }, ops: ['CREATE', 'DELETE'] });
  });

  it('reads a JSON file with the escapes JSON has (\\/ and surrogate pairs)', () => {
    const parsed = parseFile({ path: 'a.json', text: '{"apiVersion": "v1", "kind": "Thing", "metadata": {"name": "a"}, "spec": {"u": "https:\\/\\/x", "e": "\\ud83d\\ude00"}}\n' }, { prefilter: false });
    expect(parsed.problems).toEqual([]);
    const read = parsed.manifests[0]!.toValue();
    expect('value' in read && (read.value as { spec: unknown }).spec).toEqual({ u: 'https://x', e: '😀' });
  });
});
