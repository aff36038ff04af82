/**
 * `simulate`: the admission path of one request, against the real-world corpus
 * (../shared/corpus/real-world, skipped when absent) and the hand-written fixtures in
 * fixtures/simulate. Expected orders and reasons were worked out by hand from the manifests'
 * selectors and rules (the comments say why).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { dryRunFailures, failureTable, worstCaseLatency } from '../src/simulate/failures.js';
import { formatJson } from '../src/simulate/format-json.js';
import { formatText } from '../src/simulate/format-text.js';
import type { AdmissionPath, PathEntry } from '../src/simulate/path.js';
import type { RequestFlags } from '../src/simulate/request-flags.js';
import { simulate } from '../src/simulate/simulate.js';

const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-world');
const FIXTURES = join(ROOT, 'fixtures', 'simulate', 'path.yaml');
const WEBHOOK_GUARD = join(ROOT, 'fixtures', 'simulate', 'webhook-guard.yaml');
const corpus = (...files: string[]): string[] => files.map((file) => join(CORPUS, file));

const ISTIO = 'istio--istiod-pilot-default.yaml';
const GATEKEEPER = 'gatekeeper--gatekeeper.yaml';
const DAPR = 'dapr--sidecar-injector-webhook-config.yaml';
const LINKERD = 'linkerd2--install-default.yaml';
const KYVERNO = 'kyverno--chainsaw-gpol-match-conditions.yaml';

const podCreate = (namespace: string, extra: Partial<RequestFlags> = {}): RequestFlags => ({ operation: 'CREATE', resource: 'pods', namespace, ...extra });

async function pathFor(paths: string[], flags: RequestFlags): Promise<AdmissionPath> {
  return simulate({ paths, flags, kubeVersion: DEFAULT_KUBE_VERSION });
}

const called = (entries: readonly PathEntry[]): string[] => entries.filter((e) => e.called).map((e) => `${e.configuration}/${e.webhook}`);
const reasons = (entries: readonly PathEntry[]): Record<string, string | null> => Object.fromEntries(entries.filter((e) => !e.called).map((e) => [`${e.configuration}/${e.webhook}`, e.reason]));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: {} });
  return { code, stdout, stderr };
}

describe.skipIf(!existsSync(CORPUS))('simulate against the real-world corpus', () => {
  it('pod CREATE in a namespace with istio-injection=enabled: only the namespace injector of Istio, after the others by configuration name', async () => {
    const path = await pathFor(corpus(DAPR, GATEKEEPER, ISTIO, LINKERD), podCreate('team-a', { namespaceLabels: 'istio-injection=enabled' }));
    // Configuration names in Go string order: dapr-… < gatekeeper-… < istio-… < linkerd-…
    expect(called(path.mutating)).toEqual([
      'dapr-sidecar-injector/sidecar-injector.dapr.io',
      'gatekeeper-mutating-webhook-configuration/mutation.gatekeeper.sh',
      'istio-sidecar-injector/namespace.sidecar-injector.istio.io',
      'linkerd-proxy-injector-webhook-config/linkerd-proxy-injector.linkerd.io',
    ]);
    // The other three Istio injectors require istio-injection to be absent (or istio.io/rev=default).
    expect(reasons(path.mutating)).toEqual({
      'istio-sidecar-injector/rev.namespace.sidecar-injector.istio.io': 'namespaceSelector does not select namespace team-a',
      'istio-sidecar-injector/rev.object.sidecar-injector.istio.io': 'namespaceSelector does not select namespace team-a',
      'istio-sidecar-injector/object.sidecar-injector.istio.io': 'namespaceSelector does not select namespace team-a',
    });
    // Skipped ones come after the called ones, in configuration (then list) order.
    expect(path.mutating.map((e) => e.called)).toEqual([true, true, true, true, false, false, false]);
    expect(path.mutating.find((e) => e.webhook === 'sidecar-injector.dapr.io')?.reinvoked).toBe(true);
    expect(called(path.validating)).toEqual(['gatekeeper-validating-webhook-configuration/validation.gatekeeper.sh']);
    expect(reasons(path.validating)['gatekeeper-validating-webhook-configuration/check-ignore-label.gatekeeper.sh']).toBe('no rule matches');
    expect(reasons(path.validating)['istio-validator-istio-system/rev.validation.istio.io']).toBe('no rule matches');
    // dapr 10 s twice (IfNeeded) + gatekeeper 1 s + istio 10 s + linkerd 10 s, then gatekeeper's validation 3 s.
    expect(worstCaseLatency(path)).toEqual({ mutatingSeconds: 41, validatingSeconds: 3, totalSeconds: 44 });
    const json = JSON.parse(formatJson(path));
    // The contract's keys first; those added with --object and PodSecurity (issue 14) after them.
    expect(Object.keys(json)).toEqual(['request', 'mutating', 'validating', 'policies', 'worstCaseLatencySeconds', 'object', 'oldObject', 'podSecurity']);
    expect(json.podSecurity).toMatchObject({ checks: 'pod', result: { outcome: 'not-checked' } });
    expect(Object.keys(json.mutating[0])).toEqual(['configuration', 'webhook', 'called', 'reason', 'failurePolicy', 'timeoutSeconds', 'reinvoked']);
    expect(json.mutating[0]).toEqual({ configuration: 'dapr-sidecar-injector', webhook: 'sidecar-injector.dapr.io', called: true, reason: null, failurePolicy: 'Ignore', timeoutSeconds: 10, reinvoked: true });
    expect(json.worstCaseLatencySeconds).toBe(44);
    expect(json.request.namespaceLabels).toEqual({ 'istio-injection': 'enabled', 'kubernetes.io/metadata.name': 'team-a' });
  });

  it('pod CREATE in a namespace without Istio labels: no Istio injector, each for its own reason', async () => {
    const path = await pathFor(corpus(ISTIO), podCreate('team-a'));
    expect(path.namespaceLabels).toEqual({ labels: { 'kubernetes.io/metadata.name': 'team-a' }, source: 'automatic' });
    expect(called(path.mutating)).toEqual([]);
    expect(reasons(path.mutating)).toEqual({
      // namespaceSelector needs istio.io/rev In (default).
      'istio-sidecar-injector/rev.namespace.sidecar-injector.istio.io': 'namespaceSelector does not select namespace team-a',
      // The namespace qualifies, but the pod has no istio.io/rev=default label.
      'istio-sidecar-injector/rev.object.sidecar-injector.istio.io': 'objectSelector does not select the object',
      'istio-sidecar-injector/namespace.sidecar-injector.istio.io': 'namespaceSelector does not select namespace team-a',
      // The namespace qualifies, but the pod has no sidecar.istio.io/inject=true label.
      'istio-sidecar-injector/object.sidecar-injector.istio.io': 'objectSelector does not select the object',
    });
    expect(worstCaseLatency(path).totalSeconds).toBe(0);
    // With the pod's opt-in label, the object injector is called.
    const optIn = await pathFor(corpus(ISTIO), podCreate('team-a', { objectLabels: 'sidecar.istio.io/inject=true' }));
    expect(called(optIn.mutating)).toEqual(['istio-sidecar-injector/object.sidecar-injector.istio.io']);
    // ... but not when the namespace opts out with sidecar.istio.io/inject=false on the pod.
    const optOut = await pathFor(corpus(ISTIO), podCreate('team-a', { namespaceLabels: 'istio-injection=enabled', objectLabels: 'sidecar.istio.io/inject=false' }));
    expect(reasons(optOut.mutating)['istio-sidecar-injector/namespace.sidecar-injector.istio.io']).toBe('objectSelector does not select the object');
  });

  it('Gatekeeper-excluded namespaces: its own (from the Namespace manifest) and one labelled admission.gatekeeper.sh/ignore', async () => {
    const own = await pathFor(corpus(GATEKEEPER), podCreate('gatekeeper-system'));
    expect(own.namespaceLabels?.source).toBe('manifest');
    expect(called(own.mutating)).toEqual([]);
    expect(called(own.validating)).toEqual([]);
    expect(reasons(own.mutating)).toEqual({ 'gatekeeper-mutating-webhook-configuration/mutation.gatekeeper.sh': 'namespaceSelector does not select namespace gatekeeper-system' });
    expect(reasons(own.validating)).toEqual({
      'gatekeeper-validating-webhook-configuration/validation.gatekeeper.sh': 'namespaceSelector does not select namespace gatekeeper-system',
      'gatekeeper-validating-webhook-configuration/check-ignore-label.gatekeeper.sh': 'no rule matches',
    });
    const ignored = await pathFor(corpus(GATEKEEPER), podCreate('team-b', { namespaceLabels: 'admission.gatekeeper.sh/ignore=yes' }));
    expect(called(ignored.mutating)).toEqual([]);
    expect(reasons(ignored.validating)['gatekeeper-validating-webhook-configuration/validation.gatekeeper.sh']).toBe('namespaceSelector does not select namespace team-b');
    const plain = await pathFor(corpus(GATEKEEPER), podCreate('team-b'));
    expect(called(plain.mutating)).toEqual(['gatekeeper-mutating-webhook-configuration/mutation.gatekeeper.sh']);
    expect(called(plain.validating)).toEqual(['gatekeeper-validating-webhook-configuration/validation.gatekeeper.sh']);
    expect(worstCaseLatency(plain).totalSeconds).toBe(1 + 3);
  });

  it('a Namespace UPDATE reaches check-ignore-label.gatekeeper.sh (Fail), which fails the request while it is down', async () => {
    const path = await pathFor(corpus(GATEKEEPER), { operation: 'UPDATE', resource: 'namespaces', namespace: 'team-c' });
    expect(called(path.validating)).toEqual(['gatekeeper-validating-webhook-configuration/validation.gatekeeper.sh', 'gatekeeper-validating-webhook-configuration/check-ignore-label.gatekeeper.sh']);
    const row = failureTable(path).find((r) => r.entry.webhook === 'check-ignore-label.gatekeeper.sh');
    expect(row?.ifUnavailable).toContain('500 Internal error occurred: failed calling webhook "check-ignore-label.gatekeeper.sh"');
    const ignore = failureTable(path).find((r) => r.entry.webhook === 'validation.gatekeeper.sh');
    expect(ignore?.ifUnavailable).toContain('fails open');
    // Validating webhooks run in parallel: the slowest one (3 s), not the sum.
    expect(worstCaseLatency(path)).toEqual({ mutatingSeconds: 1, validatingSeconds: 3, totalSeconds: 4 });
  });

  it("one object per kind and name: of Linkerd's default and HA installs, the later one (HA, failurePolicy Fail) is simulated", async () => {
    const path = await pathFor(corpus(LINKERD, 'linkerd2--install-ha.yaml'), podCreate('team-a'));
    expect(path.mutating.filter((e) => e.webhook === 'linkerd-proxy-injector.linkerd.io').map((e) => e.failurePolicy)).toEqual(['Fail']);
    expect(path.replaced.some((text) => text.startsWith('MutatingWebhookConfiguration linkerd-proxy-injector-webhook-config in ') && text.includes(LINKERD))).toBe(true);
  });

  it('the whole corpus: a pod CREATE that waits longer than the request timeout in the worst case', async () => {
    const path = await pathFor([CORPUS], podCreate('team-a', { namespaceLabels: 'istio-injection=enabled' }));
    // Ten mutating injectors, two of them IfNeeded (Dapr, Linkerd's tap injector), mostly at the 10 s default.
    expect(called(path.mutating)).toHaveLength(10);
    expect(path.mutating.filter((e) => e.reinvoked).map((e) => e.webhook)).toEqual(['sidecar-injector.dapr.io', 'tap-injector.linkerd.io']);
    expect(worstCaseLatency(path).totalSeconds).toBeGreaterThan(60);
    expect(formatText(path)).toContain("above the API server's default request timeout (60s, --request-timeout)");
  });

  it('custom resources come from the CRDs in the paths (MetalLB), with the closest group for a typo', async () => {
    const files = corpus('metallb--metallb-native.yaml');
    const path = await pathFor(files, { operation: 'CREATE', group: 'metallb.io', version: 'v1beta1', resource: 'ipaddresspools', namespace: 'metallb-system' });
    expect(path.request.kind).toBe('IPAddressPool');
    expect(called(path.validating)).toEqual(['metallb-webhook-configuration/ipaddresspoolvalidationwebhook.metallb.io']);
    expect(path.namespaceLabels?.source).toBe('manifest');
    // bgppeers are served as v1beta1 and v1beta2; the webhook names v1beta2 (matchPolicy Equivalent, the default).
    const equivalent = await pathFor(files, { operation: 'CREATE', group: 'metallb.io', version: 'v1beta1', resource: 'bgppeers', namespace: 'metallb-system' });
    expect(equivalent.validating.find((e) => e.webhook === 'bgppeersvalidationwebhook.metallb.io')).toMatchObject({ called: true, reason: null, detail: { equivalent: 'metallb.io/v1beta2' } });
    await expect(pathFor(files, { operation: 'CREATE', group: 'metalb.io', version: 'v1beta1', resource: 'ipaddresspools', namespace: 'metallb-system' })).rejects.toThrow('did you mean "metallb.io"?');
    await expect(pathFor(files, { operation: 'CREATE', group: 'metallb.io', resource: 'ipaddresspools', namespace: 'metallb-system' })).rejects.toThrow('group metallb.io is served in several versions (v1beta1, v1beta2): choose one with --api-version');
  });

  it("Kyverno's matchCondition on the object's labels is shown as depends on", async () => {
    const path = await pathFor(corpus(KYVERNO), { operation: 'CREATE', resource: 'namespaces', namespace: 'team-d' });
    expect(path.validating[0]).toMatchObject({ called: true, reason: "depends on: object.metadata.labels['color'] == 'red'", failurePolicy: 'Ignore' });
    expect(failureTable(path)[0]?.ifConditionErrors).toBe('webhook skipped (failurePolicy Ignore)');
    // kube-system is excluded by name before the condition matters.
    const kubeSystem = await pathFor(corpus(KYVERNO), { operation: 'CREATE', resource: 'namespaces', namespace: 'kube-system' });
    expect(kubeSystem.validating[0]).toMatchObject({ called: false, reason: 'namespaceSelector does not select namespace kube-system' });
  });
});

describe('simulate with the fixtures (matchConditions, dry run, policies)', () => {
  it('evaluates conditions on request attributes, shows the others as depends on, and orders by configuration name', async () => {
    const path = await pathFor([FIXTURES], podCreate('team-a'));
    // a-defaulter sorts before b-injector although the file lists b-injector first.
    expect(called(path.mutating)).toEqual(['a-defaulter/defaults.a.example.com', 'b-injector/inject.b.example.com']);
    expect(path.mutating.map((e) => [e.webhook, e.reason])).toEqual([
      ['defaults.a.example.com', null],
      ['inject.b.example.com', "depends on: !request.userInfo.username.startsWith('system:')"],
      ['labels.a.example.com', 'matchCondition "only-update" is false'],
    ]);
    expect(path.namespaceLabels).toEqual({ labels: { tier: 'web', 'kubernetes.io/metadata.name': 'team-a' }, source: 'manifest', file: FIXTURES });
    expect(reasons(path.validating)).toEqual({ 'z-owner/owner.z.example.com': 'objectSelector does not select the object' });
    expect(called(path.policies)).toEqual(['require-owner/require-owner-deny', 'warn-outside-kube-system/warn-outside-kube-system-warn']);
    // 5 s twice (IfNeeded) + 10 s (the default timeout), then the slowest validating webhook, 4 s.
    expect(worstCaseLatency(path)).toEqual({ mutatingSeconds: 20, validatingSeconds: 4, totalSeconds: 24 });
    const rows = failureTable(path);
    expect(rows.find((r) => r.entry.configuration === 'warn-outside-kube-system')?.ifDenies).toBe('not rejected: validationActions Warn, so a failed validation only warns the client');
    expect(rows.find((r) => r.entry.configuration === 'require-owner')?.ifDenies).toContain("ValidatingAdmissionPolicy 'require-owner' with binding 'require-owner-deny' denied request");
    expect(rows.find((r) => r.entry.webhook === 'inject.b.example.com')?.ifConditionErrors).toContain('403 Forbidden');
  });

  it('with object labels and UPDATE the other webhooks are called', async () => {
    const path = await pathFor([FIXTURES], { operation: 'UPDATE', resource: 'pods', namespace: 'team-a', objectLabels: 'team=a' });
    expect(called(path.mutating)).toEqual(['a-defaulter/defaults.a.example.com', 'a-defaulter/labels.a.example.com']);
    expect(reasons(path.mutating)).toEqual({ 'b-injector/inject.b.example.com': 'no rule matches' });
    expect(called(path.validating)).toEqual(['c-audit/audit.c.example.com', 'z-owner/owner.z.example.com']);
    expect(reasons(path.policies)).toEqual({ 'require-owner/require-owner-deny': 'no rule matches' });
  });

  it('--dry-run: a condition on request.dryRun skips, and sideEffects Some rejects the request whatever the failurePolicy', async () => {
    const path = await pathFor([FIXTURES], podCreate('kube-system', { dryRun: true }));
    expect(reasons(path.mutating)['a-defaulter/defaults.a.example.com']).toBe('matchCondition "not-dry-run" is false');
    expect(reasons(path.policies)['warn-outside-kube-system/warn-outside-kube-system-warn']).toBe('matchCondition "not-kube-system" is false');
    const failures = dryRunFailures(path);
    expect(failures.map((f) => [f.entry.webhook, f.sideEffects])).toEqual([['audit.c.example.com', 'Some']]);
    expect(failures[0]?.outcome).toBe('request rejected: admission webhook "audit.c.example.com" does not support dry run (sideEffects Some; whatever the failurePolicy)');
    const notDry = await pathFor([FIXTURES], podCreate('kube-system'));
    expect(dryRunFailures(notDry)).toEqual([]);
  });

  it('CONNECT: a non-empty objectSelector never matches', async () => {
    const path = await pathFor([FIXTURES], { operation: 'CONNECT', resource: 'pods', subresource: 'exec', namespace: 'team-a' });
    expect(path.validating.map((e) => [e.webhook, e.called, e.reason])).toEqual([
      ['audit.c.example.com', false, 'no rule matches'],
      ['owner.z.example.com', false, 'no rule matches'],
    ]);
  });

  it('webhook configurations are never sent to webhooks, but admission policies check them', async () => {
    const path = await pathFor([FIXTURES, WEBHOOK_GUARD], { operation: 'UPDATE', group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' });
    expect(reasons(path.validating)['guard-webhook/guard.example.com']).toBe('resource exempt: validatingwebhookconfigurations are never sent to webhooks (admission policies can check them)');
    expect(called(path.validating)).toEqual([]);
    expect(called(path.policies)).toEqual(['guard-webhook-configurations/guard-webhook-configurations']);
    // The policy kinds themselves are skipped by policies too.
    const policies = await pathFor([FIXTURES, WEBHOOK_GUARD], { operation: 'CREATE', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' });
    expect(path.policies.length).toBe(3);
    expect(policies.policies.every((e) => !e.called)).toBe(true);
    expect(reasons(policies.policies)['guard-webhook-configurations/guard-webhook-configurations']).toBe('resource exempt: validatingadmissionpolicies are never sent to webhooks or admission policies');
  });
});

describe('simulate on the command line', () => {
  it('exits 0 when the simulation ran, whatever it found', async () => {
    const { code, stdout, stderr } = await cli(['simulate', FIXTURES, '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'team-a']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('1. a-defaulter / defaults.a.example.com');
    expect(stdout).toContain('Worst-case latency: 24s');
  });

  it.each([
    [['--resource', 'pods', '--namespace', 'a'], 'simulate needs --operation'],
    [['--operation', 'CREATE', '--namespace', 'a'], 'simulate needs --resource'],
    [['--operation', 'CREAT', '--resource', 'pods', '--namespace', 'a'], '--operation "CREAT" is not CREATE, UPDATE, DELETE or CONNECT; did you mean "CREATE"?'],
    [['--operation', 'GET', '--resource', 'pods', '--namespace', 'a'], 'reads never reach admission webhooks'],
    [['--operation', 'CREATE', '--resource', 'pod', '--namespace', 'a'], 'did you mean "pods"?'],
    [['--operation', 'CREATE', '--resource', 'deploymnets', '--group', 'apps', '--namespace', 'a'], 'apps/v1 has no such resource; did you mean "deployments"?'],
    [['--operation', 'CREATE', '--resource', 'deployments', '--namespace', 'a'], 'it is served by --group apps --api-version v1'],
    [['--operation', 'CREATE', '--resource', 'deployments', '--group', 'app', '--namespace', 'a'], 'serves no such API group; did you mean "apps"?'],
    [['--operation', 'CREATE', '--resource', 'pods', '--version', 'v2', '--namespace', 'a'], 'is not served in that version; did you mean "v1"?'],
    [['--operation', 'UPDATE', '--resource', 'pods', '--subresource', 'stauts', '--namespace', 'a'], 'pods has no such subresource; did you mean "status"?'],
    [['--operation', 'CREATE', '--resource', 'pods'], 'pods are namespaced: give --namespace <name>'],
    [['--operation', 'CREATE', '--resource', 'nodes', '--namespace', 'a'], 'nodes are cluster-scoped'],
    [['--operation', 'CONNECT', '--resource', 'pods', '--namespace', 'a'], 'CONNECT is only admitted for connect subresources'],
    [['--operation', 'CREATE', '--resource', 'pods/exec', '--namespace', 'a'], 'is admitted as CONNECT'],
    [['--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a', '--namespace-labels', 'nolabel'], '--namespace-labels: "nolabel" is not key=value'],
    [['--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a', '--namespace-labels', 'kubernetes.io/metadata.name=b'], 'the API server sets that label'],
    [['--operation', 'CREATE', '--resource', 'namespaces', '--namespace', 'a', '--object-labels', 'x=y'], "a Namespace's labels are its namespace labels"],
    [['--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a', '--kube-version', 'banana'], '--kube-version: "banana" is not a Kubernetes version'],
  ])('bad flags %j are a usage error (exit 2, one line, no stack trace)', async (args, message) => {
    const { code, stdout, stderr } = await cli(['simulate', FIXTURES, ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr.split('\n')[0]).toMatch(/^admission-lint: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('commander errors (unknown option, bad format) exit 2; --help exits 0', async () => {
    expect((await cli(['simulate', '--operation', 'CREATE', '--frobnicate'])).code).toBe(2);
    const format = await cli(['simulate', FIXTURES, '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a', '--format', 'yaml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("argument 'yaml' is invalid");
    const help = await cli(['simulate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--namespace-labels');
  });

  it('the built bin prints no stack trace for a bad path and exits 2', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'admission-lint.js'), 'simulate', 'no/such/dir', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'a'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('admission-lint: no such file or folder: no/such/dir\n');
  });
});
