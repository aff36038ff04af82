/**
 * src/match/foreign-label-gates.ts: a conjunction that tests a label the system never sets, with
 * every guard that makes it false (not an error) for an object without it, becomes `false`; any
 * other form is left as written. Each rewritten expression is also evaluated, in a real CEL
 * environment, on objects of every shape the system's may have: where the original gives a value
 * the rewrite gives the same, so the rewrite never turns an error or true into false.
 */
import { describe, expect, it } from 'vitest';
import { withForeignLabelGates } from '../src/match/foreign-label-gates.js';
import { evaluateValue } from '../src/cel/evaluate.js';
import { Meter } from '../src/cel/budget.js';
import { loadCelSync } from '../src/cel/library.js';

const BOTH = new Set(['object', 'oldObject']);
const OBJECT_ONLY = new Set(['object']);

const rewritten: readonly (readonly [string, ReadonlySet<string>, string])[] = [
  [`has(object.metadata.labels) && 'example.com/team' in object.metadata.labels`, OBJECT_ONLY, 'false'],
  [`object != null && has(object.metadata.labels) && ("component" in object.metadata.labels) && object.metadata.labels["component"] == "widgets"`, new Set(), 'false'],
  [`!(has(object.metadata.labels) && 'tier' in object.metadata.labels && 'widgets' == object.metadata.labels['tier']) || x`, OBJECT_ONLY, '!(false) || x'],
  [`a || has(oldObject.metadata.labels) && 'example.com/t' in oldObject.metadata.labels && b`, BOTH, 'a || false'],
  [`request.operation == "DELETE" ? (oldObject != null && has(oldObject.metadata.labels) && 'example.com/t' in oldObject.metadata.labels) : y`, new Set(), 'request.operation == "DELETE" ? (false) : y'],
];

/** Optional syntax (`.?`, `[?`) is no conditional: the chain goes on (not evaluated below: the test's CEL environment has no optional syntax). */
const optionalSyntax: readonly (readonly [string, ReadonlySet<string>, string])[] = [
  [`{'b': true}.?b.orValue(true) && object != null && has(object.metadata.labels) && 'example.com/t' in object.metadata.labels`, new Set(), 'false'],
  [`m[?'k'].hasValue() && has(oldObject.metadata.labels) && 'example.com/t' in oldObject.metadata.labels`, BOTH, 'false'],
];

/** Rewritten only with `likely`: a label whose values are add-ons' own names (kube-system's Helm add-ons carry managed-by=Helm). */
const likelyOnly: readonly (readonly [string, ReadonlySet<string>, string])[] = [
  [`object != null && has(object.metadata.labels) && ("app.kubernetes.io/managed-by" in object.metadata.labels) && object.metadata.labels["app.kubernetes.io/managed-by"] == "widgets"`, new Set(), 'false'],
  [`!(has(object.metadata.labels) && 'app.kubernetes.io/managed-by' in object.metadata.labels && 'widgets' == object.metadata.labels['app.kubernetes.io/managed-by']) || x`, OBJECT_ONLY, '!(false) || x'],
];

