/**
 * `--format rdjson` (reviewdog's diagnostic format) validates against its published JSON Schema,
 * and carries fixes and suggestions as suggested changes whose ranges, applied, give the edit.
 *
 * test/schemas/reviewdog-DiagnosticResult.json is vendored unchanged from
 * https://github.com/reviewdog/reviewdog/blob/34a54e5b85daba36f973c910b1a6df937ebf37bc/proto/rdf/jsonschema/DiagnosticResult.json
 * (the latest change to it as of the snapshot at commit 6c307503194f0f32bf1956c7fcd2877636338db6).
 * It declares draft-04; the keywords it uses (type, properties, items, enum, oneOf, $ref) mean
 * the same in the draft ajv implements, so its `$schema` is left out when it is compiled.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const SCHEMA = JSON.parse(readFileSync(join(import.meta.dirname, 'schemas/reviewdog-DiagnosticResult.json'), 'utf8')) as Record<string, unknown>;
delete SCHEMA.$schema;
const validate = new Ajv({ strict: false, allErrors: true }).compile(SCHEMA);

const INPUT = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: gate}
webhooks:
  - name: gate.example.com # ünïcode before the edit
    admissionReviewVersions: [v1]
    sideEffects: None
    timeoutSeconds: 5
    clientConfig: {service: {namespace: gate, name: gate, path: /v}}
    rules: [{operations: ["*"], apiGroups: [""], apiVersions: ["*"], resources: ["pods"]}]
`;

interface Suggestion {
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
  text: string;
}

/** Applies one rdjson suggestion to the text (columns are UTF-8 bytes). */
function apply(text: string, suggestion: Suggestion): string {
  const bytes = Buffer.from(text, 'utf8');
  const offset = (position: { line: number; column: number }): number => {
    let line = 1;
    let at = 0;
    while (line < position.line) {
      at = bytes.indexOf(10, at) + 1;
      line++;
    }
    return at + position.column - 1;
  };
  return Buffer.concat([bytes.subarray(0, offset(suggestion.range.start)), Buffer.from(suggestion.text), bytes.subarray(offset(suggestion.range.end))]).toString('utf8');
}

describe('--format rdjson', () => {
  it('validates against reviewdog\'s schema and carries the fix and the suggestions', async () => {
    const { stdout } = await runCli(['-', '--format', 'rdjson', '--fail-on', 'never'], INPUT);
    const data = JSON.parse(stdout) as { diagnostics: { code: { value: string }; message: string; suggestions?: Suggestion[] }[] };
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const implicit = data.diagnostics.find((d) => d.code.value === 'implicit-failure-policy');
    expect(implicit?.message).toContain('fix: write failurePolicy: Fail and the other defaults left implicit (matchPolicy: Equivalent)');
    expect(implicit?.message).toContain('suggestion: failurePolicy: Ignore');
    expect(implicit?.suggestions?.map((s) => apply(INPUT, s))).toEqual([
      // The fix's two insertions at one place are one suggested change.
      INPUT.replace('before the edit\n', 'before the edit\n    failurePolicy: Fail\n    matchPolicy: Equivalent\n'),
      INPUT.replace('before the edit\n', 'before the edit\n    failurePolicy: Ignore\n'),
    ]);
    const kubeSystem = data.diagnostics.find((d) => d.code.value === 'matches-kube-system' && d.suggestions);
    expect(kubeSystem?.suggestions?.[0]?.text).toContain('namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, gate]}]}');
  });

  it('SARIF carries them as fixes with artifactChanges', async () => {
    const { stdout } = await runCli(['-', '--format', 'sarif', '--fail-on', 'never'], INPUT);
    const results = (JSON.parse(stdout) as { runs: { results: { ruleId: string; fixes?: { description: { text: string }; artifactChanges: { replacements: { deletedRegion: { startLine: number; startColumn: number }; insertedContent: { text: string } }[] }[] }[] }[] }[] }).runs[0]!.results;
    const implicit = results.find((result) => result.ruleId === 'implicit-failure-policy');
    expect(implicit?.fixes?.map((fix) => fix.description.text)).toEqual([
      "fix (keeps behaviour; admission-lint --fix applies it): write failurePolicy: Fail and the other defaults left implicit (matchPolicy: Equivalent): the API's values, so nothing changes",
      'suggestion (changes behaviour): failurePolicy: Ignore: requests are admitted unchecked while the webhook is down, instead of rejected',
    ]);
    const replacement = implicit!.fixes![0]!.artifactChanges[0]!.replacements[0]!;
    expect(implicit!.fixes![0]!.artifactChanges[0]!.replacements).toHaveLength(1);
    expect(replacement.insertedContent.text).toBe('\n    failurePolicy: Fail\n    matchPolicy: Equivalent');
    // UTF-16 columns: the end of the 52-character line '  - name: gate.example.com # ünïcode before the edit' (55 UTF-8 bytes).
    expect(replacement.deletedRegion).toEqual({ startLine: 5, startColumn: 53, endLine: 5, endColumn: 53 });
  });
});
