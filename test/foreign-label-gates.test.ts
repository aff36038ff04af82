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
  // A key prefix no system label has, over every key of the map: a project may label its own
  // kube-system DaemonSet so (s35c 1-A), and nothing in the run says none does (likely).
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, OBJECT_ONLY, 'true'],
  [`a && (object == null || !has(object.metadata.labels) || object.metadata.labels.all(l, x || !(l.startsWith("example.com/"))))`, new Set(), 'a && (true)'],
  [`has(oldObject.metadata.labels) && oldObject.metadata.labels.exists(k, k.startsWith('example.com/') && x) || y`, BOTH, 'false || y'],
  // Annotations of a domain the system's objects carry none of: no list of their keys says so (likely).
  [`has(object.metadata.annotations) && 'example.com/team' in object.metadata.annotations`, BOTH, 'false'],
  [
    `request.operation == 'DELETE' || !has(object.metadata.annotations) || object.metadata.annotations.all(k, !k.startsWith('restore.example.org/path.') || (oldObject != null && has(oldObject.metadata.annotations) && k in oldObject.metadata.annotations && object.metadata.annotations[k] == oldObject.metadata.annotations[k]))`,
    OBJECT_ONLY,
    'true',
  ],
  [`has(object.metadata.annotations) && object.metadata.annotations.exists(k, x && k.startsWith('example.com/'))`, BOTH, 'false'],
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
  // Annotations of the domains the system's objects carry (kubeadm's, the scrape annotations on kube-dns).
  [`has(object.metadata.annotations) && 'kubeadm.kubernetes.io/etcd.advertise-client-urls' in object.metadata.annotations`, BOTH],
  [`!has(object.metadata.annotations) || object.metadata.annotations.all(k, !k.startsWith('prometheus.io/') || x)`, BOTH],
  // The network plugin annotates every pod it wires, kube-system's CoreDNS among them (s43a 4).
  [`has(object.metadata.annotations) && 'cni.projectcalico.org/podIP' in object.metadata.annotations`, BOTH],
  [`!has(object.metadata.annotations) || object.metadata.annotations.all(k, !k.startsWith('k8s.v1.cni.cncf.io/') || x)`, BOTH],
  // A prefix that names no domain (`checksum/config` is Helm charts' own).
  [`!has(object.metadata.annotations) || object.metadata.annotations.all(k, !k.startsWith('checksum/') || x)`, BOTH],
  [`!has(object.metadata.annotations) || object.metadata.annotations.all(k, !k.startsWith('example') || x)`, BOTH],
  // A prefix some system label has (k8s-app).
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('k') || x)`, BOTH],
  // No presence test: a system object without labels makes the read an error.
  [`object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, BOTH],
  [`x || object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, BOTH],
  // The presence test of another object, or of the other map.
  [`!has(oldObject.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, BOTH],
  [`!has(object.metadata.annotations) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, BOTH],
  // The object may be null (DELETE) and nothing says it is not.
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, new Set(['oldObject'])],
  // True for a key with the prefix, not for one without: nothing follows.
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, k.startsWith('example.com/') || x)`, BOTH],
  [`has(object.metadata.labels) && object.metadata.labels.exists(k, !k.startsWith('example.com/') && x)`, BOTH],
  // The test is not what decides each key: under a conditional, another variable, `||` in exists.
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x ? y : z)`, BOTH],
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !j.startsWith('example.com/') || x)`, BOTH],
  [`has(object.metadata.labels) && object.metadata.labels.exists(k, k.startsWith('example.com/') || x)`, BOTH],
  [`!has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('example.com/') || x) && y`, BOTH],
  // A conjunction with the map's presence is not decided: false without labels, true with them.
  [`has(object.metadata.labels) && object.metadata.labels.all(k, !k.startsWith('example.com/') || x)`, BOTH],
  // Another macro (map keys filtered) is not read.
  [`!has(object.metadata.labels) || object.metadata.labels.filter(k, !k.startsWith('example.com/') || x) == []`, BOTH],
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
    const annotated = [undefined, {}, { 'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': '10.0.0.1:6443' }, { 'prometheus.io/scrape': 'true', 'meta.helm.sh/release-name': 'a' }];
    let decided = 0;
    const objects = [
      null,
      ...labelled.flatMap((labels, index) => [annotated[index], annotated[(index + 1) % annotated.length]].map((annotations) => ({ metadata: { name: 'a', ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) } }))),
    ];
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