const kept: readonly (readonly [string, ReadonlySet<string>])[] = [
  // A key whose values may be any (k8s-app names add-ons; kubernetes.io/name is copied from Services).
  [`has(object.metadata.labels) && 'k8s-app' in object.metadata.labels && object.metadata.labels['k8s-app'] == 'widgets'`, BOTH],
  [`has(object.metadata.labels) && 'kubernetes.io/name' in object.metadata.labels`, BOTH],
  // The API server's own mark on the kubernetes Endpoints.
  [`has(object.metadata.labels) && 'endpointslice.kubernetes.io/skip-mirror' in object.metadata.labels`, BOTH],
  // No has(): a system object without labels makes both sides errors.
  [`'example.com/team' in object.metadata.labels && object.metadata.labels['example.com/team'] == 'a'`, BOTH],
  // The object may be null (DELETE) and nothing says it is not.
  [`has(object.metadata.labels) && 'example.com/team' in object.metadata.labels`, new Set(['oldObject'])],
  // A key the system sets, with a value it may give (kube-system's pods carry k8s-app).
  [`has(object.metadata.labels) && 'k8s-app' in object.metadata.labels`, BOTH],
  [`has(object.metadata.labels) && 'app.kubernetes.io/managed-by' in object.metadata.labels`, BOTH],
  // The value compared without the key's presence test: reading an absent key errors.
  [`has(object.metadata.labels) && object.metadata.labels['app.kubernetes.io/managed-by'] == 'widgets'`, BOTH],
  // Another comparison than equality.
  [`has(object.metadata.labels) && 'app.kubernetes.io/managed-by' in object.metadata.labels && object.metadata.labels['app.kubernetes.io/managed-by'] != 'widgets'`, BOTH],
  // Annotations are not labels.
  [`has(object.metadata.annotations) && 'example.com/team' in object.metadata.annotations`, BOTH],
  // `object` bound by a macro is not the request's object.
  [`items.all(object, has(object.metadata.labels) && 'example.com/team' in object.metadata.labels)`, BOTH],
  // Parts of a larger operand: `||` binds looser, so the presence test is not a conjunct here.
  [`(has(object.metadata.labels) || z) && 'example.com/team' in object.metadata.labels`, BOTH],
];

describe('foreign label gates', () => {
  it.each(rewritten)('%s', (expression, nonNull, expected) => {
    expect(withForeignLabelGates(expression, nonNull)).toBe(expected);
  });

  it.each(optionalSyntax)('%s', (expression, nonNull, expected) => {
    expect(withForeignLabelGates(expression, nonNull)).toBe(expected);
  });

  it.each(likelyOnly)('likely: %s', (expression, nonNull, expected) => {
    expect(withForeignLabelGates(expression, nonNull)).toBe(expression);
    expect(withForeignLabelGates(expression, nonNull, true)).toBe(expected);
  });

  it.each(kept)('kept: %s', (expression, nonNull) => {
    expect(withForeignLabelGates(expression, nonNull)).toBe(expression);
    expect(withForeignLabelGates(expression, nonNull, true)).toBe(expression);
  });

  it('reads a deeply nested expression in one pass over its groups', () => {
    const deep = `${'(a && '.repeat(20_000)}b${')'.repeat(20_000)}`;
    expect(withForeignLabelGates(`object.metadata.labels == ${deep}`, BOTH)).toBe(`object.metadata.labels == ${deep}`);
  });

  it('gives, where the original gives a value, the same value on every shape of a system object', () => {
    expect(loadCelSync()).toBe(true);
    const labelled = [undefined, {}, { 'k8s-app': 'kube-dns' }, { 'app.kubernetes.io/managed-by': 'Helm' }];
    let decided = 0;
    const objects = [null, ...labelled.map((labels) => ({ metadata: labels === undefined ? { name: 'a' } : { name: 'a', labels } }))];
    for (const [expression, nonNull, likely] of [...rewritten.map(([e, n]) => [e, n, false] as const), ...likelyOnly.map(([e, n]) => [e, n, true] as const)]) {
      const gated = withForeignLabelGates(expression, nonNull, likely).replace(/\bx\b|\by\b|\bz\b|\ba\b|\bb\b/g, 'true');
      const original = expression.replace(/\bx\b|\by\b|\bz\b|\ba\b|\bb\b/g, 'true');
      for (const object of objects) {
        for (const oldObject of objects) {
          if ((object === null && nonNull.has('object')) || (oldObject === null && nonNull.has('oldObject'))) continue;
          for (const operation of ['CREATE', 'UPDATE', 'DELETE']) {
            const context = { object, oldObject, request: { operation }, items: [] };
            const before = evaluateValue(original, context, new Meter());
            const after = evaluateValue(gated, context, new Meter());
            if (before.ok) decided++;
            if (before.ok) expect([expression, object, oldObject, operation, after.ok && after.value]).toEqual([expression, object, oldObject, operation, before.value]);
            // An error of the original (a rejection under Fail) is never made a value by the rewrite.
            else expect([expression, object, oldObject, operation, after.ok]).toEqual([expression, object, oldObject, operation, false]);
          }
        }
      }
    }
    expect(decided).toBeGreaterThan(100);
  });
});
