import { describe, expect, it } from 'vitest';
import { checkExpression, EXPRESSION_KINDS, type CheckResult } from '../src/cel/check/index.js';
import { parseType } from '../src/cel/environment/types.js';
import { ACCEPTED, REJECTED, TIGHTENED, VERSIONED, type Row } from './cel-typecheck-cases/table.js';

const run = (row: Pick<Row, 'expression' | 'kind' | 'params' | 'variables'>, minor: number): CheckResult =>
  checkExpression(row.expression, row.kind, { major: 1, minor }, {
    params: row.params ?? false,
    ...(row.variables ? { variables: Object.fromEntries(Object.entries(row.variables).map(([name, type]) => [name, parseType(type)])) } : {}),
  });

const messages = (result: CheckResult): readonly string[] => (result.ok ? [] : result.errors.map((e) => e.message));

describe('CEL expressions the API server accepts (1.35 unless stated)', () => {
  it.each(ACCEPTED.map((row) => [`${row.kind}: ${row.expression} (${row.source})`, row] as const))('%s', (_name, row) => {
    const result = run(row, row.minor ?? 35);
    expect(messages(result)).toEqual([]);
    if (row.type !== undefined && result.ok) expect(result.typeName).toBe(row.type);
  });
});

describe('CEL expressions the API server rejects, with its messages', () => {
  it.each(REJECTED.map((row) => [`${row.kind}: ${row.expression} (${row.source})`, row] as const))('%s', (_name, row) => {
    expect(messages(run(row, row.minor ?? 35))).toEqual(row.errors);
  });
});

describe('versions: what a server accepts is what base.go introduced up to its previous minor', () => {
  it.each(VERSIONED.map((row) => [`1.${row.minor}: ${row.expression} (${row.source})`, row] as const))('%s', (_name, row) => {
    expect(messages(run(row, row.minor))).toEqual([]);
    expect(messages(run(row, row.minor - 1))).toEqual(row.rejectedWith);
  });

  it.each(TIGHTENED.map((row) => [`1.${row.minor}: ${row.expression} (${row.source})`, row] as const))('validators from 1.%s', (_name, row) => {
    expect(messages(run(row, row.minor - 1))).toEqual([]);
    expect(messages(run(row, row.minor))).toEqual(row.rejectedWith);
  });

  it('a stored expression compiles in the environment of the server itself, a new one in that of the previous minor', () => {
    const sort = '[3, 1, 2].sort() == [1, 2, 3]';
    expect(checkExpression(sort, 'validating.validation', { major: 1, minor: 34 }).ok).toBe(false);
    expect(checkExpression(sort, 'validating.validation', { major: 1, minor: 34 }, { expressions: 'stored' }).ok).toBe(true);
  });
});

describe('expression kinds', () => {
  it('every kind declares the admission variables, and params only when the policy has a paramKind', () => {
    for (const kind of EXPRESSION_KINDS) {
      const withoutParams = checkExpression("request.operation == 'CREATE' && object != null && oldObject == null && namespaceObject.metadata.name != ''", kind, { major: 1, minor: 35 });
      if (kind.startsWith('mutating.') && kind !== 'mutating.matchCondition' && kind !== 'mutating.variable') {
        expect(messages(withoutParams)[0]).toMatch(/^must evaluate to (Object|list\(JSONPatch\)) but got bool$/);
      } else if (kind === 'validating.messageExpression' || kind === 'validating.auditAnnotation') {
        expect(messages(withoutParams)[0]).toMatch(/^must evaluate to .*string.* but got bool$/);
      } else {
        expect(messages(withoutParams)).toEqual([]);
      }
      expect(messages(checkExpression('params != null', kind, { major: 1, minor: 35 }))[0]).toContain("undeclared reference to 'params'");
    }
  });

  it('variables is undeclared in match conditions (compiled without composition) and typed elsewhere', () => {
    expect(messages(checkExpression("variables.a == 'x'", 'validating.matchCondition', { major: 1, minor: 35 }))).toEqual([
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')",
    ]);
    expect(messages(checkExpression("variables.a == 'x'", 'validating.validation', { major: 1, minor: 35 }, { variables: {} }))).toEqual([
      "compilation failed: ERROR: <input>:1:10: undefined field 'a'",
    ]);
  });

  it('gives the whole API server text with source lines and carets, issues in source order', () => {
    const result = checkExpression("a.b +\n  'x'.startWith('y')", 'webhook.matchCondition', { major: 1, minor: 35 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.apiServerText).toBe(
        [
          "compilation failed: ERROR: <input>:1:1: undeclared reference to 'a' (in container '')",
          ' | a.b +',
          ' | ^',
          "ERROR: <input>:2:16: undeclared reference to 'startWith' (in container '')",
          " |   'x'.startWith('y')",
          ' | ...............^',
        ].join('\n'),
      );
      expect(result.errors.map((e) => e.offset)).toEqual([0, 21]);
    }
  });
});
