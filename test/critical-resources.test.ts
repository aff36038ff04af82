/** critical-resources beyond its fixtures: the system-object labels, the kube-version switch, the split with matches-kube-system. */
import { describe, expect, it } from 'vitest';
import { SYSTEM_OBJECT_LABELS, systemObjectLabels } from '../src/match/kube-system.js';
import { lintText } from './helpers.js';

const config = (webhook: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
  - name: w.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: policy, name: policy, path: /validate}
${webhook}`;

const lintRules = async (text: string, kubeVersion?: string) => {
  const findings = await lintText(text, { only: ['critical-resources', 'matches-kube-system'], ...(kubeVersion ? { kubeVersion } : {}) });
  return findings.map((f) => `${f.ruleId} ${f.severity} ${f.fieldPath} ${f.message.replace(/.*: /, '')}`);
};

describe('systemObjectLabels', () => {
  it('meets requirements on system label keys and leaves the others unmet', () => {
    expect(SYSTEM_OBJECT_LABELS.has('kubernetes.io/os')).toBe(true);
    expect(SYSTEM_OBJECT_LABELS.has('node-role.kubernetes.io/control-plane')).toBe(true);
    expect(SYSTEM_OBJECT_LABELS.has('k8s-app')).toBe(true);
    expect(SYSTEM_OBJECT_LABELS.has('example.com/inject')).toBe(false);
    // A key is a system label because system objects carry it, not because of its prefix.
    expect(SYSTEM_OBJECT_LABELS.has('widgets.x-k8s.io/managed')).toBe(false);
    expect(SYSTEM_OBJECT_LABELS.has('jobset.sigs.k8s.io/jobset-name')).toBe(false);
    expect(
      systemObjectLabels({
        matchLabels: { 'kubernetes.io/os': 'linux', 'example.com/inject': 'true' },
        matchExpressions: [
          { key: 'k8s-app', operator: 'In', values: ['kube-dns', 'kube-proxy'] },
          { key: 'k8s-app', operator: 'NotIn', values: ['kube-dns'] },
          { key: 'topology.kubernetes.io/zone', operator: 'Exists' },
          { key: 'tier', operator: 'DoesNotExist' },
        ],
      }),
    ).toEqual({ 'kubernetes.io/os': 'linux', 'k8s-app': 'kube-proxy', 'topology.kubernetes.io/zone': 'system' });
    expect(systemObjectLabels(undefined)).toEqual({});
  });

  it('meets an opt-in only where system objects carry that label with that value', () => {
    // An opt-in label under a k8s.io domain: no system object carries it.
    expect(systemObjectLabels({ matchExpressions: [{ key: 'widgets.sigs.k8s.io/name', operator: 'Exists' }] })).toEqual({});
    // A closed value set: tier is control-plane or node, never "frontend".
    expect(systemObjectLabels({ matchLabels: { tier: 'frontend' } })).toEqual({});
    expect(systemObjectLabels({ matchLabels: { tier: 'control-plane' } })).toEqual({ tier: 'control-plane' });
    // Keys add-ons carry with values of their own: Exists is met, a particular value is not known.
    expect(systemObjectLabels({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'Exists' }] })).toEqual({ 'app.kubernetes.io/name': 'system' });
    expect(systemObjectLabels({ matchLabels: { 'app.kubernetes.io/name': 'widget-operator' } })).toEqual({});
    // Exists on a closed set picks a value that a NotIn leaves.
    expect(
      systemObjectLabels({
        matchExpressions: [
          { key: 'tier', operator: 'Exists' },
          { key: 'tier', operator: 'NotIn', values: ['control-plane'] },
        ],
      }),
    ).toEqual({ tier: 'node' });
  });
});

describe('critical-resources', () => {
  const everything = config(`    failurePolicy: Fail
    timeoutSeconds: 5
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}
`);

  it('counts TokenReviews and SubjectAccessReviews before 1.37 only', async () => {
    // The message names the first three and counts the rest: a webhook on the reviews alone shows them.
    const reviews = config(`    failurePolicy: Fail
    rules:
      - {operations: ["CREATE"], apiGroups: ["authentication.k8s.io"], apiVersions: ["v1"], resources: ["tokenreviews"]}
      - {operations: ["CREATE"], apiGroups: ["authorization.k8s.io"], apiVersions: ["v1"], resources: ["*"]}
