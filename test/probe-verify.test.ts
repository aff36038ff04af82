/**
 * What the API server makes of a webhook's answer (src/probe/verify.ts), step by step, without a
 * network: each case a response as call.ts hands it over, and the API server's words for it.
 */
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../src/probe/call.js';
import { verdictOf } from '../src/probe/probe.js';
import { deniedMessage, httpErrorReason, verifyCall, type VerifyContext } from '../src/probe/verify.js';

const UID = '0b6f1c1e-0000-4000-8000-000000000001';
const TLS = { protocol: 'TLSv1.3', certificate: null, chainError: null, problem: null };
const context = (over: Partial<VerifyContext> = {}): VerifyContext => ({ webhook: 'hook.example.com', mutating: false, version: 'v1', uid: UID, object: { metadata: { name: 'a' } }, ...over });
const response = (body: unknown, status = 200, contentType = 'application/json', location?: string): CallResult => ({
  kind: 'response',
  status,
  contentType,
  location,
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  latencyMs: 5,
  tls: TLS,
});
const review = (fields: Record<string, unknown>, top: Record<string, unknown> = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) => ({ ...top, response: { uid: UID, ...fields } });
const patch = (ops: unknown[]) => Buffer.from(JSON.stringify(ops)).toString('base64');
const reason = (result: CallResult, ctx = context()) => {
  const { outcome } = verifyCall(result, ctx);
  return outcome.kind === 'call-error' ? outcome.reason : outcome.kind === 'internal-error' || outcome.kind === 'undetermined' || outcome.kind === 'denied' ? outcome.message : outcome.kind;
};

