/** unknown-resource: suggestions, --kube-version, custom groups; the fixtures cover positions. */
import { describe, expect, it } from 'vitest';
import { closestName } from '../rules/unknown-resource.js';
import { lintText } from './helpers.js';

interface RuleSpec {
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  readonly operations?: readonly string[];
}

function manifest(rules: readonly RuleSpec[], extra = ''): string {
  const ruleText = rules
    .map((r) => `      - {operations: ${JSON.stringify(r.operations ?? ['CREATE'])}, apiGroups: ${JSON.stringify(r.apiGroups)}, apiVersions: ${JSON.stringify(r.apiVersions)}, resources: ${JSON.stringify(r.resources)}}`)
    .join('\n');
  return `${extra}apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: test
webhooks:
  - name: test.example.com
    failurePolicy: Fail
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: test, name: test, path: /validate}
    rules:
${ruleText}
`;
}

async function messages(rules: readonly RuleSpec[], options: { kubeVersion?: string; extra?: string } = {}): Promise<string[]> {
  const findings = await lintText(manifest(rules, options.extra), { only: ['unknown-resource'], ...(options.kubeVersion ? { kubeVersion: options.kubeVersion } : {}) });
  return findings.map((f) => `${f.fieldPath}: ${f.message}`);
}

/** The help of each finding: where a version or group that is not served is served instead goes there. */
async function helps(rules: readonly RuleSpec[], options: { kubeVersion?: string } = {}): Promise<string[]> {
  const findings = await lintText(manifest(rules), { only: ['unknown-resource'], ...(options.kubeVersion ? { kubeVersion: options.kubeVersion } : {}) });
  return findings.map((f) => f.help ?? '');
}

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
  versions:
    - {name: v1, served: true, storage: true, subresources: {status: {}}, schema: {openAPIV3Schema: {type: object}}}
