/**
 * admissionCompile (src/cel/compile.ts): the untyped check first, then the type checker of the
 * target version, reporting only what the API server certainly rejects. The checker's own cases
 * are in cel-typecheck.test.ts; here: the order of the layers, what is left unsaid, the
 * versions, and the types it hands to variable composition.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admissionCompile, celCompileError, type AdmissionCompileOptions } from '../src/cel/compile.js';
import { typeString, type CelType } from '../src/cel/check/index.js';
import { T } from '../src/cel/environment/types.js';
import { prepareCel } from '../src/cel/library.js';
import { ACCEPTED, VERSIONED } from './cel-typecheck-cases/table.js';

beforeAll(async () => {
  await prepareCel();
});

const at = (minor: number, kind: AdmissionCompileOptions['kind'] = 'validating.validation', extra: Partial<AdmissionCompileOptions> = {}): AdmissionCompileOptions => ({ kind, kubeVersion: { major: 1, minor }, ...extra });
const error = (expression: string, options: AdmissionCompileOptions = at(35)): string | undefined => admissionCompile(expression, options).error;

describe('layers', () => {
  it('rejects what the untyped check finds a syntax error, in the words of cel-go’s parser', () => {
    const untyped = celCompileError("'asdf'.contains('x'", { variables: new Set(['object', 'oldObject', 'request', 'namespaceObject', 'authorizer']), result: 'bool' });
    expect(untyped).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    expect(error("'asdf'.contains('x'")).toBe("compilation failed: ERROR: <input>:1:20: Syntax error: missing ')' at '<EOF>'\n | 'asdf'.contains('x'\n | ...................^");
    // A list ended by a ',' at the end of input: ANTLR reports the missing ']' (upstream
    // validation tests, k8s.io/apiserver 1.35 with cel-go 0.26), and a trailing ',' is allowed.
    expect(error('object.x in [1, 2, ')).toBe("compilation failed: ERROR: <input>:1:20: Syntax error: missing ']' at '<EOF>'\n | object.x in [1, 2, \n | ...................^");
    expect(error('[1, 2,].size() == 2')).toBeUndefined();
    // cel-go's grammar reads a lone ',' as an empty list, map or message (`listInit? ','?`): what
    // cel-js cannot parse, the API server accepts (s37d 5-A).
    expect(error('[,] == []')).toBeUndefined();
    expect(error('{,} == {}')).toBeUndefined();
    // Issue 24: Kubernetes 1.35 has no escaped identifiers (base.go never enables
    // cel.EnableIdentifierEscapeSyntax), and a double literal out of range does not parse.
    expect(error('object.`b-c` == 1')).toBe("compilation failed: ERROR: <input>:1:8: unsupported syntax: '`'\n | object.`b-c` == 1\n | .......^");
    expect(error('object.spec.x < 1.99e90000009')).toBe('compilation failed: ERROR: <input>:1:17: invalid double literal\n | object.spec.x < 1.99e90000009\n | ................^');
    // cel-go's unescape (parser/unescape.go): no \\u escape in bytes, no surrogate code point in strings.
    expect(error("object.b == b'\\u00ff'")).toBe("compilation failed: ERROR: <input>:1:13: unable to unescape string\n | object.b == b'\\u00ff'\n | ............^");
    expect(error("object.s == '\\ud800'")).toBe("compilation failed: ERROR: <input>:1:13: invalid unicode code point\n | object.s == '\\ud800'\n | ............^");
    // Message construction outside mutations parses in cel-go (not in cel-js): the checker's text.
    expect(error('Foo{a: 1} == object')).toBe("compilation failed: ERROR: <input>:1:4: undeclared reference to 'Foo' (in container '')\n | Foo{a: 1} == object\n | ...^");
  });

  it('shows at most 100 parser issues, then how many more there were, as cel-go does', () => {
    const text = error('$'.repeat(150))!;
    expect(text.match(/ERROR: <input>:/g)).toHaveLength(100);
    expect(text.endsWith('\n51 more errors were truncated')).toBe(true);
  });

  it('reports a syntax error cel-js cannot see behind masked optional syntax', () => {
    expect(error('object.x{?.')).toMatch(/^compilation failed: ERROR: <input>:1:11: Syntax error: mismatched input '.' expecting \{IDENTIFIER, ESC_IDENTIFIER\}/);
  });

  it('gives every issue of a type-checked expression in one text, as the API server does', () => {
    expect(error("params.x == 1 && 'a'.startWith('b')")).toBe(
      [
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')",
        " | params.x == 1 && 'a'.startWith('b')",
        ' | ^',
        "ERROR: <input>:1:31: undeclared reference to 'startWith' (in container '')",
        " | params.x == 1 && 'a'.startWith('b')",
        ' | ..............................^',
      ].join('\n'),
    );
  });

  it('accepts what the untyped check rejected where the checker is sure (two-variable macros)', () => {
    const expression = "{'a': 1}.exists_one(k, v, v == 1)";
    expect(celCompileError(expression, { variables: new Set(['object']), result: 'bool' })).toBeDefined();
    expect(error(expression)).toBeUndefined();
  });
});

describe('what it leaves unsaid', () => {
  it.each([
    ['a null against a non-nullable type', "(object.a == 1 ? 'x' : null) == 'x'", 'validating.validation'],
    ['a null in a list literal', '[1, null].size() == 2', 'validating.validation'],
    ['a null in an audit annotation ternary', "object.spec.replicas > 5 ? 'many' : null", 'validating.auditAnnotation'],
    ['a function whose release is not pinned (library.Image)', "isImage(object.spec.image)", 'validating.validation'],
    ['a Quantity function not pinned to a release', "quantity('1').mul(2).isInteger()", 'validating.validation'],
  ] as const)('%s', (_name, expression, kind) => {
    expect(error(expression, at(35, kind))).toBeUndefined();
  });

  it('reads of a variable of unknown type', () => {
    const composed = new Map<string, CelType | undefined>([['v', undefined]]);
    expect(error('variables.v', at(35, 'validating.validation', { composed }))).toBeUndefined();
    // Of known type, the same is reported.
    expect(error('variables.v', at(35, 'validating.validation', { composed: new Map([['v', T.dyn]]) }))).toBe('must evaluate to bool but got dyn');
  });

  it('says only what the untyped check says before 1.28', () => {
    expect(error("'a'.startWith('b')", at(27))).toBeUndefined();
    expect(error('params.x == 1', at(27))).toContain("undeclared reference to 'params'");
  });
});

describe('versions', () => {
  it.each(VERSIONED.filter((row) => row.minor >= 29).map((row) => [`1.${row.minor}: ${row.expression}`, row] as const))('%s', (_name, row) => {
    expect(error(row.expression, at(row.minor, row.kind))).toBeUndefined();
    expect(error(row.expression, at(row.minor - 1, row.kind))).toBeDefined();
  });

  it('reports optional syntax to a 1.28 server (it compiles new expressions as 1.27)', () => {
    expect(error('object.?spec.hasValue()', at(28))).toBe("compilation failed: ERROR: <input>:1:7: unsupported syntax '.?'\n | object.?spec.hasValue()\n | ......^");
  });

  it('accepts every expression of the table that 1.35 accepts', () => {
    const rejected = ACCEPTED.filter((row) => !row.variables && (row.minor ?? 35) === 35).filter((row) => error(row.expression, at(35, row.kind, { params: row.params === true, ...(row.kind.startsWith('mutating.') && !row.kind.endsWith('matchCondition') ? { composed: new Map() } : {}) })) !== undefined);
    expect(rejected.map((row) => row.expression)).toEqual([]);
  });
});

describe('types for variable composition', () => {
  it.each([
    ['size(object.spec.containers)', 'int'],
    ["object.metadata.name + '-x'", 'string'],
    ['object.spec', 'dyn'],
    ["quantity('1Gi')", 'dyn'],
    ['[1, 2]', 'list(int)'],
  ])('%s is declared as %s', (expression, type) => {
    const { type: declared } = admissionCompile(expression, at(35, 'validating.variable', { composed: new Map() }));
    expect(declared && typeString(declared)).toBe(type);
  });

  it('is dyn for a variable that fails to compile, and unknown where the checker is not sure', () => {
    expect(admissionCompile("'a'.startWith('b')", at(35, 'validating.variable', { composed: new Map() })).type).toEqual(T.dyn);
    expect(admissionCompile("object.a == 1 ? 'x' : null", at(35, 'validating.variable', { composed: new Map() })).type).toBeUndefined();
  });
});
