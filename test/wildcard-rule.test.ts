/** wildcard-rule: which failure policies, groups and selectors count. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

function manifest(options: { apiVersion?: string; failurePolicy?: string; groups: string[]; resources: string[]; extra?: string }): string {
  return `apiVersion: ${options.apiVersion ?? 'admissionregistration.k8s.io/v1'}
kind: ValidatingWebhookConfiguration
metadata:
  name: test
webhooks:
  - name: test.example.com
${options.failurePolicy ? `    failurePolicy: ${options.failurePolicy}\n` : ''}    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: test, name: test, path: /validate}
${options.extra ?? ''}    rules:
      - {operations: ["CREATE"], apiGroups: ${JSON.stringify(options.groups)}, apiVersions: ["*"], resources: ${JSON.stringify(options.resources)}}
`;
}

async function paths(text: string): Promise<string[]> {
  return (await lintText(text, { only: ['wildcard-rule'] })).map((f) => `${f.fieldPath}: ${f.message}`);
}

describe('wildcard-rule', () => {
  it('says when Fail is the API default', async () => {
    const [finding] = await paths(manifest({ groups: ['*'], resources: ['*'] }));
    expect(finding).toContain('with failurePolicy Fail (the API default)');
    const [written] = await paths(manifest({ failurePolicy: 'Fail', groups: ['*'], resources: ['*'] }));
    expect(written).toMatch(/with failurePolicy Fail$/);
  });

  it('ignores Ignore, also as the v1beta1 default', async () => {
    expect(await paths(manifest({ failurePolicy: 'Ignore', groups: ['*'], resources: ['*/*'] }))).toEqual([]);
    expect(await paths(manifest({ apiVersion: 'admissionregistration.k8s.io/v1beta1', groups: ['*'], resources: ['*/*'] }))).toEqual([]);
  });

  it('counts wildcard resources in `*` or built-in groups only', async () => {
    expect(await paths(manifest({ failurePolicy: 'Fail', groups: ['example.com'], resources: ['*/*'] }))).toEqual([]);
    expect(await paths(manifest({ failurePolicy: 'Fail', groups: ['*'], resources: ['pods', 'deployments'] }))).toEqual([]);
    expect(await paths(manifest({ failurePolicy: 'Fail', groups: ['example.com', 'batch'], resources: ['*'] }))).toEqual([
      'webhooks[0].rules[0].resources[0]: webhook "test.example.com" intercepts every resource of "example.com" and "batch" with failurePolicy Fail',
    ]);
  });

  it('is silenced by an opt-in objectSelector, not by an opt-out one', async () => {
    const optIn = '    objectSelector: {matchExpressions: [{key: protect, operator: In, values: ["yes"]}]}\n';
    const optOut = '    objectSelector: {matchExpressions: [{key: skip, operator: DoesNotExist}]}\n';
    expect(await paths(manifest({ failurePolicy: 'Fail', groups: ['*'], resources: ['*'], extra: optIn }))).toEqual([]);
    expect(await paths(manifest({ failurePolicy: 'Fail', groups: ['*'], resources: ['*'], extra: optOut }))).toHaveLength(1);
  });
});
