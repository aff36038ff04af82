/**
 * `simulate --object` (and `--old-object`): the request's object fills in the flags and makes the
 * path exact (object selectors, matchConditions, policy validations), and PodSecurity appears in
 * it as the built-in validating plugin it is (fixtures/simulate/pod-security).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { formatJson } from '../src/simulate/format-json.js';
import { formatMarkdown } from '../src/simulate/format-markdown.js';
import { formatText } from '../src/simulate/format-text.js';
import { sequenceDiagram } from '../src/simulate/mermaid.js';
import type { AdmissionPath } from '../src/simulate/path.js';
import type { RequestFlags } from '../src/simulate/request-flags.js';
import { simulate, type SimulateOptions } from '../src/simulate/simulate.js';
import { podSecuritySettingsFrom } from '../src/psa/settings.js';
import { runCli } from './run-cli.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'simulate', 'pod-security');
const CLUSTER = join(DIR, 'cluster.yaml');
const work = mkdtempSync(join(tmpdir(), 'simulate-psa-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let counter = 0;
function file(text: string): string {
  const path = join(work, `f${++counter}.yaml`);
  writeFileSync(path, text);
  return path;
}

async function path(options: Partial<SimulateOptions> & { flags?: RequestFlags } = {}): Promise<AdmissionPath> {
  return simulate({ paths: [CLUSTER], flags: {}, kubeVersion: DEFAULT_KUBE_VERSION, ...options });
}

const PRIVILEGED_REJECTION =
  'pods "debug" is forbidden: violates PodSecurity "restricted:v1.35": privileged (container "shell" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "shell" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "shell" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "shell" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "shell" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('simulate --object: PodSecurity', () => {
  it('a privileged Pod in a restricted namespace: rejected with the API server\'s message, after the mutating webhooks, before the validating ones', async () => {
    const result = await path({ object: join(DIR, 'privileged-pod.yaml') });
    // The object fills in the request: CREATE pods in its namespace, with its labels.
    expect(result.request).toMatchObject({ operation: 'CREATE', group: '', version: 'v1', resource: 'pods', namespace: 'payments', objectLabels: { 'image-policy.example.com/check': 'true' } });
    expect(result.podSecurity).toEqual({
      checks: 'pod',
      policy: 'enforce restricted:v1.35, warn restricted:v1.35, audit privileged:latest',
      policyFrom: "the labels of the namespace's manifest, over the plugin's built-in defaults (no --pod-security-config)",
      result: { outcome: 'rejected', status: '403 Forbidden', message: PRIVILEGED_REJECTION },
    });
    const text = formatText(result);
    expect(text).toContain(`  REJECTED (403 Forbidden): ${PRIVILEGED_REJECTION}\n  the request stops here: no validating policy or webhook is called, nothing is stored\n`);
    // In the path: after the mutating webhooks, before the validating ones, which it keeps from being called.
    expect(text.indexOf('Mutating webhooks')).toBeLessThan(text.indexOf('PodSecurity (built-in'));
    expect(text.indexOf('PodSecurity (built-in')).toBeLessThan(text.indexOf('Validating webhooks'));
    expect(text).toContain('Validating webhooks (all at once, in parallel, after the mutations; not reached: PodSecurity rejects the request):');
    expect(text).toContain('evaluated on the object as given: the mutating webhooks above run first and may change it');
    // The validating webhook the object's label selects is not reached: no latency, no failure row for it.
    expect(text).toContain('Worst-case latency: 5s (mutating webhooks in sequence 5s + slowest validating webhook 0s)');
    expect(text).not.toContain('image-policy / labelled.image-policy.example.com (validating)');
    expect(sequenceDiagram(result)).toContain('  Note over A: PodSecurity rejects the request\n  A-->>C: 403 Forbidden (PodSecurity)\n');
    expect(formatMarkdown(result)).toContain('### Validating webhooks (in parallel) — not reached: PodSecurity rejects the request');
    expect(JSON.parse(formatJson(result)).podSecurity.result.message).toBe(PRIVILEGED_REJECTION);
  });

  it('a Deployment: admitted with PSA\'s warning, its Pods rejected when created; object selectors and matchConditions exact', async () => {
    const result = await path({ object: join(DIR, 'deployment.yaml') });
    expect(result.request).toMatchObject({ operation: 'CREATE', group: 'apps', resource: 'deployments', namespace: 'payments' });
    const psa = result.podSecurity!;
    expect(psa.checks).toBe('pod-template');
    expect(psa.result).toMatchObject({ outcome: 'admitted', audit: null });
    const admitted = psa.result as { readonly warnings: readonly string[]; readonly pods?: string };
    expect(admitted.warnings).toEqual([expect.stringMatching(/^would violate PodSecurity "restricted:v1\.35": allowPrivilegeEscalation != false \(container "api" must set securityContext\.allowPrivilegeEscalation=false\), unrestricted capabilities/)]);
    expect(admitted.pods).toMatch(/^its Pods are checked when they are created, and rejected: violates PodSecurity "restricted:v1\.35": allowPrivilegeEscalation != false/);
    // replicas: 5 > 3: the matchCondition that reads the object is evaluated, not "depends on".
    expect(result.validating.map((entry) => [entry.webhook, entry.called, entry.reason])).toEqual([
      ['replicas.image-policy.example.com', true, null],
      ['labelled.image-policy.example.com', false, 'objectSelector does not select the object'],
    ]);
    const text = formatText(result);
    expect(text).toContain('  warning to the client: would violate PodSecurity "restricted:v1.35"');
    expect(text).toContain('Validating webhooks (all at once, in parallel, after the mutations):');
  });

  it('without --object: a Pod CREATE in an enforce=restricted namespace is not "nothing is called"', async () => {
    const namespaceOnly = file('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: payments\n  labels:\n    pod-security.kubernetes.io/enforce: restricted\n');
    const result = await simulate({ paths: [namespaceOnly], flags: { operation: 'CREATE', resource: 'pods', namespace: 'payments' }, kubeVersion: DEFAULT_KUBE_VERSION });
    expect(result.podSecurity?.result).toEqual({ outcome: 'depends', reason: 'the Pod is checked against enforce restricted:latest: a Pod that fails it is rejected; give --object <file> to evaluate it' });
    const text = formatText(result);
    expect(text).not.toContain('nothing is called: no webhook or policy can delay or reject this request');
    expect(text).toContain('  no webhook or policy is called; PodSecurity can still reject the request (above)');
    // A namespace without labels, with the built-in privileged defaults: nothing to check.
    const plain = await simulate({ paths: [namespaceOnly], flags: { operation: 'CREATE', resource: 'pods', namespace: 'other' }, kubeVersion: DEFAULT_KUBE_VERSION });
    expect(plain.podSecurity?.result).toEqual({ outcome: 'not-checked', reason: 'every mode of the namespace is privileged: nothing to check' });
    expect(formatText(plain)).toContain('nothing is called: no webhook or policy can delay or reject this request');
  });

  it('a Pod that passes: admitted, and the validating webhooks are reached', async () => {
    const result = await path({ object: join(DIR, 'restricted-pod.yaml') });
    expect(result.podSecurity?.result).toEqual({ outcome: 'admitted', warnings: [], audit: null });
  });

  it('the configured defaults and exemptions apply (--pod-security-config)', async () => {
    const config = file('apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n  audit: restricted\nexemptions:\n  runtimeClasses: [kata]\n');
    const pod = file('apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: elsewhere}\nspec:\n  containers: [{name: app, image: nginx}]\n');
    const result = await path({ object: pod, podSecurity: podSecuritySettingsFrom({ podSecurityConfig: config }) });
    expect(result.podSecurity?.policyFrom).toBe(`no Namespace manifest in the run: the defaults of ${config}`);
    expect(result.podSecurity?.result).toMatchObject({ outcome: 'admitted', warnings: [], audit: expect.stringMatching(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/) });
    const kata = file('apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: payments}\nspec:\n  runtimeClassName: kata\n  containers: [{name: app, image: nginx, securityContext: {privileged: true}}]\n');
    expect((await path({ object: kata, podSecurity: podSecuritySettingsFrom({ podSecurityConfig: config }) })).podSecurity?.result).toEqual({ outcome: 'not-checked', reason: 'runtimeClassName kata is exempt in the PodSecurity configuration' });
  });

  it('UPDATE with --old-object: an update that changes no image is not checked; the old labels are the old object\'s', async () => {
    const before = file('apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: payments}\nspec:\n  containers: [{name: shell, image: busybox:1.36, securityContext: {privileged: true}}]\n');
    const relabelled = file('apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: payments, labels: {image-policy.example.com/check: "true"}}\nspec:\n  containers: [{name: shell, image: busybox:1.36, securityContext: {privileged: true}}]\n');
    const result = await path({ object: relabelled, oldObject: before });
    expect(result.request.operation).toBe('UPDATE');
    expect(result.podSecurity?.result.outcome).toBe('not-checked');
    // The new object carries the label: the objectSelector matches (the old or the new object's labels).
    expect(result.validating.find((entry) => entry.webhook === 'labelled.image-policy.example.com')?.called).toBe(true);
    const newImage = file('apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: payments}\nspec:\n  containers: [{name: shell, image: busybox:1.37, securityContext: {privileged: true}}]\n');
    expect((await path({ object: newImage, oldObject: before })).podSecurity?.result).toMatchObject({ outcome: 'rejected' });
  });

  it('a Namespace with an invalid Pod Security label is rejected as Invalid', async () => {
    const namespace = file('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-b\n  labels:\n    pod-security.kubernetes.io/enforce: Restricted\n');
    const result = await path({ object: namespace });
    expect(result.request).toMatchObject({ resource: 'namespaces', namespace: 'team-b' });
    expect(result.podSecurity?.result).toEqual({
      outcome: 'rejected',
      status: '422 Invalid',
      message: 'Namespace "team-b" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "Restricted": must be one of privileged, baseline, restricted',
    });
  });

  it('before 1.23 the plugin is off', async () => {
    const result = await simulate({ paths: [CLUSTER], flags: {}, object: join(DIR, 'privileged-pod.yaml'), kubeVersion: { major: 1, minor: 22 } });
    expect(result.podSecurity?.result).toEqual({ outcome: 'not-checked', reason: 'the PodSecurity admission plugin is off by default before Kubernetes 1.23' });
  });
});

describe('simulate --object: the request', () => {
  it('an object that names no namespace is in --namespace, else default (and the output says so)', async () => {
    const pod = file('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: app, image: nginx}]\n');
    const assumed = await path({ object: pod });
    expect(assumed.request).toMatchObject({ namespace: 'default', namespaceAssumed: true });
    expect(formatText(assumed)).toContain(`  object: Pod "p" from ${pod}; it names no namespace, so default (kubectl's default; --namespace sets another)`);
    expect((await path({ object: pod, flags: { namespace: 'payments' } })).request).toMatchObject({ namespace: 'payments', namespaceAssumed: false });
  });

  it('flags that contradict the object are usage errors (the namespace as kubectl says it)', async () => {
    const object = join(DIR, 'privileged-pod.yaml');
    await expect(path({ object, flags: { namespace: 'other' } })).rejects.toThrow('the namespace from the provided object "payments" does not match the namespace "other"');
    await expect(path({ object, flags: { resource: 'deployments', group: 'apps' } })).rejects.toThrow('--group apps disagrees with the object');
    await expect(path({ object, flags: { objectLabels: 'a=b' } })).rejects.toThrow("--object-labels and --object: the object's labels are its metadata.labels");
    await expect(path({ object, flags: { operation: 'CONNECT' } })).rejects.toThrow('--object: a CONNECT request carries options, not an object');
    await expect(path({ oldObject: object })).rejects.toThrow('--old-object needs --object');
    await expect(path({ object: file('kind: Pod\napiVersion: v1\nmetadata: {name: [a}\n') })).rejects.toThrow(/^--object .*\.yaml:3:\d+: /);
    await expect(path({ object: file('apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n') })).rejects.toThrow('v1 has no kind Widget');
    await expect(path({ object: file(`${'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n'}---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n`) })).rejects.toThrow('holds 2 objects; a request carries one');
  });

  it('reads the object from standard input, once', async () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: payments}\nspec:\n  containers: [{name: shell, image: busybox, securityContext: {privileged: true}}]\n';
    const result = await runCli(['simulate', CLUSTER, '--object', '-', '--format', 'json'], pod);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).podSecurity.result.outcome).toBe('rejected');
    const both = await runCli(['simulate', '-', '--object', '-'], pod);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('the paths and --object both read standard input; it can be read once');
  });

  it('policy validations that read the object are evaluated', async () => {
    const policy = file(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  variables:
    - name: replicas
      expression: "has(object.spec.replicas) ? object.spec.replicas : 1"
  validations:
    - expression: "variables.replicas <= 3"
      messageExpression: "'replicas ' + string(variables.replicas) + ' is above 3'"
    - expression: "object.metadata.name.size() < 64"
    - expression: "request.userInfo.username != 'bob'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit-binding}
spec:
  policyName: replica-limit
  validationActions: [Deny]
`);
    const result = await simulate({ paths: [CLUSTER, policy], flags: {}, object: join(DIR, 'deployment.yaml'), kubeVersion: DEFAULT_KUBE_VERSION });
    expect(result.policies[0]?.detail.validation).toEqual({ outcome: 'fail', message: 'replicas 5 is above 3', failed: 1 });
    expect(formatText(result)).toContain("     with this object: a validation fails; the request is rejected: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: replicas 5 is above 3");
    const small = file('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: small, namespace: payments}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec: {containers: [{name: s, image: nginx}]}\n');
    const passing = await simulate({ paths: [CLUSTER, policy], flags: {}, object: small, kubeVersion: DEFAULT_KUBE_VERSION });
    // The user is not known: the third validation decides.
    expect(passing.policies[0]?.detail.validation).toEqual({ outcome: 'depends', expressions: ["request.userInfo.username != 'bob'"] });
  });
});
