/**
 * Rule unknown-kind: a kind admissionregistration.k8s.io never had is reported once, and it is
 * the one cause: the analyses of absence do not add that its binding has no policy.
 */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

describe('unknown-kind', () => {
  it('a misspelled policy is one finding, not also a binding without a policy', async () => {
    const policy = [
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: ValidatingAdmissionPolicyy',
      'metadata: {name: replicas}',
      'spec:',
      '  failurePolicy: Fail',
      '  matchConstraints: {resourceRules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]}',
      '  validations: [{expression: "object.spec.replicas <= 5"}]',
      '---',
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: ValidatingAdmissionPolicyBinding',
      'metadata: {name: replicas}',
      'spec: {policyName: replicas, validationActions: [Deny]}',
    ].join('\n');
    // Another policy of the kind is in the run, so a binding with no policy of its name is reported.
    const other = [
      '---',
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: ValidatingAdmissionPolicy',
      'metadata: {name: limits}',
      'spec:',
      '  failurePolicy: Fail',
      '  matchConstraints: {resourceRules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]}',
      '  validations: [{expression: "true"}]',
      '---',
      'apiVersion: admissionregistration.k8s.io/v1',
      'kind: ValidatingAdmissionPolicyBinding',
      'metadata: {name: limits}',
      'spec: {policyName: limits, validationActions: [Deny]}',
    ].join('\n');
    const only = ['unknown-kind', 'binding-without-policy'];
    const findings = await lintText(`${policy}\n${other}`, { only });
    expect(findings.map((f) => `${f.ruleId} ${f.line}`)).toEqual(['unknown-kind 2']);
    // The same binding whose policy is not there at all is reported.
    const alone = await lintText(`${policy.split('---\n')[1]!}\n${other}`, { only });
    expect(alone.map((f) => f.ruleId)).toEqual(['binding-without-policy']);
  });

  it('reads a document of the group whatever its kind is called, and counts it with the other documents', async () => {
    const findings = await lintText('apiVersion: admissionregistration.k8s.io/v1\nkind: Hook\nmetadata: {name: x}\n');
    expect(findings.map((f) => `${f.ruleId}: ${f.message}`)).toEqual(['unknown-kind: no matches for kind "Hook" in version "admissionregistration.k8s.io/v1"']);
  });
});
