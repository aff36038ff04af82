/** match-policy-exact: the v1beta1 default, sibling webhooks, and what counts as a version. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

async function findings(text: string, kubeVersion?: string): Promise<string[]> {
  return (await lintText(text, { only: ['match-policy-exact'], ...(kubeVersion ? { kubeVersion } : {}) })).map((f) => `${f.line}:${f.column} ${f.fieldPath}: ${f.message}`);
}

const webhook = (name: string, versions: string[], matchPolicy?: string): string => `  - name: ${name}
${matchPolicy ? `    matchPolicy: ${matchPolicy}\n` : ''}    failurePolicy: Ignore
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: test, name: test, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["autoscaling"], apiVersions: ${JSON.stringify(versions)}, resources: ["horizontalpodautoscalers"]}
`;

const config = (apiVersion: string, name: string, webhooks: string): string =>
  `apiVersion: admissionregistration.k8s.io/${apiVersion}\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: ${name}\nwebhooks:\n${webhooks}`;

describe('match-policy-exact', () => {
  it('reports Exact, not Equivalent or the v1 default', async () => {
    expect(await findings(config('v1', 'a', webhook('a.example.com', ['v1'], 'Exact')))).toHaveLength(1);
    expect(await findings(config('v1', 'a', webhook('a.example.com', ['v1'], 'Equivalent')))).toEqual([]);
    expect(await findings(config('v1', 'a', webhook('a.example.com', ['v1'])))).toEqual([]);
  });

  it('says when Exact is the v1beta1 default, and points at the webhook', async () => {
    // v1beta1 configurations are served before 1.22 only; past that they are never called.
    expect(await findings(config('v1beta1', 'a', webhook('a.example.com', ['v2beta2'])), '1.21')).toEqual([
      '6:5 webhooks[0].matchPolicy: webhook "a.example.com" has matchPolicy Exact (the v1beta1 API default): it misses the same objects through autoscaling/v1 horizontalpodautoscalers and 1 more',
    ]);
    expect(await findings(config('v1beta1', 'a', webhook('a.example.com', ['v2beta2'])))).toEqual([]);
  });

  it('is satisfied by another webhook of the same configuration, not of another one', async () => {
    const both = webhook('v1.example.com', ['v1'], 'Exact') + webhook('v2.example.com', ['v2'], 'Exact');
    expect(await findings(config('v1', 'a', both))).toEqual([]);
    const split = `${config('v1', 'a', webhook('v1.example.com', ['v1'], 'Exact'))}---\n${config('v1', 'b', webhook('v2.example.com', ['v2'], 'Exact'))}`;
    expect(await findings(split)).toHaveLength(2);
  });

  it('follows --kube-version', async () => {
    const text = config('v1', 'a', webhook('a.example.com', ['v1', 'v2'], 'Exact'));
    expect(await findings(text)).toEqual([]);
    expect(await findings(text, '1.25')).toEqual([
      '7:5 webhooks[0].matchPolicy: webhook "a.example.com" has matchPolicy Exact: it misses the same objects through autoscaling/v2beta2 horizontalpodautoscalers',
    ]);
  });
});
