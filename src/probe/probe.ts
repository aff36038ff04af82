/**
 * `probe` as a function: read the run and the request as `simulate` reads them, find the named
 * webhook, call it as the API server would (./review.ts, ./call.ts), check the answer step by
 * step (./verify.ts), call a mutating webhook once more with the patched object (a second patch
 * must change nothing), and reach the verdict under the webhook's failurePolicy. With --repeat,
 * more calls (at most --concurrency at a time) for latency percentiles.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { closest } from '../text/closest.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { Webhook } from '../model/types.js';
import { webhooksOf } from '../model/webhooks.js';
import type { PathEntry } from '../simulate/path.js';
import { simulateRun, type SimulateOptions } from '../simulate/simulate.js';
import type { SimulatedRequest } from '../simulate/request-flags.js';
import { callWebhook, type CallTarget } from './call.js';
import { decodePatch, deepEqual, type JsonValue } from './json-patch.js';
import { buildReview, reviewVersionFor, type ReviewVersion, type UserInfo } from './review.js';
import { resolveTarget, type TargetFlags } from './target.js';
import { verifyCall, type CallOutcome, type Check } from './verify.js';

export const MAX_REPEAT = 10_000;
export const MAX_CONCURRENCY = 64;

export type VerdictKind = 'admitted' | 'admitted-unchecked' | 'rejected-by-webhook' | 'rejected-call-failed' | 'rejected' | 'undetermined';

export interface Verdict {
  readonly kind: VerdictKind;
  /** What the API server does and says. */
  readonly message: string;
}

export interface ProbeOptions extends SimulateOptions {
  /** --webhook: the webhook's name, or CONFIGURATION/NAME. */
  readonly webhook: string;
  readonly target: TargetFlags;
  /** --ca-bundle-file: PEM roots standing in for clientConfig.caBundle. */
  readonly caBundleFile?: string;
  readonly userInfo: UserInfo;
  readonly repeat: number;
  readonly concurrency: number;
  readonly expect?: 'allowed' | 'denied';
  readonly now?: () => Date;
}

export interface LatencySummary {
  readonly calls: number;
  readonly concurrency: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly verdicts: Readonly<Partial<Record<VerdictKind, number>>>;
  /** The distinct messages of calls that were not admitted, most frequent first (at most 5). */
  readonly failures: readonly { readonly message: string; readonly count: number }[];
}

export interface ProbeReport {
  readonly webhook: {
    readonly configuration: string;
    readonly name: string;
    readonly file: string;
    readonly mutating: boolean;
    readonly failurePolicy: string;
    readonly timeoutSeconds: number;
    readonly sideEffects: string | null;
    readonly reinvocationPolicy: string | null;
    readonly admissionReviewVersions: readonly string[];
  };
  readonly request: SimulatedRequest;
  readonly reviewVersion: ReviewVersion | null;
  readonly userInfo: UserInfo;
  readonly target: { readonly connect: string; readonly serverName: string; readonly url: string; readonly roots: string };
  /** Whether the API server calls this webhook for the request (simulate's answer), and why not. */
  readonly called: { readonly called: boolean; readonly reason: string | null };
  readonly checks: readonly Check[];
  readonly verdict: Verdict;
  readonly latencyMs: number | null;
  /** The first call's patch, one line per operation. */
  readonly patch: readonly string[];
  /** The object after the webhook's patch (mutating webhooks that patched). */
  readonly objectAfter: JsonValue | null;
  readonly repeats: LatencySummary | null;
  readonly expect: 'allowed' | 'denied' | null;
  /** Whether every call's verdict is the expected one; null without --expect. */
  readonly expectationMet: boolean | null;
  /** Whether any check failed (status error). */
  readonly failed: boolean;
}

