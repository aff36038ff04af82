/**
 * Selectors the API server cannot read (a null requirement, matchExpressions that are no list)
 * are schema's and api-validation's to report: no other rule may fail on them (attack s49e N3).
 */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const policy = (selector: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  failurePolicy: Fail
  matchConstraints:
    objectSelector: ${selector}
    resourceRules:
      - {apiGroups: ["", "apps"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["deployments", "pods"]}
  validations:
    - expression: "object.spec.replicas <= 5"
    - expression: "object.spec.containers.all(c, !c.?securityContext.?privileged.orValue(false))"
`;
const webhook = (selector: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: checks}
webhooks:
  - name: checks.example.com
    objectSelector: ${selector}
    sideEffects: None
    admissionReviewVersions: ["v1"]
    failurePolicy: Fail
    clientConfig: {service: {name: checks, namespace: checks}}
    rules:
      - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}
`;

describe('malformed selectors', () => {
  it('make no rule fail', async () => {
    for (const selector of ['{matchExpressions: [null]}', '{matchExpressions: {key: a, operator: In}}', '{matchExpressions: 5}', '{matchLabels: [a]}', '{matchExpressions: [{key: a, operator: In, values: [null]}]}']) {
      for (const text of [policy(selector), webhook(selector), `${policy(selector)}---\n${webhook(selector)}`]) {
        const findings = await lintText(text);
        expect(findings.filter((finding) => finding.message.includes('internal error')).map((finding) => `${finding.ruleId}: ${finding.message}`), `${selector}\n${text}`).toEqual([]);
      }
    }
  });
});
