/**
 * Objects that kubectl applies must never be skipped: the spellings and line breaks that used to
 * hide a complete webhook configuration (issue 12, item 1), checked without kubectl. The
 * differential test (test/kubectl-differential.test.ts) compares many more against kubectl.
 */
import { describe, expect, it } from 'vitest';
import { normalizeBreaks } from '../src/load/sources.js';
import { parseFile } from '../src/parse/yaml.js';
import { skimBytes } from '../src/parse/prefilter.js';
import { lintText } from './helpers.js';

const BODY = `metadata: {name: gate}
webhooks:
  - name: a.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://a.example.com"}
    rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]
`;
const webhookConfiguration = (head: string): string => `${head}${BODY}`;

async function objectsLinted(text: string): Promise<string[]> {
  return [...new Set((await lintText(text)).filter((f) => f.object !== null).map((f) => `${f.object!.kind}/${f.object!.name}`))];
}

describe('reading what kubectl reads', () => {
  it.each([
    ['kind through an alias', 'apiVersion: admissionregistration.k8s.io/v1\nx: &k ValidatingWebhookConfiguration\nkind: *k\n'],
    ['apiVersion and kind through a merge key', '<<: {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration}\n'],
    ['kind as !!binary', `apiVersion: admissionregistration.k8s.io/v1\nkind: !!binary ${Buffer.from('ValidatingWebhookConfiguration').toString('base64')}\n`],
    ['a BOM after a --- line', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n\ufeffapiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
    ['a comment ended by a lone CR', '# note\rapiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
    ['a comment ended by NEL (U+0085)', '# note\u0085apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n'],
  ])('lints a webhook configuration written with %s', async (_what, head) => {
    expect(await objectsLinted(webhookConfiguration(head))).toEqual(['ValidatingWebhookConfiguration/gate']);
  });

  it('never skips a file on its bytes when it holds a !!binary scalar', () => {
    expect(skimBytes(new TextEncoder().encode('a: !!binary VmFsaWRhdGluZ1dlYmhvb2tDb25maWd1cmF0aW9u\n'))).toBeUndefined();
  });

  it('breaks lines where YAML 1.1 does, keeping offsets; drops BOMs only at document starts', () => {
    expect(normalizeBreaks('a\rb\r\nc\u0085d\u2028e\u2029f')).toBe('a\nb\r\nc\nd\ne\nf');
    expect(normalizeBreaks('\ufeffa: 1\n---\n\ufeffb: 2\nc: "\ufeff"\n')).toBe('a: 1\n---\nb: 2\nc: "\ufeff"\n');
  });

  it('warns where a line or paragraph separator ends a line of a document it reads, once per document', async () => {
    const ns = (name: string, labels: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels: ${labels}\n`;
    const warnings = async (text: string): Promise<string[]> =>
      (await lintText(text, { only: ['yaml-syntax'] })).map((f) => `${f.line}:${f.column} ${f.message.split(':')[0]}`);
    // In a label value (kubectl: "x\u2028y"; read here as "x y"), twice in one document: one warning.
    expect(await warnings(ns('a', '{a: "x\u2028y", b: "p\u2029q"}'))).toEqual(['5:17 a line or paragraph separator (U+2028, U+2029) and 1 more']);
    // In a document of a kind the linter does not read: nothing.
    expect(await warnings(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: "x\u2028y"}\n---\n${ns('b', '{}')}`)).toEqual([]);
    // Placed after byte-order marks dropped at the start of the stream and of a document.
    expect(await warnings(`\ufeff${ns('a', '{}')}---\n\ufeff${ns('b', '{a: "x\u2029y"}')}`)).toEqual(['11:17 a line or paragraph separator (U+2028, U+2029)']);
  });

  it('places findings on their lines in a file with lone-CR line breaks', async () => {
    const text = webhookConfiguration('apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n').replace(/\n/g, '\r');
    const findings = await lintText(text, { only: ['implicit-failure-policy'] });
    expect(findings.map((f) => f.line)).toEqual([5]);
  });
  /** What the parser reads from a file: problems (line, code) and each object's value. */
  function read(text: string): { problems: string[]; values: unknown[] } {
    const parsed = parseFile({ path: 'f.yaml', text: normalizeBreaks(text) }, { prefilter: false });
    return {
      problems: parsed.problems.map((problem) => `${problem.span.line}:${problem.span.column} ${problem.code}`),
      values: parsed.manifests.map((manifest) => {
        const value = manifest.toValue();
        return 'value' in value ? value.value : value.problem.code;
      }),
    };
  }
  const POLICY = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: p\nspec:\n  validations:\n';
  const expressions = (text: string): unknown => (read(text).values[0] as { spec: { validations: { expression: unknown }[] } }).spec.validations.map((v) => v.expression);

  // Values as `kubectl annotate --local -f FILE x=y -o json` prints them (kubectl 1.32, go-yaml v2).
  it.each([
    ['double quotes, continued at the key column', `    - expression: "object.a == 1 &&\n      object.b == 2"\n`, ['object.a == 1 && object.b == 2']],
    ['double quotes, continued at column 1', `    - expression: "object.a == 1 &&\nobject.b == 2"\n`, ['object.a == 1 && object.b == 2']],
    ['double quotes, one column short', `    - expression: "a &&\n     b"\n`, ['a && b']],
    ['double quotes with blank lines', `    - expression: "a\n\n      b\n\n\nc"\n`, ['a\nb\n\nc']],
    ['double quotes with an escaped line break', `    - expression: "object.a \\\n      == 1"\n`, ['object.a == 1']],
    ['double quotes with escapes', `    - expression: "a\\tb \\"q\\" \\u0041\n\\x41 \\\\"\n`, ['a\tb "q" A A \\']],
    ['double quotes with trailing spaces and tabs', `    - expression: "a   \n   b\t\n\tc"\n`, ['a b c']],
    ['single quotes, continued at the key column', `    - expression: 'object.a == "x" &&\n      object.b == ''y'''\n`, [`object.a == "x" && object.b == 'y'`]],
    ['single quotes, continued at column 1', `    - expression: 'a\nb\n\nc'\n`, ['a b\nc']],
    ['two scalars in a row', `    - expression: "a\n  b"\n      message: 'm\n n'\n    - expression: "c\nd"\n`, ['a b', 'c d']],
    ['a flow sequence continued at column 1', `    - expression: x\n      x-list: [a,\nb]\n    - expression: "c\nd"\n`, ['x', 'c d']],
  ])('reads a multi-line quoted scalar kubectl reads: %s', (_what, body, expected) => {
    const text = `${POLICY}${body}`;
    expect(read(text).problems).toEqual([]);
    expect(expressions(text)).toEqual(expected);
  });

  it('places fields after a repaired scalar where they are written', () => {
    const text = `${POLICY}    - expression: "a\nb"\n      message: m\n`;
    const parsed = parseFile({ path: 'f.yaml', text }, { prefilter: false });
    const manifest = parsed.manifests[0]!;
    expect(manifest.locate(['spec', 'validations', 0, 'expression'], 'value')).toMatchObject({ line: 7, column: 19, endLine: 8, endColumn: 3, exact: true });
    expect(manifest.locate(['spec', 'validations', 0, 'message'], 'value')).toMatchObject({ line: 9, column: 16, exact: true });
  });

  it.each([
    ['a document marker line inside the quotes', `    - expression: "a\n---\n  b"\n`],
    ['a quote that never closes', `    - expression: "a\n  b\n`],
    ['a multi-line quoted mapping key', `    - "expr\n  ession": a\n`],
    ['a plain scalar continued at the key column', `    - expression: a &&\n      b\n`],
  ])('still reports what kubectl cannot read either: %s', (_what, body) => {
    expect(read(`${POLICY}${body}`).problems.filter((problem) => !problem.endsWith('DUPLICATE_KEY')).length).toBeGreaterThan(0);
  });

  it.each([
    ['a label', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  labels:\n    x: "1"\n    x: "2"\n', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', labels: { x: '2' } } }],
    ['metadata', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\nmetadata:\n  name: b\n', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } }],
    ['kind', 'apiVersion: v1\nkind: ConfigMap\nkind: Namespace\nmetadata: {name: a}\n', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }],
  ])('reports a key written twice and reads the last value, as kubectl does: %s', (_what, text, expected) => {
    const result = read(text);
    expect(result.problems.map((problem) => problem.split(' ')[1])).toEqual(['DUPLICATE_KEY']);
    expect(result.values).toEqual([expected]);
    const parsed = parseFile({ path: 'f.yaml', text }, { prefilter: false });
    expect(parsed.manifests[0]!.kind).toBe('Namespace');
  });

  it('places a key written twice at its last occurrence', () => {
    const parsed = parseFile({ path: 'f.yaml', text: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n' }, { prefilter: false });
    parsed.manifests[0]!.toValue();
    expect(parsed.manifests[0]!.locate(['metadata', 'name'], 'value')).toMatchObject({ line: 5, column: 9 });
  });

  it.each([
    ['a ConfigMap', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'],
    ['a Namespace', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n'],
    ['a webhook configuration', 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: w}\n'],
    ['no kind at all', 'metadata: {name: x}\n'],
  ])('reads the items of any object with an items list, as kubectl applies them: %s', (_what, head) => {
    const item = 'apiVersion: v1\n  kind: Namespace\n  metadata: {name: inner}';
    const parsed = parseFile({ path: 'f.yaml', text: `${head}items:\n- ${item}\n- {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy, metadata: {name: p}}\n` }, { prefilter: false });
    expect(parsed.manifests.map((manifest) => `${manifest.kind}/${manifest.basePath.join('.')}`)).toEqual(['Namespace/items.0', 'ValidatingAdmissionPolicy/items.1']);
  });

  it('lints a webhook configuration inside an object of another kind that has items', async () => {
    const inner = webhookConfiguration('apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n').replace(/\n(?=.)/g, '\n    ');
    expect(await objectsLinted(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nitems:\n  - ${inner}`)).toEqual(['ValidatingWebhookConfiguration/gate']);
  });
});

describe('where kubectl stops reading a file', () => {
  const NS = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n';
  it.each([
    ['a %YAML directive', `%YAML 1.1\n---\n${NS}`, 1],
    ['a %TAG directive', `%TAG !e! tag:example.com,2000:\n---\n${NS}`, 1],
    ['content on a --- line', `${NS}--- {apiVersion: v1, kind: Namespace, metadata: {name: b}}\n`, 4],
    ['a ---- line', `${NS}----\n${NS}`, 4],
  ])('reports %s (kubectl applies nothing after it)', (_what, text, line) => {
    const parsed = parseFile({ path: 'f.yaml', text }, { prefilter: false });
    expect(parsed.problems.map((problem) => `${problem.span.line} ${problem.code}`)).toContain(`${line} KUBECTL_SPLIT`);
  });

  it.each([
    ['--- with a comment', `${NS}--- # next\n${NS}`],
    ['--- with trailing blanks', `${NS}--- \t\n${NS}`],
    ['a % inside a value', `${NS.replace('{name: a}', '{name: a, labels: {x: "%y"}}')}`],
  ])('does not report %s', (_what, text) => {
    expect(parseFile({ path: 'f.yaml', text }, { prefilter: false }).problems).toEqual([]);
  });
});

describe('the repair of what kubectl reads stays bounded', () => {
  it('repairs many documents of a file, each on its own, and gives up on a hostile one whole', () => {
    const head = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: p\nspec:\n  validations:\n';
    const document = (n: number): string => head + Array.from({ length: n }, (_, i) => `    - expression: "a${i} &&\nb"\n`).join('');
    const many = parseFile({ path: 'f.yaml', text: Array.from({ length: 200 }, () => document(5)).join('---\n') }, { prefilter: false });
    expect(many.problems).toEqual([]);
    expect(many.manifests.length).toBe(200);
    const started = Date.now();
    const hostile = parseFile({ path: 'f.yaml', text: document(5000) }, { prefilter: false });
    expect(hostile.problems.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('repairs a generated CRD of 150 KB with two dozen such descriptions (hold-out 15)', () => {
    const property = (i: number): string =>
      `        p${i}:\n          description: 'the subpath within contextDir\n          where kustomize builds start: \`base\`,\n          \`odh\` etc.'\n          type: string\n${'          x-pad: ' + 'y'.repeat(6000) + '\n'}`;
    const text = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.example.com\nspec:\n  x:\n    properties:\n${Array.from({ length: 24 }, (_, i) => property(i)).join('')}`;
    expect(text.length).toBeGreaterThan(140_000);
    expect(parseFile({ path: 'f.yaml', text }, { prefilter: false }).problems).toEqual([]);
  });
});

describe('a suppressed duplicate key does not hide the object kubectl applies', () => {
  it('lints the object with the last value of the key, whatever yaml-syntax says', async () => {
    const text = [
      '# admission-lint-disable-file yaml-syntax -- reviewed',
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: ValidatingWebhookConfiguration',
      'metadata: {name: gate}',
      'webhooks:',
      '  - name: a.example.com',
      '    failurePolicy: Fail',
      '    timeoutSeconds: 5',
      '    timeoutSeconds: 45',
      '    admissionReviewVersions: [v1]',
      '    sideEffects: None',
      '    clientConfig: {url: "https://a.example.com"}',
      '    rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]',
      '',
    ].join('\n');
    const findings = await lintText(text, { only: ['yaml-syntax', 'timeout-out-of-range'] });
    expect(findings.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['9 timeout-out-of-range']);
  });
});