`);
    expect(await lintRules(reviews, '1.36')).toEqual(['critical-resources error webhooks[0].rules[0] tokenreviews, subjectaccessreviews and 3 more']);
    expect(await lintRules(reviews, '1.37')).toEqual([]);
    const before = (await lintRules(everything, '1.36')).find((f) => f.startsWith('critical-resources'));
    expect(before).toMatch(/ leases in kube-node-lease, nodes, tokenreviews and 9 more$/);
    const after = (await lintRules(everything, '1.37')).find((f) => f.startsWith('critical-resources'));
    // The five reviews fewer: 12 items before 1.37 (the kubernetes Service's endpoints are one), 7 from it.
    expect(after).toMatch(/ leases in kube-node-lease, nodes and 5 more$/);
  });

  it('leaves the kube-system pods, workloads and leases to matches-kube-system', async () => {
    const findings = await lintRules(everything);
    expect(findings.filter((f) => f.startsWith('matches-kube-system'))).toHaveLength(1);
    const critical = findings.find((f) => f.startsWith('critical-resources'));
    expect(critical).not.toContain('in kube-system');
    // A webhook that matches-kube-system does not report (its objectSelector is opt-in) is not
    // matched for those either: the system's pods do not carry the label.
    const optIn = config(`    failurePolicy: Fail
    objectSelector: {matchLabels: {example.com/inject: "true"}}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`);
    expect(await lintRules(optIn)).toEqual([]);
  });

  it('leaves out the kube-system leases exactly when matches-kube-system reports the webhook', async () => {
    const leases = (conditions: string) =>
      config(`    failurePolicy: Fail
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: ["coordination.k8s.io"], apiVersions: ["v1"], resources: ["leases"]}
${conditions}`);
    expect(await lintRules(leases(''))).toEqual([
      'critical-resources error webhooks[0].rules[0] leases in kube-node-lease',
      'matches-kube-system error webhooks[0].rules[0] webhook "w.example.com" intercepts leases (coordination.k8s.io) in kube-system with failurePolicy Fail',
    ]);
    // When matches-kube-system is off, nobody else reports the kube-system leases: this rule does
    // (one cause, one finding, whichever rules run).
    expect((await lintText(leases(''), { only: ['critical-resources'] })).map((f) => f.message.replace(/.*: /, ''))).toEqual(['leases in kube-node-lease and leases in kube-system']);
    // The same with --rule matches-kube-system=off (it used to silence both rules).
    const off = await lintText(leases(''), { severityOverrides: new Map([['matches-kube-system', 'off']]) });
    expect(off.filter((f) => f.ruleId === 'critical-resources').map((f) => f.message.replace(/.*: /, ''))).toEqual(['leases in kube-node-lease and leases in kube-system']);
    // Lease renewals are UPDATEs: a condition that skips only CREATE leaves them intercepted.
    // matches-kube-system evaluates every listed operation, reports the kube-system leases, and
    // critical-resources keeps only the kube-node-lease ones.
    const updatesOnly = leases(`    matchConditions:
      - {name: updates-only, expression: "request.operation != 'CREATE'"}
`);
    expect(await lintRules(updatesOnly)).toEqual([
      'critical-resources error webhooks[0].rules[0] leases (UPDATE) in kube-node-lease',
      'matches-kube-system error webhooks[0].rules[0] webhook "w.example.com" intercepts leases (coordination.k8s.io) in kube-system with failurePolicy Fail',
    ]);
  });

  it('counts only the writes the control plane keeps making: not the kube-system Namespace, not the kubernetes Service object', async () => {
    // Both are created only when missing (systemnamespaces, kubernetesservice controllers), and
    // NamespaceLifecycle forbids deleting kube-system: a webhook on them intercepts no recovery write.
    const bootstrapOnly = config(`    failurePolicy: Fail
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces", "services"]}
`);
    expect((await lintRules(bootstrapOnly)).filter((f) => f.startsWith('critical-resources'))).toEqual([]);
    // The endpoint reconciler keeps rewriting the kubernetes Service's endpoints: named as that object.
    const endpoints = config(`    failurePolicy: Fail
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: ["", "discovery.k8s.io"], apiVersions: ["v1"], resources: ["endpoints", "endpointslices"]}
    namespaceSelector:
      matchExpressions:
        - {key: kubernetes.io/metadata.name, operator: NotIn, values: ["kube-system"]}
`);
    expect(await lintRules(endpoints)).toEqual([
      'critical-resources error webhooks[0].rules[0] endpoints and endpointslices of the default/kubernetes Service',
    ]);
  });

  it('reports Ignore only above 15 seconds', async () => {
    const ignore = (timeout: number) =>
      config(`    failurePolicy: Ignore
    timeoutSeconds: ${timeout}
    rules:
      - {operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["nodes/status"]}
`);
    expect(await lintRules(ignore(15))).toEqual([]);
    expect(await lintRules(ignore(16))).toEqual(['critical-resources warning webhooks[0].rules[0] nodes/status']);
  });

  it('does not count cluster-scoped resources for a Namespaced rule', async () => {
    const namespaced = config(`    failurePolicy: Fail
    namespaceSelector:
      matchExpressions:
        - {key: kubernetes.io/metadata.name, operator: NotIn, values: ["kube-system", "kube-node-lease", "default"]}
    rules:
      - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"], scope: Namespaced}
`);
    expect(await lintRules(namespaced)).toEqual([]);
  });
});
