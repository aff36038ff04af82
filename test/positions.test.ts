/** Positions are the product: exact for the 5th document of a file and the 3rd item of a List. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const webhook = (name: string, indent: string): string =>
  [
    `${indent}- name: ${name}`,
    `${indent}  sideEffects: None`,
    `${indent}  admissionReviewVersions: [v1]`,
    `${indent}  timeoutSeconds: 99`,
    `${indent}  clientConfig: {url: "https://hooks.example.com/x"}`,
    `${indent}  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]`,
  ].join('\n');

const configuration = (name: string, indent = ''): string =>
  [`${indent}apiVersion: admissionregistration.k8s.io/v1`, `${indent}kind: ValidatingWebhookConfiguration`, `${indent}metadata: {name: ${name}}`, `${indent}webhooks:`, webhook(`${name}.example.com`, `${indent}  `)].join('\n');

describe('positions', () => {
  it('are exact in the 5th document of a multi-document file', async () => {
    const other = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}';
    const text = [other, other, other, other, configuration('fifth')].join('\n---\n') + '\n';
    const [finding, ...rest] = await lintText(text, { only: ['timeout-out-of-range'] });
    expect(rest).toEqual([]);
    // 4 ConfigMaps of 4 lines plus 4 separators: the fifth document starts on line 21.
    expect(finding).toMatchObject({ documentIndex: 4, line: 28, column: 5, endLine: 28, endColumn: 23, fieldPath: 'webhooks[0].timeoutSeconds', webhook: 'fifth.example.com' });
    expect(text.split('\n')[27]).toBe('    timeoutSeconds: 99');
  });

  it('are exact for the 3rd item of a List and of a typed list', async () => {
    for (const kind of ['List', 'ValidatingWebhookConfigurationList']) {
      const items = ['one', 'two', 'three'].map((name) => configuration(name, '    ').replace(/^ {4}/, '  - ')).join('\n');
      const text = `apiVersion: v1\nkind: ${kind}\nitems:\n${items}\n`;
      const findings = await lintText(text, { only: ['timeout-out-of-range'] });
      expect(findings.map((f) => f.webhook)).toEqual(['one.example.com', 'two.example.com', 'three.example.com']);
      const third = findings[2]!;
      expect(text.split('\n')[third.line - 1]!.slice(third.column - 1, third.endColumn - 1)).toBe('timeoutSeconds: 99');
      expect(third).toMatchObject({ documentIndex: 0, fieldPath: 'webhooks[0].timeoutSeconds', object: { name: 'three' } });
    }
  });

  it('infer the kind of typed-list items that omit apiVersion and kind', async () => {
    const text = ['apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingWebhookConfigurationList', 'items:', '  - metadata: {name: bare}', '    webhooks:', webhook('bare.example.com', '      ')].join('\n');
    const findings = await lintText(text, { only: ['timeout-out-of-range'] });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 9, column: 9, object: { kind: 'ValidatingWebhookConfiguration', name: 'bare' } });
  });

  it('are exact in JSON input', async () => {
    const text = JSON.stringify(
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'json' },
        webhooks: [{ name: 'json.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 99, clientConfig: { url: 'https://h.example.com' }, rules: [] }],
      },
      null,
      2,
    );
    const [finding] = await lintText(text, { only: ['timeout-out-of-range'] });
    expect(text.split('\n')[finding!.line - 1]!.slice(finding!.column - 1, finding!.endColumn - 1)).toBe('"timeoutSeconds": 99');
  });

  it('point at the closest written ancestor for an omitted field', async () => {
    const text = configuration('omitted').replace('    timeoutSeconds: 99\n', '');
    const [finding] = await lintText(text, { only: ['implicit-failure-policy'] });
    expect(finding).toMatchObject({ fieldPath: 'webhooks[0].failurePolicy', line: 5, column: 5, endLine: 9 });
  });

  it('stay exact after a syntax error that the parser recovers from (found by fuzzing)', async () => {
    // yaml's own LineCounter missed a line break here, putting later findings a line too high.
    const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures/binding-without-policy/valid/same-name-both-kinds.yaml'), 'utf8');
    const text = fixture.replace(/^#/, '');
    const findings = await lintText(text, { only: ['removed-api-version'] });
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) expect(text.split('\n')[f.line - 1]!.slice(f.column - 1, f.endColumn - 1)).toMatch(/^apiVersion: /);
  });
});
