/**
 * `admission-lint probe` against a real webhook server on 127.0.0.1 (test/probe/webhook-server.ts,
 * certificates made by openssl at test time; no network). The seed experiment's four
 * observations (issue 26) are reproduced: the annotation added, the explicit deny returned under
 * Ignore, the timeout admitted under Ignore and rejected under Fail, the stopped server refused.
 * In the slow suite: it starts servers and waits out a timeout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { readmeProject } from './probe/readme-project.js';
import { makeCertificates, NAMESPACE, removeCertificates, SERVER_NAME, SERVICE, startWebhookServer, type CertificateName, type Certificates, type Mode, type WebhookServer } from './probe/webhook-server.js';

let certificates: Certificates;
let dir: string;
const servers: WebhookServer[] = [];

beforeAll(() => {
  certificates = makeCertificates();
  dir = mkdtempSync(join(tmpdir(), 'admission-lint-probe-'));
  writeFileSync(join(dir, 'configmap.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team-a\ndata:\n  deny: "false"\n');
  writeFileSync(join(dir, 'deny.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team-a\ndata:\n  deny: "true"\n');
  writeFileSync(join(dir, 'other-ca.pem'), certificates.otherCaPem);
});

afterAll(() => {
  removeCertificates(certificates);
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(mode: Mode, certificate: CertificateName = 'good'): Promise<WebhookServer> {
  const started = await startWebhookServer(certificates, certificate, mode);
  servers.push(started);
  return started;
}

interface HookOptions {
  readonly mutating?: boolean;
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly timeoutSeconds?: number;
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  readonly versions?: readonly string[];
  readonly sideEffects?: string;
}

/** A webhook configuration file for the test service, its caBundle the test CA. */
function configuration(file: string, options: HookOptions = {}): string {
  const mutating = options.mutating ?? false;
  const lines = [
    'apiVersion: admissionregistration.k8s.io/v1',
    `kind: ${mutating ? 'Mutating' : 'Validating'}WebhookConfiguration`,
    'metadata:',
    `  name: ${file}`,
    'webhooks:',
    `  - name: ${mutating ? 'annotate' : 'check'}.probe.example.com`,
    `    admissionReviewVersions: [${(options.versions ?? ['v1']).join(', ')}]`,
    `    sideEffects: ${options.sideEffects ?? 'None'}`,
    `    failurePolicy: ${options.failurePolicy ?? 'Fail'}`,
    `    timeoutSeconds: ${options.timeoutSeconds ?? 5}`,
    ...(mutating ? [`    reinvocationPolicy: ${options.reinvocationPolicy ?? 'Never'}`] : []),
    '    clientConfig:',
    `      caBundle: ${Buffer.from(certificates.caPem).toString('base64')}`,
    '      service:',
    `        name: ${SERVICE}`,
    `        namespace: ${NAMESPACE}`,
    `        path: /${mutating ? 'mutate' : 'validate'}`,
    '    rules:',
    '      - operations: ["CREATE", "UPDATE"]',
    '        apiGroups: [""]',
    '        apiVersions: ["v1"]',
    '        resources: ["configmaps"]',
  ];
  const path = join(dir, `${file}.yaml`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

interface Probed {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly json: {
    checks: { id: string; status: string; message: string }[];
    verdict: { kind: string; message: string };
    objectAfter: { metadata: { annotations?: Record<string, string> } } | null;
    patch: string[];
    repeats: { calls: number; concurrency: number; p50Ms: number; p99Ms: number; verdicts: Record<string, number> } | null;
    failed: boolean;
    expectationMet: boolean | null;
  };
}

async function probe(config: string, target: WebhookServer | string, ...extra: string[]): Promise<Probed> {
  const mutating = readFileSync(config, 'utf8').includes('kind: MutatingWebhookConfiguration');
  const address = typeof target === 'string' ? target : target.address;
  const args = ['probe', config, '--webhook', mutating ? 'annotate.probe.example.com' : 'check.probe.example.com', '--object', join(dir, 'configmap.yaml'), '--address', address, '--format', 'json', ...extra];
  const { code, stdout, stderr } = await runCli(args, '');
  return { code, stdout, stderr, json: code === 2 ? (undefined as never) : JSON.parse(stdout) };
}

const check = (probed: Probed, id: string) => probed.json.checks.find((c) => c.id === id);

describe('probe: the seed experiment', () => {
  it('a mutating webhook adds an annotation: admitted, the object after it, idempotent', async () => {
    const hook = await server('annotate');
    const probed = await probe(configuration('mutator', { mutating: true, failurePolicy: 'Fail' }), hook);
    expect(probed.code, probed.stdout).toBe(0);
    expect(probed.json.verdict).toEqual({ kind: 'admitted', message: 'admitted, with the patch applied' });
    expect(probed.json.objectAfter?.metadata.annotations).toEqual({ 'probe.example.com/seen': 'true' });
    expect(probed.json.patch).toEqual(['add /metadata/annotations: {"probe.example.com/seen":"true"}']);
    expect(check(probed, 'idempotence')?.status).toBe('ok');
    // The request as the API server sends it: the second call carries the patched object.
    expect(hook.received).toHaveLength(2);
    const [first, second] = hook.received;
    expect(first!.method).toBe('POST');
    expect(first!.url).toBe('/mutate?timeout=5s');
    expect(first!.servername).toBe(SERVER_NAME);
    expect(first!.headers.host).toBe(`${SERVER_NAME}:443`);
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers['user-agent']).toBe('kube-apiserver-admission');
    const request = first!.review.request;
    expect(first!.review.apiVersion).toBe('admission.k8s.io/v1');
    expect(request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      name: 'settings',
      namespace: 'team-a',
      operation: 'CREATE',
      userInfo: { username: 'admission-lint-probe', groups: ['system:authenticated'] },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect(request.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.review.request.uid).not.toBe(request.uid);
    expect((second!.review.request.object as { metadata: { annotations: unknown } }).metadata.annotations).toEqual({ 'probe.example.com/seen': 'true' });
  });

  it('an explicit deny is returned under Ignore: rejected by the webhook, in the API server words', async () => {
    const hook = await server('deny-data');
    const config = configuration('validator-ignore', { failurePolicy: 'Ignore' });
    const args = ['--object', join(dir, 'deny.yaml')];
    const { code, stdout } = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--address', hook.address, ...args, '--expect', 'denied'], '');
    expect(code, stdout).toBe(0);
    expect(stdout).toContain('Verdict (failurePolicy Ignore): rejected by the webhook');
    expect(stdout).toContain('admission webhook "check.probe.example.com" denied the request: data.deny is true');
    const allowed = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--address', hook.address, ...args, '--expect', 'allowed'], '');
    expect(allowed.code).toBe(1);
    expect(allowed.stdout).toContain('expected allowed: NOT met');
    // data.deny false: admitted.
    const admitted = await probe(config, hook, '--expect', 'allowed');
    expect(admitted.code).toBe(0);
    expect(admitted.json.verdict.kind).toBe('admitted');
  });

  it('a handler slower than timeoutSeconds: admitted unchecked under Ignore, rejected under Fail', async () => {
    const hook = await server('slow');
    hook.delayMs = 1600;
    const ignored = await probe(configuration('slow-ignore', { failurePolicy: 'Ignore', timeoutSeconds: 1 }), hook);
    expect(ignored.code).toBe(1);
    expect(ignored.json.verdict.kind).toBe('admitted-unchecked');
    expect(ignored.json.verdict.message).toContain('failing open check.probe.example.com');
    expect(ignored.json.verdict.message).toContain('context deadline exceeded');
    expect(check(ignored, 'latency')).toMatchObject({ status: 'error' });
    const failed = await probe(configuration('slow-fail', { failurePolicy: 'Fail', timeoutSeconds: 1 }), hook);
    expect(failed.json.verdict).toEqual({
      kind: 'rejected-call-failed',
      message: `Internal error occurred: failed calling webhook "check.probe.example.com": failed to call webhook: Post "https://${SERVER_NAME}:443/validate?timeout=1s": context deadline exceeded`,
    });
  });

  it('a stopped server: connection refused, rejected under Fail', async () => {
    const hook = await server('allow');
    const address = hook.address;
    await hook.close();
    servers.splice(servers.indexOf(hook), 1);
    const probed = await probe(configuration('stopped'), address);
    expect(probed.code).toBe(1);
    expect(probed.json.verdict.kind).toBe('rejected-call-failed');
    expect(probed.json.verdict.message).toContain(`Post "https://${SERVER_NAME}:443/validate?timeout=5s": dial tcp ${address}: connect: connection refused`);
    expect(check(probed, 'tls')?.status).toBe('skipped');
  });
});

describe('probe: what a webhook server gets wrong', () => {
  it('a non-idempotent patch: an error with reinvocationPolicy IfNeeded, a warning with Never', async () => {
    const hook = await server('count');
    const ifNeeded = await probe(configuration('counter-ifneeded', { mutating: true, reinvocationPolicy: 'IfNeeded' }), hook);
    expect(ifNeeded.code).toBe(1);
    expect(check(ifNeeded, 'idempotence')).toMatchObject({ status: 'error' });
    expect(check(ifNeeded, 'idempotence')?.message).toContain('add /metadata/annotations/probe.example.com~1count: "2"');
    const never = await probe(configuration('counter-never', { mutating: true, reinvocationPolicy: 'Never' }), hook);
    expect(never.code).toBe(0);
    expect(check(never, 'idempotence')?.status).toBe('warning');
  });

  it('a closed connection: EOF', async () => {
    const hook = await server('close');
    const probed = await probe(configuration('closer', { failurePolicy: 'Ignore' }), hook);
    expect(probed.json.verdict.kind).toBe('admitted-unchecked');
    expect(check(probed, 'http')?.message).toBe(`Post "https://${SERVER_NAME}:443/validate?timeout=5s": EOF`);
  });

  it('HTTP 500: a call error that Ignore admits, said as client-go says it', async () => {
    const hook = await server('status-500');
    const probed = await probe(configuration('five-hundred', { failurePolicy: 'Ignore' }), hook, '--expect', 'denied');
    expect(probed.code).toBe(1);
    expect(probed.json.verdict.kind).toBe('admitted-unchecked');
    expect(probed.json.verdict.message).toContain('failed to call webhook: an error on the server ("deny") has prevented the request from succeeding');
    expect(check(probed, 'http')?.status).toBe('error');
  });

  it('no uid in the response', async () => {
    const hook = await server('no-uid');
    const probed = await probe(configuration('no-uid'), hook);
    expect(probed.json.verdict.kind).toBe('rejected-call-failed');
    const uid = hook.received[0]!.review.request.uid;
    expect(check(probed, 'uid')?.message).toBe(`expected response.uid="${uid}", got ""`);
    expect(probed.json.verdict.message).toContain(`received invalid webhook response: expected response.uid="${uid}", got ""`);
  });

  it('a v1beta1 answer to a v1 request does not convert; no apiVersion and kind is the well-known error', async () => {
    const hook = await server('v1beta1');
    const probed = await probe(configuration('beta-answer'), hook);
    expect(probed.json.verdict.message).toContain('failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion');
    hook.mode = 'no-type-meta';
    const bare = await probe(configuration('beta-answer'), hook);
    expect(bare.json.verdict.message).toContain('received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
  });

  it('sends v1beta1 when it is the first version the webhook lists; v1beta1 answers are not checked for uid', async () => {
    const hook = await server('no-uid');
    const probed = await probe(configuration('beta-first', { versions: ['v1beta1', 'v1'] }), hook);
    expect(hook.received[0]!.review.apiVersion).toBe('admission.k8s.io/v1beta1');
    expect(probed.json.verdict.kind).toBe('rejected-call-failed');
    expect(probed.json.verdict.message).toContain('converting (v1.AdmissionReview) to (v1beta1.AdmissionReview)');
  });

  it('a patch without patchType, and a patch that does not apply (rejected under any failurePolicy)', async () => {
    const hook = await server('patch-without-type');
    const untyped = await probe(configuration('untyped', { mutating: true }), hook);
    expect(untyped.json.verdict.message).toContain('received invalid webhook response: webhook returned response.patch but not response.patchType');
    hook.mode = 'bad-patch';
    const bad = await probe(configuration('bad-patch', { mutating: true, failurePolicy: 'Ignore' }), hook);
    expect(bad.json.verdict.kind).toBe('rejected');
    expect(bad.json.verdict.message).toMatch(/^Internal error occurred: replace operation does not apply/);
  });
});

describe('probe: TLS as the API server checks it, and nothing sent before it passes', () => {
  it.each([
    ['wrong-name', `x509: certificate is valid for other.example.com, not ${SERVER_NAME}`],
    ['expired', 'x509: certificate has expired or is not yet valid: current time '],
    ['other-ca', 'x509: certificate signed by unknown authority'],
  ] as const)('%s', async (certificate, words) => {
    const hook = await server('allow', certificate);
    const probed = await probe(configuration(`tls-${certificate}`), hook);
    expect(probed.code).toBe(1);
    expect(check(probed, 'tls')?.status).toBe('error');
    expect(probed.json.verdict.message).toContain(`tls: failed to verify certificate: ${words}`);
    expect(hook.received).toEqual([]);
  });

  it('a server that speaks plain HTTP', async () => {
    const plain = createHttpServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const probed = await probe(configuration('plain-http'), `127.0.0.1:${(plain.address() as AddressInfo).port}`);
      expect(probed.json.verdict.message).toContain('failed to call webhook: Post "https://probe-hook.hooks.svc:443/validate?timeout=5s": http: server gave HTTP response to HTTPS client');
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('a certificate that expires within a week: a warning', async () => {
    const hook = await server('allow', 'expiring');
    const probed = await probe(configuration('tls-expiring'), hook);
    expect(probed.code).toBe(0);
    expect(check(probed, 'tls')).toMatchObject({ status: 'warning' });
    expect(check(probed, 'tls')?.message).toMatch(/it expires in (1 day|less than a day): from then every call fails/);
  });

  it('--ca-bundle-file stands in for the caBundle', async () => {
    const hook = await server('allow', 'other-ca');
    const probed = await probe(configuration('tls-file'), hook, '--ca-bundle-file', join(dir, 'other-ca.pem'));
    expect(probed.code, probed.stdout).toBe(0);
    expect(check(probed, 'tls')?.status).toBe('ok');
  });
});

describe('probe: repeat, url, usage', () => {
  it('--repeat with --concurrency: every call made, percentiles', async () => {
    const hook = await server('allow');
    const probed = await probe(configuration('repeat'), hook, '--repeat', '20', '--concurrency', '4');
    expect(probed.code).toBe(0);
    expect(hook.received).toHaveLength(20);
    expect(probed.json.repeats).toMatchObject({ calls: 20, concurrency: 4, verdicts: { admitted: 20 } });
    expect(probed.json.repeats!.p50Ms).toBeLessThanOrEqual(probed.json.repeats!.p99Ms);
    expect(new Set(hook.received.map((r) => r.review.request.uid)).size).toBe(20);
  });

  it('--url: the path given, the server name the configuration\'s', async () => {
    const hook = await server('allow');
    const config = configuration('by-url');
    const { code, stdout } = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--object', join(dir, 'configmap.yaml'), '--url', `https://127.0.0.1:${hook.port}/other`], '');
    expect(code, stdout).toBe(0);
    expect(hook.received[0]!.url).toBe('/other?timeout=5s');
    expect(hook.received[0]!.servername).toBe(SERVER_NAME);
  });

  it('an object that names no namespace is sent with the request\'s, as the API server sets it; UPDATE sends the old object', async () => {
    const hook = await server('allow');
    writeFileSync(join(dir, 'no-namespace.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  deny: "false"\n');
    const config = configuration('namespace-fill');
    const { code } = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--object', join(dir, 'no-namespace.yaml'), '--old-object', join(dir, 'no-namespace.yaml'), '--namespace', 'team-b', '--address', hook.address, '--as', 'jane', '--as-group', 'devs'], '');
    expect(code).toBe(0);
    const request = hook.received[0]!.review.request;
    expect(request).toMatchObject({ operation: 'UPDATE', namespace: 'team-b', object: { metadata: { namespace: 'team-b' } }, oldObject: { metadata: { namespace: 'team-b' } }, userInfo: { username: 'jane', groups: ['devs', 'system:authenticated'] }, options: { kind: 'UpdateOptions' } });
  });

  it('a dry run to a webhook with side effects is rejected without a call', async () => {
    const hook = await server('allow');
    const probed = await probe(configuration('side-effects', { sideEffects: 'NoneOnDryRun' }), hook, '--dry-run');
    expect(probed.json.verdict.kind).toBe('admitted');
    expect(hook.received[0]!.review.request.dryRun).toBe(true);
    expect(hook.received[0]!.review.request.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
    const some = await probe(configuration('side-effects-some', { sideEffects: 'Some' }), hook, '--dry-run');
    expect(some.json.verdict).toEqual({ kind: 'rejected', message: 'admission webhook "check.probe.example.com" does not support dry run' });
    expect(hook.received).toHaveLength(1);
  });

  it('usage errors exit 2: no address, a cluster name, an unknown webhook', async () => {
    const config = configuration('usage');
    const none = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--object', join(dir, 'configmap.yaml')], '');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('probe needs --address HOST:PORT or --url');
    const svc = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--object', join(dir, 'configmap.yaml'), '--address', `${SERVER_NAME}:443`], '');
    expect(svc.code).toBe(2);
    expect(svc.stderr).toContain('cluster DNS names resolve only inside the cluster');
    const noRequest = await runCli(['probe', config, '--webhook', 'check.probe.example.com', '--address', '127.0.0.1:1'], '');
    expect(noRequest.code).toBe(2);
    expect(noRequest.stderr).toContain('probe needs --object FILE');
    const unknown = await runCli(['probe', config, '--webhook', 'chek.probe.example.com', '--object', join(dir, 'configmap.yaml'), '--address', '127.0.0.1:1'], '');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "check.probe.example.com"?');
  });
});

describe('probe: the README shows real output', () => {
  /** What the test server answers for each webhook the README probes. */
  const MODES: Readonly<Record<string, Mode>> = { 'annotate.probe.example.com': 'annotate', 'check.probe.example.com': 'status-500' };
  const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  /** The README's text blocks that start with `$ admission-lint probe …`: the command, then its output. */
  const samples = [...README.matchAll(/```text\n(\$ admission-lint probe [^\n]*)\n([\s\S]*?)```/g)].map((match) => ({ command: match[1]!.slice(2), output: match[2]! }));
  /** What changes from run to run: the port, the times, the certificate's dates. */
  const normalise = (text: string) =>
    text
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
      .replace(/\d+ ms/g, 'N ms')
      .replace(/valid until \d{4}-\d{2}-\d{2}/g, 'valid until DATE')
      .replace(/\s+/g, ' ')
      .trim();

  it('has the samples this test knows', () => {
    expect(samples.map((sample) => /--webhook (\S+)/.exec(sample.command)![1]).sort()).toEqual(Object.keys(MODES).sort());
  });

  it.each(samples.map((sample) => [sample.command, sample] as const))('%s', async (_command, sample) => {
    const project = readmeProject(certificates);
    const cwd = process.cwd();
    try {
      process.chdir(project);
      const webhook = /--webhook (\S+)/.exec(sample.command)![1]!;
      const hook = await server(MODES[webhook]!);
      const args = sample.command.split(' ').slice(1).map((word) => (word.startsWith('127.0.0.1:') ? hook.address : word));
      const { stdout } = await runCli(args, '');
      const output = normalise(stdout);
      let from = 0;
      for (const part of sample.output.split(/^…$/m).map(normalise).filter(Boolean)) {
        const at = output.indexOf(part, from);
        expect(at, `README part not in the output, in order:\n${part}\n\nOutput:\n${stdout}`).toBeGreaterThanOrEqual(0);
        from = at + part.length;
      }
    } finally {
      process.chdir(cwd);
      rmSync(project, { recursive: true, force: true });
    }
  });
});
