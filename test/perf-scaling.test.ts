/**
 * Cross-object rules must not scan the whole run once per object: their work grows linearly
 * with the run. Work is counted, not timed: every element the rules read from the run's object
 * lists (context.webhookConfigurations, policies, namespaces) is counted through a Proxy, and
 * doubling the run must not much more than double the count (a per-object scan quadruples it).
 */
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { loadRun } from '../src/engine/lint.js';
import { Discovery } from '../src/kube/discovery/discovery.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import type { ObjectRule } from '../src/rule.js';
import { RunMemo } from '../src/run-scope.js';
import { prepareCel } from '../src/cel/library.js';

const RESOURCES = [
  ['', 'pods'],
  ['', 'configmaps'],
  ['apps', 'deployments'],
  ['batch', 'jobs'],
] as const;

function webhookConfiguration(i: number): string {
  const mutating = i % 3 === 0;
  const [group, resource] = RESOURCES[i % RESOURCES.length]!;
  const hooks = [0, 1]
    .map(
      (j) => `  - name: w${j}.c${i}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: ${[5, 10, 15][(i + j) % 3]}
    clientConfig:
      service: {namespace: ns${i % 7}, name: svc}
    rules:
      - operations: ["CREATE", "UPDATE"]
        apiGroups: ["${group}"]
        apiVersions: ["v1"]
        resources: ["${resource}"]
${(i + j) % 3 === 0 ? `    namespaceSelector:\n      matchExpressions:\n        - {key: opt, operator: NotIn, values: ["out"]}\n` : (i + j) % 3 === 1 ? `    namespaceSelector:\n      matchLabels: {team${i % 5}: "on"}\n` : ''}${(i + j) % 4 === 0 ? `    objectSelector:\n      matchLabels: {team${i % 5}: "on"}\n` : ''}${(i + j) % 5 === 0 ? `    matchConditions:\n      - name: not-dry-run\n        expression: "!request.dryRun"\n` : ''}`,
    )
    .join('');
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ${mutating ? 'Mutating' : 'Validating'}WebhookConfiguration
metadata:
  name: ${mutating ? 'm' : 'v'}-${i}
webhooks:
${hooks}`;
}

function policies(i: number): string {
  const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: policy-${i}
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
`;
  // Bound, unbound, bound through a typo, bound by the wrong kind of binding.
  const target = [`policy-${i}`, undefined, `polcy-${i}`, `policy-${i}`][i % 4];
  if (target === undefined) return policy;
  const kind = i % 4 === 3 ? 'MutatingAdmissionPolicyBinding' : 'ValidatingAdmissionPolicyBinding';
  return `${policy}---
apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}
metadata:
  name: binding-${i}
spec:
  policyName: ${target}
${kind === 'ValidatingAdmissionPolicyBinding' ? '  validationActions: ["Deny"]\n' : ''}`;
}

const namespace = (i: number): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns${i}\n  labels: {team${i % 5}: "on"${i % 2 === 0 ? ', opt: "out"' : ''}}\n`;

/** An array whose element reads (index access and iteration) are counted. */
function counted<T>(items: readonly T[], counter: { reads: number }): readonly T[] {
  return new Proxy(items as T[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads++;
      return Reflect.get(target, key, receiver);
    },
  });
}

/** Element reads of the run's lists while every object rule checks every object of a run of size n. */
function reads(n: number): number {
  const text = [
    ...Array.from({ length: n }, (_, i) => webhookConfiguration(i)),
    ...Array.from({ length: n }, (_, i) => policies(i)),
    ...Array.from({ length: Math.ceil(n / 10) }, (_, i) => namespace(i)),
  ].join('---\n');
  const run = loadRun(['-'], () => new TextEncoder().encode(text));
  const counter = { reads: 0 };
  const scope = {
    webhookConfigurations: counted(run.webhookConfigurations, counter),
    namespaces: counted(run.namespaces, counter),
    policies: counted(run.policies, counter),
    workloads: run.workloads,
    bundleWorkloads: run.bundleWorkloads,
    bundlesWithUnreadWorkloads: run.bundlesWithUnreadWorkloads,
    services: run.services,
    servicesOutsideBundles: run.servicesOutsideBundles,
    secretKeys: run.secretKeys,
    podSecurity: run.podSecurity,
    unreadable: [],
    kustomizePatches: [],
    kustomizations: [],
    kubeVersion: DEFAULT_KUBE_VERSION,
    kubeVersionDefaulted: false,
    trustedNamespaceLabels: [],
    discovery: new Discovery(DEFAULT_KUBE_VERSION),
    memo: new RunMemo(),
    isEnabled: () => true,
    runsAsDesigned: () => true,
  };
  for (const rule of rules.filter((r): r is ObjectRule => r.scope === 'object')) {
    const options = Object.fromEntries(Object.entries(rule.meta.options ?? {}).map(([name, option]) => [name, option.default]));
    const checks = rule.create({ ...scope, options });
    for (const object of run.webhookConfigurations) if (object.decodable && rule.meta.appliesTo.includes(object.kind)) checks.webhookConfiguration?.(object);
    for (const object of run.policies) if (object.decodable && rule.meta.appliesTo.includes(object.kind)) checks.policy?.(object);
    for (const object of run.namespaces) checks.namespace?.(object);
  }
  return counter.reads;
}

describe('cross-object rules scale linearly', () => {
  it('doubling the run at most a little more than doubles what the rules read of it', async () => {
    await prepareCel();
    const small = reads(100);
    const large = reads(200);
    // (namespace-opts-out's opt-in report, an option, compares each Namespace with the others: not run here.)
    expect(small).toBeGreaterThan(0);
    // Linear work doubles; a scan of the run per object quadruples.
    expect(large / small).toBeLessThan(2.2);
  }, 60_000);
});
