/** admission-review-versions: lists the API server rejects are api-validation's alone. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

function configuration(versions: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
  - name: pods.policy.example.com
    admissionReviewVersions: ${versions}
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
      service: {namespace: policy, name: webhook, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
}

describe('admission-review-versions', () => {
  it.each([['[]'], ['["v2"]'], ['["v1beta1", "v1beta1"]'], ['["V1", "v1beta1"]'], ['["v1_2", "v1beta1"]']])('leaves %s to api-validation', async (versions) => {
    const findings = await lintText(configuration(versions), { only: ['admission-review-versions', 'api-validation'] });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.ruleId === 'admission-review-versions')).toEqual([]);
  });
});