function findWebhook(configurations: readonly WebhookConfigurationObject[], wanted: string): { object: WebhookConfigurationObject; webhook: Readonly<Webhook>; index: number } {
  const slash = wanted.indexOf('/');
  const [configName, hookName] = slash < 0 ? [undefined, wanted] : [wanted.slice(0, slash), wanted.slice(slash + 1)];
  const found: { object: WebhookConfigurationObject; webhook: Readonly<Webhook>; index: number }[] = [];
  const names: string[] = [];
  for (const object of configurations) {
    for (const entry of webhooksOf(object)) {
      if (entry.webhook.name) names.push(`${object.name ?? ''}/${entry.webhook.name}`);
      if (entry.webhook.name === hookName && (configName === undefined || object.name === configName)) found.push({ object, webhook: entry.webhook, index: entry.index });
    }
  }
  if (found.length === 0) {
    const near = closest(wanted, slash < 0 ? names.map((name) => name.slice(name.indexOf('/') + 1)) : names);
    throw new UsageError(`--webhook ${wanted}: no webhook of that name in the paths${near !== undefined ? `; did you mean "${near}"?` : ''}`, names.length > 0 ? `webhooks: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}` : 'no webhook configurations found in the paths');
  }
  if (found.length > 1) throw new UsageError(`--webhook ${wanted}: ${found.length} webhooks have that name`, `name one as CONFIGURATION/NAME: ${found.map((f) => `${f.object.name ?? ''}/${wanted}`).join(', ')}`);
  const only = found[0]!;
  if (!only.object.decodable) throw new UsageError(`--webhook ${wanted}: its configuration ${only.object.name ?? ''} has fields of the wrong type; the API server would not store it (run lint)`);
  return only;
}

