/** client-config-url: URLs that api-validation rejects are not checked again. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

function configuration(clientConfig: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
  - name: pods.policy.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
${clientConfig}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
}

describe('client-config-url', () => {
  it.each([
    ['url and service together', '      url: https://127.0.0.1/\n      service: {namespace: policy, name: webhook}'],
    ['an unparsable url', '      url: "https://[::1/validate"'],
    ['a url without a host', '      url: "https:///validate"'],
  ])('does not report %s', async (_what, clientConfig) => {
    const findings = await lintText(configuration(clientConfig), { only: ['client-config-url', 'api-validation'] });
    expect(findings.map((f) => f.ruleId)).toEqual(['api-validation']);
  });

  it('reports the host of a url with user info once, next to api-validation', async () => {
    const findings = await lintText(configuration('      url: https://user@127.0.0.1/validate'), { only: ['client-config-url', 'api-validation'] });
    expect(findings.map((f) => f.ruleId).sort()).toEqual(['api-validation', 'client-config-url']);
  });
});
