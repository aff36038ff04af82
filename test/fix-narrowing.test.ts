/**
 * What keeps the fixes cheap in SARIF and rdjson (which plan them for every file with findings):
 * only the documents holding a finding an edit is planned for are read (documentsOnLines), and
 * the suggestions of one document are proven together before one by one (src/fix/fix-file.ts).
 * Neither may change a fix or a suggestion.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint } from '../src/engine/lint.js';
import { fixFileText } from '../src/fix/fix-file.js';
import { documentsOnLines } from '../src/fix/objects.js';
import type { Fix } from '../src/fix/types.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { parseFile } from '../src/parse/yaml.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`;

const MUTATING = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: inject}
webhooks:
  - name: a.inject.example.com   # first
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 30
    clientConfig: {service: {namespace: inject, name: inject, path: /a}}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
  - name: b.inject.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 30
    clientConfig: {service: {namespace: inject, name: inject, path: /b}}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;

const VALIDATING = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: check}
webhooks:
  - name: check.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 5
    clientConfig: {service: {namespace: check, name: check, path: /v}}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
`;

async function lintText(name: string, text: string): Promise<{ file: string; findings: Finding[] }> {
  const file = join(mkdtempSync(join(tmpdir(), 'admission-lint-fix-narrowing-')), name);
  writeFileSync(file, text);
  const report = await lint({ paths: [file], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  return { file, findings: [...report.findings] };
}

/** A fix as its offsets in the document: the same edit wherever the document sits in its file. */
const shifted = (fixes: readonly Fix[], by: number) => fixes.map((fix) => ({ ruleId: fix.ruleId, description: fix.description, edits: fix.edits.map((edit) => ({ ...edit, start: edit.start - by, end: edit.end - by })) }));

describe('fixes read only the documents with findings they are for', async () => {
  const stream = `${CRD}---\n${VALIDATING}---\n# the injector\n${MUTATING}`;
  const alone = await lintText('alone.yaml', MUTATING);
  const within = await lintText('stream.yaml', stream);

  it('narrows the text to those documents: the same offsets and documents, the others a null and a comment', () => {
    const line = stream.slice(0, stream.indexOf('kind: MutatingWebhookConfiguration')).split('\n').length;
    const narrowed = documentsOnLines(stream, [line]);
    expect(narrowed.length).toBe(stream.length);
    const start = stream.indexOf('apiVersion: admissionregistration.k8s.io/v1\nkind: Mutating');
    expect(narrowed.slice(start - '# the injector\n'.length)).toBe(stream.slice(start - '# the injector\n'.length));
    expect(narrowed.slice(0, CRD.length)).toBe(`~ ${'#'.repeat(CRD.length - 3)}\n`);
    expect(narrowed).toContain(`---\n~ ${'#'.repeat(VALIDATING.length - 3)}\n---\n`);
    expect(parseFile({ path: 'x.yaml', text: narrowed }, { prefilter: false }).documentCount).toBe(3);
  });

  it('plans and proves the same fixes and suggestions as for the document alone', () => {
    const offset = stream.indexOf('apiVersion: admissionregistration.k8s.io/v1\nkind: Mutating');
    const inStream = fixFileText(within.file, stream, within.findings);
    const byItself = fixFileText(alone.file, MUTATING, alone.findings);
    expect(byItself.applied.length).toBeGreaterThan(0);
    expect(byItself.suggestions.length).toBeGreaterThan(2);
    expect(shifted(inStream.applied, offset)).toEqual(shifted(byItself.applied, 0));
    expect(shifted(inStream.suggestions, offset)).toEqual(shifted(byItself.suggestions, 0));
    expect(inStream.text).toBe(`${CRD}---\n${VALIDATING}---\n# the injector\n${byItself.text}`);
  });

  it('proves a document\'s suggestions together as it proves each on its own', () => {
    const together = fixFileText(alone.file, MUTATING, alone.findings).suggestions;
    const oneByOne = alone.findings.flatMap((finding) => fixFileText(alone.file, MUTATING, [finding]).suggestions);
    const key = (fix: Fix) => `${fix.ruleId} ${fix.fieldPath} ${fix.description} ${JSON.stringify(fix.edits)}`;
    expect(together.map(key).sort()).toEqual([...new Set(oneByOne.map(key))].sort());
  });
});
