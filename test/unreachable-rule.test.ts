/** unreachable-rule: what it leaves to unknown-resource, runtime-managed webhooks, --kube-version. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

function manifest(webhookBody: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: test
webhooks:
  - name: test.example.com
    failurePolicy: Ignore
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: test, name: test, path: /validate}
${webhookBody}`;
}

async function findings(text: string, only: string[] = ['unreachable-rule'], kubeVersion?: string): Promise<string[]> {
  const found = await lintText(text, { only, ...(kubeVersion ? { kubeVersion } : {}) });
  return found.map((f) => `${f.ruleId} ${f.fieldPath}`);
}

describe('unreachable-rule', () => {
  it('leaves entries that unknown-resource reports to it', async () => {
    const text = manifest(`    rules:
      - {operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pod", "pods/exec"]}
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pod", "namespaces"], scope: Namespaced}
      - {operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pod"]}
`);
    expect(await findings(text, ['unreachable-rule', 'unknown-resource'])).toEqual([
      'unknown-resource webhooks[0].rules[0].resources[0]',
      'unknown-resource webhooks[0].rules[1].resources[0]',
      'unknown-resource webhooks[0].rules[2].resources[0]',
    ]);
  });

  it('reports a written empty rules list, not an absent one', async () => {
    expect(await findings(manifest('    rules: []\n'))).toEqual(['unreachable-rule webhooks[0].rules']);
    expect(await findings(manifest(''))).toEqual([]);
    expect(await findings(manifest('    objectSelector: {matchLabels: {a: b}}\n'))).toEqual([]);
  });

  it('reports the virtual review resources from Kubernetes 1.37 only', async () => {
    const text = manifest(`    rules:
      - {operations: ["CREATE"], apiGroups: ["authorization.k8s.io"], apiVersions: ["v1"], resources: ["localsubjectaccessreviews", "selfsubjectrulesreviews"]}
`);
    expect(await findings(text, ['unreachable-rule'], '1.36')).toEqual([]);
    expect(await findings(text, ['unreachable-rule'], '1.37')).toEqual(['unreachable-rule webhooks[0].rules[0].resources[0]', 'unreachable-rule webhooks[0].rules[0].resources[1]']);
  });

  it('does not report CONNECT among other operations', async () => {
    const text = manifest(`    rules:
      - {operations: ["CREATE", "CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods", "pods/exec"]}
`);
    expect(await findings(text)).toEqual([]);
  });

  it('reports CONNECT-only and read-only subresources under other operations', async () => {
    const text = manifest(`    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/exec", "pods/attach"]}
      - {operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/log"]}
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods", "services/proxy"]}
`);
    expect(await findings(text)).toEqual([
      'unreachable-rule webhooks[0].rules[0].operations',
      'unreachable-rule webhooks[0].rules[1].operations',
      'unreachable-rule webhooks[0].rules[2].resources[1]',
    ]);
  });

  it('judges subresources whose meaning is the same in every group under apiGroups ["*"]', async () => {
    const dead = manifest(`    rules:
      - {operations: ["CREATE", "UPDATE", "DELETE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["pods/exec", "pods/portforward", "nodes/proxy", "pods/log"]}
`);
    expect(await findings(dead)).toEqual(['unreachable-rule webhooks[0].rules[0].operations']);
    // pods/status is written; "widgets/exec" is no subresource discovery knows: both may match.
    const live = manifest(`    rules:
      - {operations: ["UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["pods/exec", "pods/status", "widgets/exec"]}
`);
    expect(await findings(live)).toEqual(['unreachable-rule webhooks[0].rules[0].resources[0]']);
  });

  it('makes no findings about calls on a webhook that is never called', async () => {
    const text = manifest(`    timeoutSeconds: 25
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/exec"]}
`);
    const all = await lintText(text);
    expect(all.map((f) => f.ruleId).sort()).toEqual(['unreachable-rule']);
  });

  it('reports the objectSelector only when CONNECT-only rules remain that are not dead otherwise', async () => {
    const dead = manifest(`    objectSelector: {matchLabels: {audit: "true"}}
    rules:
      - {operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`);
    expect(await findings(dead)).toEqual(['unreachable-rule webhooks[0].rules[0].operations[0]']);
    const empty = manifest(`    objectSelector: {}
    rules:
      - {operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/exec"]}
`);
    expect(await findings(empty)).toEqual([]);
    // A group the linter does not know: the selector still never matches CONNECT.
    const custom = manifest(`    objectSelector: {matchExpressions: [{key: audit, operator: Exists}]}
    rules:
      - {operations: ["CONNECT"], apiGroups: ["subresources.kubevirt.io"], apiVersions: ["v1"], resources: ["virtualmachineinstances/console"]}
`);
    expect(await findings(custom)).toEqual(['unreachable-rule webhooks[0].objectSelector']);
  });

  it('checks scope only when every entry is known', async () => {
    const text = manifest(`    rules:
      - {operations: ["CREATE"], apiGroups: ["", "example.com"], apiVersions: ["v1"], resources: ["pods", "widgets"], scope: Cluster}
`);
    expect(await findings(text)).toEqual([]);
  });

  it('checks CRDs of the run for scope', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterwidgets.example.com
spec:
  group: example.com
  names: {plural: clusterwidgets, kind: ClusterWidget}
  scope: Cluster
  versions:
    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
---
`;
    const text = `${crd}${manifest(`    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["clusterwidgets"], scope: Namespaced}
`)}`;
    expect(await findings(text)).toEqual(['unreachable-rule webhooks[0].rules[0].scope']);
  });
});
