/** Who guards a Namespace label (src/match/namespace-guards.ts), as editable-namespace-selector reads it. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const optOut = (service: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
  - name: pods.policy.example.com
    failurePolicy: Fail
    timeoutSeconds: 3
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: policy-system, name: ${service}, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
    namespaceSelector:
      matchExpressions:
        - {key: policy.example.com/ignore, operator: DoesNotExist}
`;

const webhookGuard = `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: guard
webhooks:
  - name: namespaces.guard.example.com
    failurePolicy: Fail
    timeoutSeconds: 3
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: policy-system, name: policy-webhook, path: /namespaces}
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"]}
`;

const policyGuard = (actions: string) => `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ignore-label
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"]}
  validations:
    - expression: "!('policy.example.com/ignore' in object.metadata.labels)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ignore-label
spec:
  policyName: ignore-label
  validationActions: [${actions}]
`;

const severities = async (text: string): Promise<string[]> =>
  (await lintText(text, { only: ['editable-namespace-selector'] })).map((f) => `${f.severity} ${f.message.replace(/.*\(([^)]*)\)$/, '$1')}`);

describe('namespace label guards', () => {
  it('a Fail webhook on Namespaces guards the labels of webhooks with the same backend only', async () => {
    expect(await severities(optOut('policy-webhook') + webhookGuard)).toEqual(['info guarded in this run']);
    const other = await severities(optOut('other-webhook') + webhookGuard);
    expect(other.map((s) => s.split(' ')[0])).toEqual(['warning']);
  });

  it('a ValidatingAdmissionPolicy on Namespaces guards any label, when a binding denies', async () => {
    expect(await severities(optOut('other-webhook') + policyGuard('"Deny"'))).toEqual(['info guarded in this run']);
    expect((await severities(optOut('other-webhook') + policyGuard('"Warn"'))).map((s) => s.split(' ')[0])).toEqual(['warning']);
  });
});