---
`;

describe('closestName', () => {
  const core = [{ name: 'pods', kind: 'Pod' }, { name: 'podtemplates', kind: 'PodTemplate' }, { name: 'services', kind: 'Service' }, { name: 'endpoints', kind: 'Endpoints' }];
  it.each([
    ['pod', 'pods'],
    ['Pods', 'pods'],
    ['Pod', 'pods'],
    ['POD', 'pods'],
    ['podz', 'pods'],
    ['servics', 'services'],
    ['endpoint', 'endpoints'],
    ['podtemplate', 'podtemplates'],
  ])('%s → %s', (written, expected) => {
    expect(closestName(written, core, true)).toBe(expected);
  });

  it('suggests nothing far away, or on a tie', () => {
    expect(closestName('secrets', core, true)).toBeUndefined();
    expect(closestName('ab', [{ name: 'ac' }, { name: 'ad' }], true)).toBeUndefined();
  });

  it('without typos allowed, only case, kind and singular/plural matches', () => {
    expect(closestName('podz', core, false)).toBeUndefined();
    expect(closestName('Pod', core, false)).toBe('pods');
  });

  it('plural of -y and -s names', () => {
    expect(closestName('policy', [{ name: 'policies' }], false)).toBe('policies');
    expect(closestName('ingress', [{ name: 'ingresses' }], false)).toBe('ingresses');
  });
});

describe('unknown-resource', () => {
  it('checks a resource against every listed group and version', async () => {
    expect(await messages([{ apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['pods', 'deployments', 'deployments/scale', 'pods/eviction'] }])).toEqual([]);
    expect(await messages([{ apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['jobs'] }])).toEqual([
      'webhooks[0].rules[0].resources[0]: "jobs" is not a resource of the core group ("") or "apps" in 1.35, so webhook "test.example.com" is never called for it; "jobs" is in "batch"',
    ]);
  });

  it('follows --kube-version', async () => {
    const rule = { apiGroups: ['networking.k8s.io'], apiVersions: ['v1beta1'], resources: ['ingresses'] };
    expect(await messages([rule], { kubeVersion: '1.21' })).toEqual([]);
    expect(await messages([rule], { kubeVersion: '1.22' })).toHaveLength(1);
    const cronjobs = { apiGroups: ['batch'], apiVersions: ['v1beta1'], resources: ['cronjobs'] };
    expect(await messages([cronjobs], { kubeVersion: '1.24' })).toEqual([]);
    expect(await messages([cronjobs], { kubeVersion: '1.25' })).toEqual([
      'webhooks[0].rules[0].apiVersions[0]: batch/v1beta1 is not served in 1.25 (removed in 1.25): this rule never calls webhook "test.example.com" for "cronjobs"',
    ]);
    expect(await helps([cronjobs], { kubeVersion: '1.25' })).toEqual([expect.stringMatching(/^"cronjobs" is served as batch\/v1: /)]);
  });

  it('reports a resource added after the target version at the resource', async () => {
    expect(await messages([{ apiGroups: ['networking.k8s.io'], apiVersions: ['v1'], resources: ['ipaddresses'] }], { kubeVersion: '1.32' })).toEqual([
      'webhooks[0].rules[0].resources[0]: "ipaddresses" is not served by "networking.k8s.io" in 1.32 (served from 1.33), so webhook "test.example.com" is never called for it',
    ]);
    // Served in another version of the group: the message says which.
    expect(await messages([{ apiGroups: ['storage.k8s.io'], apiVersions: ['v1'], resources: ['csistoragecapacities'] }], { kubeVersion: '1.23' })).toEqual([
      'webhooks[0].rules[0].resources[0]: "csistoragecapacities" is not served as storage.k8s.io/v1 in 1.23, so webhook "test.example.com" is never called for it; it is served as storage.k8s.io/v1beta1',
    ]);
  });

  it('skips `*` groups and groups without a CRD in the run', async () => {
    expect(await messages([{ apiGroups: ['*'], apiVersions: ['*'], resources: ['pod'] }])).toEqual([]);
    expect(await messages([{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widget'] }])).toEqual([]);
    expect(await messages([{ apiGroups: ['', 'example.com'], apiVersions: ['v1'], resources: ['jobs'] }])).toEqual([]);
  });

  it('checks the groups of the run\'s CRDs, reporting only near misses of their names', async () => {
    const extra = CRD;
    expect(await messages([{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widget', 'gadgets', 'widgetz', 'widgets/status'] }], { extra })).toEqual([
      'webhooks[0].rules[0].resources[0]: "widget" is not a resource of "example.com" in 1.35, so webhook "test.example.com" is never called for it; did you mean "widgets"?',
    ]);
  });

  it('does not report built-in APIs that are off by default, unless a version served by default has the resource and the rule leaves it out', async () => {
    expect(
      await messages([
        { apiGroups: ['coordination.k8s.io'], apiVersions: ['v1beta1'], resources: ['leasecandidates'] },
        { apiGroups: ['resource.k8s.io'], apiVersions: ['v1', 'v1beta1'], resources: ['resourceclaims'] },
        { apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['validatingadmissionpolicies'] },
      ]),
    ).toEqual([]);
    // A cluster that keeps its defaults serves these as v1 only: the rule matches none of their writes.
    expect(
      await messages([
        { apiGroups: ['resource.k8s.io'], apiVersions: ['v1beta1'], resources: ['resourceclaims'] },
        { apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['v1beta1'], resources: ['validatingadmissionpolicies'] },
      ]),
    ).toEqual([
      'webhooks[0].rules[0].apiVersions[0]: resource.k8s.io/v1beta1 is not served in 1.35 (off by default: --runtime-config switches it on): this rule never calls webhook "test.example.com" for "resourceclaims"',
      'webhooks[0].rules[1].apiVersions[0]: admissionregistration.k8s.io/v1beta1 is not served in 1.35 (off by default: --runtime-config switches it on): this rule never calls webhook "test.example.com" for "validatingadmissionpolicies"',
    ]);
  });

  it('reports a dead version once, naming every resource it cuts off', async () => {
    expect(await messages([{ apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1beta1'], resources: ['roles', 'rolebindings', 'roles/*'] }])).toEqual([
      'webhooks[0].rules[0].apiVersions[0]: rbac.authorization.k8s.io/v1beta1 is not served in 1.35 (removed in 1.22): this rule never calls webhook "test.example.com" for "roles", "rolebindings" and "roles/*"',
    ]);
    expect(await helps([{ apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1beta1'], resources: ['roles', 'rolebindings', 'roles/*'] }])).toEqual([
      expect.stringMatching(/^"roles", "rolebindings" and "roles\/\*" are served as rbac\.authorization\.k8s\.io\/v1: /),
    ]);
  });
});