describe('verifyCall', () => {
  it('allowed, denied (with and without an explanation)', () => {
    expect(reason(response(review({ allowed: true })))).toBe('allowed');
    expect(reason(response(review({ allowed: false, status: { message: 'no' } })))).toBe('admission webhook "hook.example.com" denied the request: no');
    expect(reason(response(review({ allowed: false, status: { reason: 'Forbidden' } })))).toBe('admission webhook "hook.example.com" denied the request: Forbidden');
    const bare = verifyCall(response(review({ allowed: false })), context());
    expect(bare.outcome).toMatchObject({ kind: 'denied', message: 'admission webhook "hook.example.com" denied the request without explanation', code: 500 });
    expect(bare.checks.find((c) => c.id === 'allowed')?.status).toBe('warning');
    // `allowed` left out is false, as Go decodes it.
    expect(verifyCall(response(review({})), context()).outcome.kind).toBe('denied');
  });

  it('HTTP errors as client-go says them: a Status body\'s message, else the generic text', () => {
    expect(reason(response({ kind: 'Status', status: 'Failure', message: 'webhook is down' }, 503))).toBe('failed calling webhook "hook.example.com": failed to call webhook: webhook is down');
    expect(reason(response('', 503, 'text/plain'))).toContain('the server is currently unable to handle the request');
    expect(httpErrorReason(500, 'application/json', Buffer.from('{"x":1}'))).toBe('an error on the server ("unknown") has prevented the request from succeeding');
    expect(httpErrorReason(404, undefined, Buffer.from('nope'))).toBe('the server could not find the requested resource');
    expect(verifyCall(response('', 302, 'text/html', 'https://elsewhere.example/'), context()).outcome.kind).toBe('undetermined');
  });

  it('bodies that do not decode', () => {
    expect(reason(response('', 200))).toBe('failed calling webhook "hook.example.com": failed to call webhook: 0-length response with status code: 200 and content type: application/json');
    expect(reason(response('<html>', 200))).toMatch(/failed to call webhook: couldn't get version\/kind; json parse error: /);
    expect(reason(response(review({ allowed: 'yes' })))).toContain('json: cannot unmarshal string into Go struct field AdmissionReview.response.allowed of type bool');
    expect(reason(response(review({ allowed: true, patch: '***', patchType: 'JSONPatch' }), 200), context({ mutating: true }))).toContain('illegal base64 data at input byte 0');
    expect(reason(response(review({ allowed: true }, { apiVersion: 'example.com/v1', kind: 'AdmissionReview' })))).toContain('no kind "AdmissionReview" is registered for version "example.com/v1"');
  });

  it('VerifyAdmissionResponse, in its order: absent, uid, apiVersion and kind, patch fields', () => {
    expect(reason(response({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }))).toBe('failed calling webhook "hook.example.com": received invalid webhook response: webhook response was absent');
    expect(reason(response(review({ uid: 'other', allowed: true })))).toBe(`failed calling webhook "hook.example.com": received invalid webhook response: expected response.uid="${UID}", got "other"`);
    expect(reason(response(review({ allowed: true }, { kind: 'AdmissionReview' })))).toContain('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=AdmissionReview');
    expect(reason(response(review({ allowed: true }, { apiVersion: 'admission.k8s.io/v1' })))).toContain('got admission.k8s.io/v1, Kind=');
    expect(reason(response(review({ allowed: true, patchType: 'JSONPatch' })), context({ mutating: true }))).toContain('webhook returned response.patchType but not response.patch');
    expect(reason(response(review({ allowed: true, patch: patch([]) })))).toContain('validating webhook may not return response.patch');
    expect(reason(response(review({ allowed: true, patchType: 'JSONPatch' })))).toContain('validating webhook may not return response.patchType');
  });

  it('v1beta1: no uid or type check, a patch taken as JSONPatch', () => {
    const beta = context({ version: 'v1beta1', mutating: true });
    const answer = { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'x', allowed: true, patch: patch([{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]) } };
    const { outcome, checks } = verifyCall(response(answer), beta);
    expect(outcome).toMatchObject({ kind: 'allowed', patched: { metadata: { name: 'a', labels: { a: 'b' } } } });
    expect(checks.find((c) => c.id === 'uid')?.status).toBe('warning');
    expect(reason(response(review({ allowed: true })), beta)).toContain('converting (v1.AdmissionReview) to (v1beta1.AdmissionReview): unknown conversion');
  });

  it('patches: undecodable, unsupported type, on DELETE, not applying', () => {
    const mutating = context({ mutating: true });
    expect(reason(response(review({ allowed: true, patch: Buffer.from('{}').toString('base64'), patchType: 'JSONPatch' })), mutating)).toContain('received undecodable patch in webhook response: json: cannot unmarshal object');
    expect(reason(response(review({ allowed: true, patch: patch([{ op: 'add', path: '/x', value: 1 }]), patchType: 'MergePatch' })), mutating)).toBe('failed calling webhook "hook.example.com": unsupported patch type "MergePatch"');
    expect(reason(response(review({ allowed: true, patch: patch([{ op: 'add', path: '/x', value: 1 }]), patchType: 'JSONPatch' })), context({ mutating: true, object: null }))).toBe('Internal error occurred: admission webhook "hook.example.com" attempted to modify the object, which is not supported for this operation');
    expect(reason(response(review({ allowed: true, patch: patch([{ op: 'remove', path: '/spec' }]), patchType: 'JSONPatch' })), mutating)).toMatch(/^Internal error occurred: remove operation does not apply/);
    expect(verifyCall(response(review({ allowed: true, patch: patch([]), patchType: 'JSONPatch' })), mutating).outcome).toMatchObject({ kind: 'allowed', patched: null });
  });

  it('the verdict under failurePolicy', () => {
    const callError = { kind: 'call-error', reason: 'failed calling webhook "h": failed to call webhook: EOF' } as const;
    expect(verdictOf(callError, 'Ignore', 'h')).toEqual({ kind: 'admitted-unchecked', message: 'failurePolicy Ignore: the API server logs "Failed calling webhook, failing open h: failed calling webhook "h": failed to call webhook: EOF" and admits the request unchecked' });
    expect(verdictOf(callError, 'Fail', 'h')).toEqual({ kind: 'rejected-call-failed', message: 'Internal error occurred: failed calling webhook "h": failed to call webhook: EOF' });
    expect(verdictOf({ kind: 'denied', message: deniedMessage('h', { message: 'm' }), code: 403, warnings: [] }, 'Ignore', 'h').kind).toBe('rejected-by-webhook');
    expect(verdictOf({ kind: 'internal-error', message: 'Internal error occurred: x' }, 'Ignore', 'h').kind).toBe('rejected');
  });
});
