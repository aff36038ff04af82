/**
 * binding-without-policy and policy-without-binding across files: a run is every input file, so
 * policies and bindings in separate folders are checked together when linted together, and
 * neither folder alone reports anything.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { selectRules } from './helpers.js';

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: limit-replicas
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 50"
`;

const BINDING = (policyName: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: limit-replicas
spec:
  policyName: ${policyName}
  validationActions: ["Deny"]
`;

const root = mkdtempSync(join(tmpdir(), 'admission-lint-bindings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, policyName: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'policies'), { recursive: true });
  mkdirSync(join(dir, 'bindings'), { recursive: true });
  writeFileSync(join(dir, 'policies', 'policy.yaml'), POLICY);
  writeFileSync(join(dir, 'bindings', 'binding.yaml'), BINDING(policyName));
  return dir;
}

async function findings(paths: string[]): Promise<string[]> {
  const report = await lint({
    paths,
    rules: selectRules(['binding-without-policy', 'policy-without-binding']),
    kubeVersion: DEFAULT_KUBE_VERSION,
    trustedNamespaceLabels: [],
    severityOverrides: new Map(),
    toolVersion: 'test',
  });
  return report.findings.map((f) => `${f.ruleId} ${f.fieldPath}`);
}

describe('policies and bindings in separate folders', () => {
  it('are checked together when linted together', async () => {
    const dir = tree('typo', 'limit-replica');
    // One mistake, one finding: the typo is reported on the binding, with the suggestion.
    expect(await findings([dir])).toEqual(['binding-without-policy spec.policyName']);
  });

  it('report nothing when each folder is linted alone', async () => {
    const dir = tree('alone', 'something-else-entirely');
    expect(await findings([join(dir, 'policies')])).toEqual([]);
    expect(await findings([join(dir, 'bindings')])).toEqual([]);
    expect((await findings([dir])).sort()).toEqual(['binding-without-policy spec.policyName', 'policy-without-binding metadata.name']);
  });

  it('report nothing when the binding binds the policy', async () => {
    expect(await findings([tree('bound', 'limit-replicas')])).toEqual([]);
  });
});
