/** removed-api-version: what the move of a v1beta1 webhook configuration to v1 takes, counted from what is written. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { lintText } from './helpers.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('removed-api-version-test');

const webhook = (name: string, fields: string): string => `  - name: ${name}.example.com
${fields}    clientConfig:
      service: {namespace: widgets, name: webhook}
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;
const configuration = (...webhooks: string[]): string =>
  `apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: legacy\nwebhooks:\n${webhooks.join('')}`;

async function finding(text: string): Promise<{ message: string; help: string }> {
  const findings = await lintText(text, { only: ['removed-api-version'] });
  expect(findings).toHaveLength(1);
  return { message: findings[0]!.message, help: findings[0]!.help ?? '' };
}

describe('removed-api-version', () => {
  it('says in the message that v1 turns an unwritten failurePolicy to Fail, and counts the rest in the help', async () => {
    const { message, help } = await finding(
      configuration(webhook('a', '    sideEffects: Unknown\n'), webhook('b', '    failurePolicy: Ignore\n    sideEffects: None\n    admissionReviewVersions: [v1beta1]\n'), webhook('c', '    failurePolicy: Fail\n')),
    );
    expect(message).toMatch(/; v1 makes its failurePolicy Fail$/);
    expect(help).toContain('Here sideEffects (None or NoneOnDryRun) is missing from 1 of its 3 webhooks; sideEffects is neither None nor NoneOnDryRun in 1 of its 3 webhooks; admissionReviewVersions is missing from 2 of its 3 webhooks; failurePolicy is missing from 1 of its 3 webhooks (Ignore in v1beta1, Fail in v1).');
  });

  it('says nothing more when only the apiVersion changes', async () => {
    const { message, help } = await finding(configuration(webhook('a', '    failurePolicy: Ignore\n    sideEffects: NoneOnDryRun\n    admissionReviewVersions: [v1, v1beta1]\n')));
    expect(message).toBe('ValidatingWebhookConfiguration in admissionregistration.k8s.io/v1beta1 is not served since Kubernetes 1.22 (target: 1.35)');
    expect(help).not.toContain('Here');
  });

  it('counts both webhooks as both', async () => {
    const { help } = await finding(configuration(webhook('a', ''), webhook('b', '')));
    expect(help).toContain('admissionReviewVersions is missing from both webhooks');
  });

  it('reports each file\'s choice of version on its own, so that a suppression in one file hides nothing in another (s37c 3-A)', async () => {
    const policy = (name: string, suppressed: boolean): string => `apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${name}
${suppressed ? '  annotations:\n    admission-lint.dev/ignore: removed-api-version\n    admission-lint.dev/ignore-reason: "a cluster that serves v1beta1"\n' : ''}spec:
  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: ["v1"], operations: ["DELETE"], resources: ["secrets"]}]}
  validations: [{expression: "true"}]
`;
    const dir = folder({ 'policies/a.yaml': policy('a', true), 'policies/b.yaml': policy('b', false) });
    const report = await lint({ paths: [dir], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
    expect(report.findings.filter((f) => f.ruleId === 'removed-api-version').map((f) => `${f.file.slice(dir.length + 1)} ${f.severity}`)).toEqual([`${join('policies', 'b.yaml')} error`]);
  });

  it('says in the help that v1 requires the parameterNotFoundAction a v1alpha1 binding left to its default', async () => {
    const binding = (name: string, paramRef: string): string =>
      `apiVersion: admissionregistration.k8s.io/v1alpha1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: ${name}\nspec:\n  policyName: elsewhere\n  validationActions: [Deny]\n${paramRef}`;
    expect((await finding(binding('lacking', '  paramRef:\n    name: params\n'))).help).toContain('Binding "lacking" sets paramRef without parameterNotFoundAction: v1alpha1 defaults it to Deny, v1 requires it');
    expect((await finding(binding('written', '  paramRef:\n    name: params\n    parameterNotFoundAction: Allow\n'))).help).not.toContain('parameterNotFoundAction');
    expect((await finding(binding('none', ''))).help).not.toContain('parameterNotFoundAction');
    // null is no value: v1 requires one all the same.
    expect((await finding(binding('nulled', '  paramRef:\n    name: params\n    parameterNotFoundAction: null\n'))).help).toContain('Binding "nulled" sets paramRef without parameterNotFoundAction');
  });
});
