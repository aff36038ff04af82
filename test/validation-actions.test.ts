/** validation-actions leaves the lists the API server rejects to api-validation (one finding per problem). */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const binding = (actions: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: limit-replicas
spec:
  policyName: limit-replicas
  validationActions: ${actions}
`;

describe('validation-actions', () => {
  it.each([
    ['Deny with Warn', '["Deny", "Warn"]'],
    ['Warn with Deny', '["Warn", "Deny"]'],
    ['an empty list', '[]'],
    ['a duplicate', '["Audit", "Audit"]'],
    ['an unknown action', '["Audit", "Log"]'],
    ['a lowercase action', '["warn"]'],
  ])('does not report %s (api-validation does)', async (_name, actions) => {
    const findings = await lintText(binding(actions));
    expect(findings.filter((f) => f.ruleId === 'validation-actions')).toEqual([]);
    expect(findings.some((f) => f.ruleId === 'api-validation' || f.ruleId === 'schema')).toBe(true);
  });

  it.each([
    ['["Audit"]', 'validationActions is [Audit]: a request that fails policy "limit-replicas" is admitted, the failure only audited'],
    ['["Warn"]', 'validationActions is [Warn]: a request that fails policy "limit-replicas" is admitted with a warning'],
    ['["Warn", "Audit"]', 'validationActions is [Warn, Audit]: a request that fails policy "limit-replicas" is admitted with a warning'],
  ])('reports %s', async (actions, text) => {
    const findings = (await lintText(binding(actions))).filter((f) => f.ruleId === 'validation-actions');
    expect(findings.map((f) => [f.fieldPath, f.severity])).toEqual([['spec.validationActions', 'info']]);
    expect(findings[0]!.message).toContain(text);
  });

  it.each([['["Deny"]'], ['["Deny", "Audit"]'], ['["Audit", "Deny"]']])('does not report %s', async (actions) => {
    expect((await lintText(binding(actions))).filter((f) => f.ruleId !== 'binding-without-policy')).toEqual([]);
  });
});