/** The roots: --ca-bundle-file, else the caBundle (base64 PEM), else none (the system's). A bundle Go cannot read fails the call. */
function rootsOf(webhook: Readonly<Webhook>, caBundleFile: string | undefined): { pem: string | undefined; label: string; problem: string | null } {
  let pem: string;
  let label: string;
  if (caBundleFile !== undefined) {
    try {
      pem = readFileSync(caBundleFile, 'utf8');
    } catch (error) {
      throw new UsageError(`--ca-bundle-file ${caBundleFile}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
    }
    label = `--ca-bundle-file ${caBundleFile}`;
  } else {
    const bundle = webhook.clientConfig?.caBundle;
    if (bundle === undefined || bundle === '') return { pem: undefined, label: 'the system roots (no caBundle)', problem: null };
    pem = Buffer.from(bundle, 'base64').toString('utf8');
    label = 'the caBundle';
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const readable = blocks.filter((block) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  });
  // client-go's cert.NewPoolFromBytes: no certificate in it is an error.
  if (readable.length === 0) return { pem: undefined, label, problem: 'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block' };
  return { pem: readable.join('\n'), label: `${label} (${readable.length} ${readable.length === 1 ? 'certificate' : 'certificates'})`, problem: null };
}

export function verdictOf(outcome: CallOutcome, failurePolicy: string, webhook: string): Verdict {
  switch (outcome.kind) {
    case 'allowed':
      return { kind: 'admitted', message: outcome.patched !== null ? 'admitted, with the patch applied' : 'admitted' };
    case 'denied':
      return { kind: 'rejected-by-webhook', message: outcome.message };
    case 'call-error':
      return failurePolicy === 'Ignore'
        ? { kind: 'admitted-unchecked', message: `failurePolicy Ignore: the API server logs "Failed calling webhook, failing open ${webhook}: ${outcome.reason}" and admits the request unchecked` }
        : { kind: 'rejected-call-failed', message: `Internal error occurred: ${outcome.reason}` };
    case 'internal-error':
      return { kind: 'rejected', message: outcome.message };
    case 'undetermined':
      return { kind: 'undetermined', message: outcome.message };
  }
}

function isAdmitted(kind: VerdictKind): boolean | null {
  if (kind === 'undetermined') return null;
  return kind === 'admitted' || kind === 'admitted-unchecked';
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** The patch operations, one line each: `add /metadata/annotations/x: "y"`. */
function patchLines(patch: JsonValue | undefined): string[] {
  if (patch === undefined) return [];
  return decodePatch(JSON.stringify(patch)).map((op) => {
    const target = typeof op.path === 'string' ? op.path : '';
    const from = typeof op.from === 'string' ? ` from ${op.from}` : '';
    const value = op.hasValue ? `: ${JSON.stringify(op.value)}` : '';
    return `${op.op} ${target}${from}${value}`;
  });
}

/** The API server sets metadata.namespace of a namespaced object from the request's namespace when the object names none. */
function withNamespace(object: JsonValue, request: SimulatedRequest): JsonValue {
  if (object === null || typeof object !== 'object' || Array.isArray(object) || request.namespace === null) return object;
  if (request.group === '' && request.resource === 'namespaces') return object;
  const metadata = object.metadata;
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) return object;
  if (typeof metadata?.namespace === 'string' && metadata.namespace !== '') return object;
  return { ...object, metadata: { ...(metadata ?? {}), namespace: request.namespace } };
}

interface OneCall {
  readonly checks: readonly Check[];
  readonly outcome: CallOutcome;
  readonly latencyMs: number | null;
  readonly timedOut: boolean;
  readonly patch: JsonValue | undefined;
}

export async function probe(options: ProbeOptions): Promise<ProbeReport> {
  if (!Number.isInteger(options.repeat) || options.repeat < 1 || options.repeat > MAX_REPEAT) throw new UsageError(`--repeat ${options.repeat}: give a whole number from 1 to ${MAX_REPEAT}`);
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency ${options.concurrency}: give a whole number from 1 to ${MAX_CONCURRENCY}`);
  // The target flags are checked before anything is read.
  if ((options.target.url === undefined) === (options.target.address === undefined)) resolveTarget(undefined, options.target, 10, undefined);
  if (options.object === undefined && (options.flags.operation === undefined || options.flags.resource === undefined)) {
    throw new UsageError(`probe needs --object FILE (the request's object), or --operation and --resource`, 'e.g. --object pod.yaml, or --operation DELETE --resource pods --namespace team-a');
  }
  const { path, webhookConfigurations } = await simulateRun(options);
  const { object: configuration, webhook } = findWebhook(webhookConfigurations, options.webhook);
  const name = webhook.name!;
  const mutating = configuration.kind === 'MutatingWebhookConfiguration';
  const failurePolicy = webhook.failurePolicy ?? 'Fail';
  const timeoutSeconds = typeof webhook.timeoutSeconds === 'number' ? webhook.timeoutSeconds : 10;
  const roots = rootsOf(webhook, options.caBundleFile);
  const target: CallTarget = resolveTarget(webhook.clientConfig, options.target, timeoutSeconds, roots.pem);
  const entries: readonly PathEntry[] = mutating ? path.mutating : path.validating;
  const entry = entries.find((candidate) => candidate.configuration === configuration.name && candidate.webhook === name);
  const called = { called: entry?.called ?? false, reason: entry?.reason ?? null };
  const request = path.request;
  const reviewVersion = reviewVersionFor(webhook.admissionReviewVersions);
  // DELETE sends the object deleted as oldObject; UPDATE the new object and the old one.
  const sent: JsonValue = request.operation === 'DELETE' || request.operation === 'CONNECT' ? null : withNamespace((request.object?.value ?? null) as JsonValue, request);
  const old: JsonValue = withNamespace((request.operation === 'DELETE' ? (request.object?.value ?? null) : (request.oldObject?.value ?? null)) as JsonValue, request);
  const objectName = request.object?.name ?? '';
  const now = options.now ?? (() => new Date());

  const report = (checks: readonly Check[], outcome: CallOutcome, rest: Partial<ProbeReport> = {}): ProbeReport => {
    const verdict = verdictOf(outcome, failurePolicy, name);
    const repeats = rest.repeats ?? null;
    const wanted = options.expect === 'allowed';
    // Every call's verdict, with --repeat: one call admitted unchecked among denials does not meet "denied".
    const kinds = repeats === null ? [verdict.kind] : (Object.keys(repeats.verdicts) as VerdictKind[]);
    return {
      webhook: {
        configuration: configuration.name ?? '',
        name,
        file: configuration.manifest.file.path,
        mutating,
        failurePolicy,
        timeoutSeconds,
        sideEffects: webhook.sideEffects ?? null,
        reinvocationPolicy: mutating ? (webhook.reinvocationPolicy ?? 'Never') : null,
        admissionReviewVersions: webhook.admissionReviewVersions ?? [],
      },
      request,
      reviewVersion: reviewVersion ?? null,
      userInfo: options.userInfo,
      target: { connect: `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`, serverName: target.serverName, url: target.url, roots: roots.label },
      called,
      checks,
      verdict,
      latencyMs: null,
      patch: [],
      objectAfter: null,
      repeats,
      expect: options.expect ?? null,
      expectationMet: options.expect === undefined ? null : kinds.every((kind) => isAdmitted(kind) === wanted),
      failed: checks.some((check) => check.status === 'error'),
      ...rest,
    };
  };

  const before: Check[] = [];
  if (!called.called) before.push({ id: 'called', status: 'warning', message: `the API server would not call this webhook for this request: ${called.reason ?? 'it does not match'}; probed anyway` });
  else if (called.reason !== null) before.push({ id: 'called', status: 'info', message: called.reason });
  if (entry?.detail.equivalent !== undefined) before.push({ id: 'called', status: 'warning', message: `matched through ${entry.detail.equivalent} (matchPolicy Equivalent): the API server converts the object to that version; the probe sends it as written` });
  if (request.operation === 'CREATE' && sent === null) before.push({ id: 'object', status: 'warning', message: 'no --object: the request carries object null, which the API server never sends for CREATE' });
  if (request.operation === 'UPDATE' && old === null) before.push({ id: 'object', status: 'warning', message: 'no --old-object: the request carries oldObject null, which the API server never sends for UPDATE' });

  // What the API server decides before any call (the dispatchers' first steps).
  if (request.dryRun) {
    if (webhook.sideEffects === undefined) return report([...before, { id: 'dry-run', status: 'error', message: 'Webhook SideEffects is nil' }], { kind: 'call-error', reason: `failed calling webhook ${JSON.stringify(name)}: Webhook SideEffects is nil` });
    if (webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') {
      const message = `admission webhook ${JSON.stringify(name)} does not support dry run`;
      return report([...before, { id: 'dry-run', status: 'info', message: `sideEffects ${webhook.sideEffects}: the dry run is rejected without a call: ${message}` }], { kind: 'internal-error', message });
    }
  }
  if (reviewVersion === undefined) {
    const reason = 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)';
    return report([...before, { id: 'review-version', status: 'error', message: reason }], { kind: 'call-error', reason: `failed calling webhook ${JSON.stringify(name)}: ${reason}` });
  }
  if (reviewVersion === 'v1beta1') before.push({ id: 'review-version', status: 'info', message: `sends admission.k8s.io/v1beta1 (the first of admissionReviewVersions the API server knows: ${(webhook.admissionReviewVersions ?? []).join(', ')})` });
  if (roots.problem !== null) return report([...before, { id: 'tls', status: 'error', message: roots.problem }], { kind: 'call-error', reason: `failed calling webhook ${JSON.stringify(name)}: ${roots.problem}` });

  const timeoutMs = timeoutSeconds * 1000;
  const callOnce = async (object: JsonValue): Promise<OneCall> => {
    const uid = randomUUID();
    const review = buildReview({ version: reviewVersion, uid, request, object, oldObject: old, name: objectName, userInfo: options.userInfo });
    const result = await callWebhook(target, JSON.stringify(review), timeoutMs, now);
    const verified = verifyCall(result, { webhook: name, mutating, version: reviewVersion, uid, object, now: now() });
    let patch: JsonValue | undefined;
    if (result.kind === 'response' && verified.outcome.kind === 'allowed' && verified.outcome.patchOperations > 0) {
      const response = (JSON.parse(result.body.toString('utf8')) as { response: { patch: string } }).response;
      patch = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8')) as JsonValue;
    }
    const timedOut = result.kind === 'failed' && result.stage === 'timeout';
    return { checks: verified.checks, outcome: verified.outcome, latencyMs: result.kind === 'failed' && result.stage === 'dial' ? null : result.latencyMs, timedOut, patch };
  };

  const first = await callOnce(sent);
  // A timeout is one cause: said once, by the latency check.
  const checks: Check[] = [...before, ...first.checks.filter((c) => !(first.timedOut && c.id === 'http'))];
  let objectAfter: JsonValue | null = null;
  if (mutating && first.outcome.kind === 'allowed' && first.outcome.patched !== null) {
    objectAfter = first.outcome.patched;
    const second = await callOnce(objectAfter);
    const reinvoked = webhook.reinvocationPolicy === 'IfNeeded';
    if (second.outcome.kind === 'allowed') {
      if (second.outcome.patched === null || deepEqual(second.outcome.patched, objectAfter)) {
        checks.push({ id: 'idempotence', status: 'ok', message: 'called again with the patched object, its patch changes nothing' });
      } else {
        const changes = patchLines(second.patch).slice(0, 3).join('; ');
        checks.push({
          id: 'idempotence',
          status: reinvoked ? 'error' : 'warning',
          message: `called again with the patched object, it changes it again (${changes}): not idempotent${reinvoked ? '; reinvocationPolicy IfNeeded calls it again whenever a later webhook changes the object' : '; a webhook must be idempotent (a retry or a reinvocation applies it twice)'}`,
        });
      }
    } else {
      checks.push({ id: 'idempotence', status: 'warning', message: `called again with the patched object, it ${verdictOf(second.outcome, failurePolicy, name).message}` });
    }
  }
  const latencyMs = first.latencyMs;
  if (first.timedOut) {
    const said = first.checks.find((c) => c.id === 'http')?.message ?? 'context deadline exceeded';
    checks.push({ id: 'latency', status: 'error', message: `no answer within timeoutSeconds ${timeoutSeconds}, the API server gives up: ${said}` });
  }
  else if (latencyMs !== null) {
    const share = latencyMs / timeoutMs;
    checks.push({ id: 'latency', status: share > 0.8 ? 'warning' : 'ok', message: `${Math.round(latencyMs)} ms of timeoutSeconds ${timeoutSeconds}${share > 0.8 ? ': close to the deadline' : ''}` });
  }

  let repeats: LatencySummary | null = null;
  if (options.repeat > 1) {
    const latencies: number[] = [];
    const verdicts: Partial<Record<VerdictKind, number>> = {};
    const failures = new Map<string, number>();
    const record = (call: OneCall) => {
      if (call.latencyMs !== null) latencies.push(call.latencyMs);
      const verdict = verdictOf(call.outcome, failurePolicy, name);
      verdicts[verdict.kind] = (verdicts[verdict.kind] ?? 0) + 1;
      if (verdict.kind !== 'admitted') failures.set(verdict.message, (failures.get(verdict.message) ?? 0) + 1);
    };
    record(first);
    let next = 1;
    const worker = async () => {
      while (next < options.repeat) {
        next++;
        record(await callOnce(sent));
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.repeat - 1) }, worker));
    const sorted = [...latencies].sort((a, b) => a - b);
    repeats = {
      calls: options.repeat,
      concurrency: Math.min(options.concurrency, options.repeat),
      p50Ms: percentile(sorted, 50),
      p90Ms: percentile(sorted, 90),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? 0,
      verdicts,
      failures: [...failures].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([message, count]) => ({ message, count })),
    };
    const verdictKinds = Object.keys(verdicts);
    if (verdictKinds.length > 1) checks.push({ id: 'repeat', status: 'error', message: `the ${options.repeat} calls did not all end alike: ${verdictKinds.map((kind) => `${verdicts[kind as VerdictKind]} ${kind}`).join(', ')}` });
    else checks.push({ id: 'repeat', status: repeats.p99Ms > timeoutMs * 0.8 ? 'warning' : 'ok', message: `${options.repeat} calls, ${repeats.concurrency} at a time: p50 ${Math.round(repeats.p50Ms)} ms, p99 ${Math.round(repeats.p99Ms)} ms of timeoutSeconds ${timeoutSeconds}` });
  }
  return report(checks, first.outcome, { latencyMs, patch: patchLines(first.patch), objectAfter, repeats });
}
