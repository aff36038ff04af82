/**
 * One cause, one finding across rules (Violation.covers, src/engine/lint.ts uncovered): an
 * implicit-failure-policy finding that a reported matches-kube-system or self-deadlock finding
 * already names ("failurePolicy Fail (the API default)") is an info; a covering finding that is
 * suppressed inline, or less severe, covers nothing; a severity the user set still decides.
 */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const WEBHOOK = (resource: string, suppress = '') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: checker
webhooks:
- name: checker.example.com
  admissionReviewVersions: ["v1"]
  sideEffects: None
  clientConfig:
    service: {namespace: checker, name: checker, path: /validate}
  rules:
  - apiGroups: [""]
    apiVersions: ["v1"]
    operations: ["CREATE"]
    resources: ["${resource}"]${suppress}
`;

const severities = async (text: string, options: Parameters<typeof lintText>[1] = {}) =>
  (await lintText(text, { only: ['implicit-failure-policy', 'matches-kube-system'], ...options })).map((f) => `${f.ruleId} ${f.severity}`).sort();

describe('a finding that another one stands for', () => {
  it('is an info where a finding at least as severe names its cause', async () => {
    expect(await severities(WEBHOOK('configmaps'))).toEqual(['implicit-failure-policy info', 'matches-kube-system error']);
    // Nothing in kube-system for it to say: the omitted failurePolicy stands alone.
    expect(await severities(WEBHOOK('persistentvolumeclaims'))).toContain('implicit-failure-policy warning');
  });

  it('stays as it is when the covering finding is suppressed inline', async () => {
    const suppressed = WEBHOOK('configmaps', '  # admission-lint-disable-line matches-kube-system -- reviewed');
    expect(await severities(suppressed)).toEqual(['implicit-failure-policy warning']);
  });
});
