/**
 * Documents of kinds the linter does not read are recognised from their text and not parsed
 * (src/parse/prefilter.ts). That must never change what is read: the document count, indexes,
 * positions and values of every object are those of a full parse.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { countDocuments, documentLines, namespacesIn, prefilter, skimBytes, workloadDocuments } from '../src/parse/prefilter.js';
import { parseFile, type ParsedFile } from '../src/parse/yaml.js';
import { lintText } from './helpers.js';
import { seedTexts } from './fuzz/generators.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'real-world');
const SEED = 20261202;
/** `PREFILTER_RUNS=<n>` runs the generated mixed-file comparison longer (default 300 in npm test). */
const MIXED_RUNS = Number(process.env.PREFILTER_RUNS ?? 300);

function yamlDocuments(text: string): { count: number; clean: boolean } {
  const documents = parseAllDocuments(text, { version: '1.1' });
  const list = Array.isArray(documents) ? documents : [];
  return { count: list.length, clean: list.every((doc) => doc.errors.length === 0) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.(ya?ml|json)$/.test(name) ? [full] : [];
  });
}

/** What the rules see of a parsed file: every object, its place, its value, and the problems. */
function observed(file: ParsedFile, parsedDocuments?: ReadonlySet<number>) {
  return {
    documentCount: file.documentCount,
    manifests: file.manifests.map((manifest) => ({
      documentIndex: manifest.documentIndex,
      basePath: manifest.basePath,
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
      at: manifest.locate([]),
      metadata: manifest.locate(['metadata', 'name'], 'value'),
      value: manifest.toValue(),
    })),
    problems: file.problems.filter((problem) => parsedDocuments === undefined || parsedDocuments.has(problem.documentIndex)),
  };
}

/** Parses with and without the prefilter: what the rules see must be the same. */
function expectSameAsFullParse(text: string): void {
  const source = { path: 'x.yaml', text };
  const full = observed(parseFile(source, { prefilter: false }));
  const filtered = observed(parseFile(source));
  const result = prefilter(text);
  const blanked = new Set(result.mode === 'masked' ? result.blanked : []);
  // An unclosed quote in a skipped document can run past `---` in a full parse; the prefilter, like
  // kubectl's document splitter, ends documents at `---` lines. Only then may the two differ.
  if (full.problems.some((p) => p.code === 'MISSING_CHAR')) return;
  expect(filtered.documentCount).toBe(full.documentCount);
  if (result.mode === 'none') {
    expect(filtered.manifests).toEqual([]);
    expect(full.manifests.filter((m) => READ.test(m.kind ?? ''))).toEqual([]);
    expect(filtered.problems).toEqual([]);
    return;
  }
  // Blanked documents are of other kinds: no manifest of a kind we read is lost, none moves.
  expect(filtered.manifests).toEqual(full.manifests.filter((m) => !blanked.has(m.documentIndex)));
  expect(full.manifests.filter((m) => blanked.has(m.documentIndex) && READ.test(m.kind ?? ''))).toEqual([]);
  // Syntax errors are reported in every document that was parsed (not in blanked ones).
  expect(filtered.problems).toEqual(full.problems.filter((p) => !blanked.has(p.documentIndex)));
}
const READ = /WebhookConfiguration|AdmissionPolicy|^Namespace$|CustomResourceDefinition|List/;

const OTHER_DOCUMENTS = [
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx\n          args: ["--port=8080"]\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scripts\ndata:\n  run.sh: |\n    #!/bin/sh\n    # a comment line inside a block scalar\n    echo "---"\n',
  '# a comment before the object\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n',
  'apiVersion: v1\r\nkind: Secret\r\nmetadata:\r\n  name: crlf\r\n',
  '  apiVersion: v1\n  kind: ServiceAccount\n  metadata:\n    name: indented\n',
  '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json"}}\n',
  'just a scalar\n',
  '- a\n- list\n',
  'apiVersion: v1\nkind: Service\nmetadata: {name: [broken\n',
  'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "unclosed\n',
];

