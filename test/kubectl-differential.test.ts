/**
 * Read what kubectl reads: spellings of `apiVersion` and `kind` (quotes, escapes, tags, aliases,
 * merge keys, `!!binary`, complex keys) in contexts (BOMs, YAML 1.1 line breaks, other documents
 * around it) are generated, and every document kubectl decodes as a webhook configuration must be
 * one the linter reads. kubectl is the reference (`kubectl annotate --local -f FILE x=y -o json`
 * decodes offline, as `kubectl apply` does); the test is skipped where it is not installed
 * (.ci/run installs Debian's kubernetes-client).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRun } from '../src/engine/lint.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

const KIND = 'ValidatingWebhookConfiguration';
const API_VERSION = 'admissionregistration.k8s.io/v1';
const BODY = `metadata: {name: gate}
webhooks:
  - name: a.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://a.example.com"}
    rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]
`;

/** Ways to write `kind: ValidatingWebhookConfiguration` as the first lines of a mapping. */
const KIND_SPELLINGS: Readonly<Record<string, string>> = {
  plain: `kind: ${KIND}\n`,
  single: `kind: '${KIND}'\n`,
  double: `kind: "${KIND}"\n`,
  hexEscape: `kind: "Validating\\x57ebhookConfiguration"\n`,
  unicodeEscape: `kind: "Validating\\u0057ebhookConfiguration"\n`,
  escapedBreak: `kind: "ValidatingWebhook\\\n  Configuration"\n`,
  strTag: `kind: !!str ${KIND}\n`,
  verbatimTag: `kind: !<tag:yaml.org,2002:str> ${KIND}\n`,
  binary: `kind: !!binary ${Buffer.from(KIND).toString('base64')}\n`,
  alias: `x-name: &k ${KIND}\nkind: *k\n`,
  quotedKey: `"kind": ${KIND}\n`,
  complexKey: `? kind\n: ${KIND}\n`,
  mergeInline: `<<: {kind: ${KIND}}\n`,
  mergeAnchor: `x-base: &b {kind: ${KIND}}\n<<: *b\n`,
  mergeList: `x-a: &a {kind: ${KIND}}\nx-b: &b {y: 1}\n<<: [*b, *a]\n`,
};

/** Ways to place the document in a file. */
const CONTEXTS: Readonly<Record<string, (document: string) => string>> = {
  alone: (document) => document,
  afterDocument: (document) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n${document}`,
  bomAfterMarker: (document) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n\ufeff${document}`,
  commentEndedByCR: (document) => `# note\r${document}`,
  commentEndedByNEL: (document) => `# note\u0085${document}`,
  commentEndedByLS: (document) => `# note\u2028${document}`,
  crlf: (document) => document.replace(/\n/g, '\r\n'),
};

/** The kinds kubectl decodes from a file, in order. */
function kubectlKinds(file: string): string[] {
  const result = spawnSync('kubectl', ['annotate', '--local', '-f', file, 'x=y', '-o', 'json'], { encoding: 'utf8' });
  const kinds: string[] = [];
  // One JSON object per decoded document (or a List of them); errors go to stderr.
  for (const chunk of result.stdout.split(/\n(?=\{)/)) {
    if (chunk.trim() === '') continue;
    const value = JSON.parse(chunk) as { kind?: string; items?: { kind?: string }[] };
    if (value.kind === 'List' && Array.isArray(value.items)) kinds.push(...value.items.map((item) => item.kind ?? ''));
    else kinds.push(value.kind ?? '');
  }
  return kinds;
}

describe.skipIf(!hasKubectl)('kubectl differential: recognising kind and apiVersion', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-kubectl-'));
  const cases = Object.entries(KIND_SPELLINGS).flatMap(([spelling, kindLines]) =>
    Object.entries(CONTEXTS).map(([context, place]) => [`${spelling} / ${context}`, place(`apiVersion: ${API_VERSION}\n${kindLines}${BODY}`)] as const),
  );

  it.each(cases)('%s', (name, text) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
    writeFileSync(file, text);
    const webhookConfigurations = kubectlKinds(file).filter((kind) => kind === KIND).length;
    const run = loadRun([file]);
    // Never fewer than kubectl applies: a document kubectl applies and we skip walks around the gate.
    expect(run.webhookConfigurations.length, `kubectl decodes ${webhookConfigurations}`).toBeGreaterThanOrEqual(webhookConfigurations);
    expect(run.webhookConfigurations.every((object) => object.kind === KIND)).toBe(true);
  });

  it('knows kubectl is what it compares against', () => {
    expect(execFileSync('kubectl', ['version', '--client'], { encoding: 'utf8' })).toMatch(/Client Version/);
  });
});