describe('documentLines counts documents the way yaml does', () => {
  const cases = ['', '\n', '# c\n', 'a: 1\n', 'a: 1\n---\n', '---\n', '---\n---\n', 'a: 1\n...\n', 'a: 1\n...\n# c\n', 'a: 1\n...\n---\n', '# c\n---\na: 1\n', '---\n# c\n---\na: 1\n', '--- \na: 1', '---a: 1\n', 'a: 1\n---\n# only comment\n', '  \n---\n  \n', '...\n', 'a: 1\n...\n...\n', 'a: 1\n---\n...\n', '---\n...\n---\n...\n', 'a\n---\n\n\n', '\ufeffa: 1\n', 'a: 1\r\n---\r\nb: 2\r\n', '--- # comment\na: 1\n', 'a: |\n  x\n---\nb: 1\n'];
  it.each(cases)('%j', (text) => {
    expect(documentLines(text)?.length).toBe(yamlDocuments(text).count);
  });

  it('on every fixture and real-world file', () => {
    const texts = [...seedTexts(), ...(existsSync(CORPUS) ? filesUnder(CORPUS).map((f) => readFileSync(f, 'utf8')) : [])];
    expect(texts.length).toBeGreaterThan(50);
    for (const text of texts) {
      const yaml = yamlDocuments(text);
      if (!yaml.clean) continue;
      expect(documentLines(text)?.length, text.slice(0, 200)).toBe(yaml.count);
    }
  });

  it('on generated streams (markers, comments, block scalars, CRLF)', () => {
    const line = fc.constantFrom('---', '--- ', '...', '# comment', '', '  ', 'a: 1', 'b:', '  - x', '  c: 2', 'k: |', '  text', '  # not a comment', '\t', 'x', '---\r', 'd: 4\r', '%YAML 1.1', '... # end', '--- |', '  - ---');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join('\n') + (trailing ? '\n' : '');
        // The shortcut over bytes counts what the line scan counts, on any stream.
        const scanned = documentLines(text);
        const counted = countDocuments(Buffer.from(text));
        expect(counted).toEqual(scanned === undefined ? undefined : { documents: scanned.length, skipped: scanned.filter((d) => d.firstContent >= 0).length });
        const yaml = yamlDocuments(text);
        fc.pre(yaml.clean);
        if (scanned !== undefined) expect(scanned.length).toBe(yaml.count);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe('prefilter', () => {
  it('parses nothing of a file of other kinds, and counts its documents', () => {
    const text = OTHER_DOCUMENTS.slice(0, 5).join('---\n');
    expect(prefilter(text)).toEqual({ mode: 'none', documents: 5, skipped: 5 });
  });

  it('parses a file whole when every document may be read, or when it has suppression comments or directives', () => {
    expect(prefilter('kind: Namespace\n---\nkind: ValidatingWebhookConfiguration\n').mode).toBe('all');
    expect(prefilter('# admission-lint-disable-file\nkind: Deployment\n').mode).toBe('all');
    expect(prefilter('%YAML 1.1\n---\nkind: Deployment\n---\nkind: Namespace\n').mode).toBe('all');
  });

  it('blanks the other documents at the same offsets', () => {
    const text = `${OTHER_DOCUMENTS[0]}---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n`;
    const result = prefilter(text);
    if (result.mode !== 'masked') throw new Error(`mode ${result.mode}`);
    expect(result.text.length).toBe(text.length);
    expect(result.text.split('\n').length).toBe(text.split('\n').length);
    expect(result.text.startsWith('~ ')).toBe(true);
    expect(result.text.slice(text.indexOf('---\napiVersion: v1\nkind: Namespace'))).toBe(text.slice(text.indexOf('---\napiVersion: v1\nkind: Namespace')));
  });

  it('reads the same objects as a full parse, at the same places (generated mixed files)', () => {
    const read = seedTexts();
    const piece = fc.oneof(fc.constantFrom(...read), fc.constantFrom(...OTHER_DOCUMENTS));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.constantFrom('---\n', '---\n# between\n', '...\n---\n'), (pieces, separator) => {
        expectSameAsFullParse(pieces.map((p) => (p.endsWith('\n') ? p : `${p}\n`)).join(separator));
      }),
      { seed: SEED, numRuns: MIXED_RUNS },
    );
  }, MIXED_RUNS > 300 ? 24 * 3600_000 : undefined);

  it('reads the same objects as a full parse on every real-world file', () => {
    if (!existsSync(CORPUS)) return;
    for (const file of filesUnder(CORPUS)) expectSameAsFullParse(readFileSync(file, 'utf8'));
  });

  it('still reads a kind spelled with escapes', async () => {
    const findings = await lintText('apiVersion: admissionregistration.k8s.io/v1\nkind: "ValidatingWebhookConfi\\x67uration"\nmetadata: {name: x}\nwebhooks:\n  - name: a.example.com\n    clientConfig: {url: "https://a.example.com"}\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]\n');
    expect(findings.map((f) => f.ruleId)).toContain('implicit-failure-policy');
  });

  it('reports syntax errors in documents that may be read, not in documents of other kinds', async () => {
    const brokenDeployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: [web\n';
    expect(await lintText(brokenDeployment)).toEqual([]);
    const brokenNamespace = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: [web\n';
    const findings = await lintText(`${brokenDeployment}---\n${brokenNamespace}`);
    expect(findings.length).toBeGreaterThan(0);
    // All of them in the Namespace's document (lines 5 to 8), none in the Deployment's.
    for (const finding of findings) expect([finding.ruleId, finding.documentIndex, finding.line >= 5]).toEqual(['yaml-syntax', 1, true]);
  });

  it('decides on the bytes as it does on the text (skimBytes), and leaves non-UTF-8 to the decoder', () => {
    const piece = fc.oneof(fc.constantFrom(...OTHER_DOCUMENTS), fc.constantFrom(...seedTexts().slice(0, 20)), fc.constantFrom('h\u00e9 \u2603: caf\u00e9\n', '# \\x41\n', 'a: "\\u0041"\n'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 5 }), fc.boolean(), (pieces, bom) => {
        const text = pieces.join('---\n');
        const bytes = new TextEncoder().encode(bom ? `\ufeff${text}` : text);
        const skimmed = skimBytes(bytes);
        const filtered = prefilter(text);
        if (filtered.mode === 'none') expect(skimmed).toEqual({ documents: filtered.documents, skipped: filtered.skipped });
        else expect(skimmed).toBeUndefined();
      }),
      { seed: SEED, numRuns: 500 },
    );
    expect(skimBytes(new Uint8Array([0x61, 0x3a, 0x20, 0xc3, 0x28]))).toBeUndefined();
  });
});

describe('naming a checked namespace', () => {
  it('never misses a workload whose namespace, as yaml reads it, is one of the names', () => {
    const name = fc.constantFrom('team', 'team-a', 'tea', 'ops', 'prod', 'x-team-a');
    const namespaceLine = fc.oneof(
      name.map((n) => `  namespace: ${n}`),
      name.map((n) => `  namespace: "${n}"`),
      name.map((n) => `  namespace: '${n}' # where`),
      name.map((n) => `  "namespace": ${n}`),
      name.map((n) => `  namespace:\n    ${n}`),
      name.map((n) => `  namespace: &ns ${n}`),
      name.map((n) => `  namespace: !!str ${n}`),
      name.map((n) => `  namespace: >-\n    ${n}`),
      fc.constant(''),
    );
    const other = fc.oneof(name.map((n) => `subjects:\n- kind: ServiceAccount\n  namespace: ${n}`), fc.constant('data: {}'), name.map((n) => `spec: {template: {metadata: {namespace: ${n}}}}`));
    fc.assert(
      fc.property(fc.array(fc.tuple(namespaceLine, other), { minLength: 1, maxLength: 3 }), fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), (documents, names) => {
        const text = documents.map(([line, rest]) => `kind: Deployment\nmetadata:\n  name: d\n${line}\n${rest}\n`).join('---\n');
        const inNames = parseAllDocuments(text).some((document) => (names as string[]).includes((document.toJS() as { metadata?: { namespace?: string } } | null)?.metadata?.namespace ?? ''));
        if (inNames) expect(namespacesIn(new TextEncoder().encode(text), names), text).toBe(true);
      }),
      { seed: 29, numRuns: 2000 },
    );
  });

  it('answers as searching for every name does (namespace keys and name prefixes only go faster)', () => {
    const name = fc.constantFrom('team', 'team-a', 'team-a-prod', 'tea', 'a', 'ops-prod', 'ops', 'prod', 'x-team-a', 'kube-system');
    const line = fc.oneof(
      name.map((n) => `  namespace: ${n}`),
      name.map((n) => `  namespace: "${n}"`),
      name.map((n) => `metadata: {name: x, namespace: ${n}}`),
      name.map((n) => `    value: ${n}-suffix`),
      name.map((n) => `  name: pre${n}`),
      fc.constantFrom('kind: Deployment', 'kind: Pod', 'kind: ConfigMap', '  fieldPath: metadata.namespace', '  namespace:', '  namespaceSelector: {}'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.uniqueArray(name, { minLength: 1, maxLength: 6 }), (lines, names) => {
        const text = `${lines.join('\n')}\n`;
        const reference = names.some((n) => text.includes(n));
        // Never a name the text does not hold; every name a namespace key holds.
        const inNamespaceKey = names.some((n) => new RegExp(`namespace: "?${n}"?[}\n]`).test(text));
        const answer = namespacesIn(new TextEncoder().encode(text), names);
        if (!reference || inNamespaceKey) expect(answer, text).toBe(reference);
        const kind = /Deployment|Pod/.test(text);
        expect(workloadDocuments(names)(text), text).toBe(kind && reference);
      }),
      { seed: 23, numRuns: 3000 },
    );
  });
});
