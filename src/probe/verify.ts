/**
 * What the API server makes of one call's result, step by step as the dispatchers take it
 * (mutating/dispatcher.go callAttrMutatingHook, validating/dispatcher.go callHook,
 * request/admissionreview.go VerifyAdmissionResponse, client-go's rest Result.Into), each step a
 * check with the API server's own words when it fails:
 *
 * - the call: the certificate, the connection, the deadline (./call.ts says them as Go does);
 * - the HTTP status: outside 200–206 the call failed (client-go: a Status body's message, else
 *   its generic text for the code); a redirect is followed by Go's client, not by the probe;
 * - the body: decoded into the AdmissionReview of the version sent (a v1beta1 answer to a v1
 *   request does not convert), then the response's presence, its uid (v1), its apiVersion and
 *   kind (v1), patch and patchType (together, mutating only);
 * - allowed and status: a denial is the webhook's answer, whatever the failurePolicy;
 * - the patch: base64, a JSON Patch, patchType JSONPatch, an object to apply it to, and that it
 *   applies (a patch that does not apply is an internal error: rejected under any failurePolicy).
 *
 * The outcome is one of: allowed (with the object after the patch), denied, a call error (the
 * failurePolicy decides), an internal error (rejected), or undetermined (a redirect).
 */
import { isRecord } from '../json.js';
import type { CallResult } from './call.js';
import { applyPatch, decodePatch, PatchError, type JsonValue } from './json-patch.js';
import type { ReviewVersion } from './review.js';

export type CheckStatus = 'ok' | 'info' | 'warning' | 'error' | 'skipped';

export interface Check {
  /** A stable id: tls, http, decode, response, uid, kind, patch-fields, allowed, warnings, audit-annotations, patch, idempotence, latency, called. */
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
}

export type CallOutcome =
  | { readonly kind: 'allowed'; readonly patched: JsonValue | null; readonly patchOperations: number; readonly warnings: readonly string[] }
  | { readonly kind: 'denied'; readonly message: string; readonly code: number; readonly warnings: readonly string[] }
  /** ErrCallingWebhook: the failurePolicy decides. `reason` is its Error(): failed calling webhook "…": …. */
  | { readonly kind: 'call-error'; readonly reason: string }
  /** An error outside the failurePolicy: the request is rejected with this message. */
  | { readonly kind: 'internal-error'; readonly message: string }
  | { readonly kind: 'undetermined'; readonly message: string };

export interface VerifyContext {
  readonly webhook: string;
  readonly mutating: boolean;
  readonly version: ReviewVersion;
  readonly uid: string;
  /** The object the patch applies to (null for DELETE and CONNECT). */
  readonly object: JsonValue;
  /** The time the certificate's expiry is measured from (default: now). */
  readonly now?: Date;
}

export interface Verified {
  readonly checks: readonly Check[];
  readonly outcome: CallOutcome;
}

const callError = (ctx: VerifyContext, reason: string): CallOutcome => ({ kind: 'call-error', reason: `failed calling webhook ${JSON.stringify(ctx.webhook)}: ${reason}` });

/** client-go's generic texts for an HTTP error without a Status body (apimachinery errors.NewGenericServerResponse). */
export function genericServerResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
    case 415:
      return serverMessage;
    case 406:
      return serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    default:
      return code >= 500 ? `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding` : `the server responded with the status code ${code} but did not return more information`;
  }
}

function isTextResponse(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType === '') return true;
  return contentType.trim().toLowerCase().startsWith('text/');
}

/** The error client-go returns for a status outside 200–206: a Failure Status body's message, else the generic text. */
export function httpErrorReason(status: number, contentType: string | undefined, body: Buffer): string {
  const text = body.subarray(0, 2048).toString('utf8');
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (isRecord(parsed) && parsed.kind === 'Status' && parsed.status === 'Failure' && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the generic text
  }
  return genericServerResponse(status, isTextResponse(contentType) ? text.trim() : 'unknown');
}

/** Go's GroupVersionKind.String() of what a response says: "group/version, Kind=kind". */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/** encoding/json's error for a field of the wrong type. */
function typeError(field: string, value: unknown, goType: string): string {
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
  return `json: cannot unmarshal ${kind} into Go struct field AdmissionReview.response.${field} of type ${goType}`;
}

/** Go's base64.StdEncoding (as encoding/json decodes []byte): the bytes, or the offset of the first bad character. */
export function decodeBase64(text: string): Buffer | { badAt: number } {
  const clean = text.replace(/[\r\n]/g, '');
  const bad = /[^A-Za-z0-9+/=]/.exec(clean);
  if (bad) return { badAt: bad.index };
  if (clean.length % 4 !== 0) return { badAt: clean.length - (clean.length % 4) };
  const pad = clean.indexOf('=');
  if (pad >= 0 && (pad < clean.length - 2 || !/^=+$/.test(clean.slice(pad)))) return { badAt: pad };
  return Buffer.from(clean, 'base64');
}

interface ResponseFields {
  readonly uid: string;
  readonly allowed: boolean;
  readonly patch: Buffer | undefined;
  readonly patchType: string | undefined | null;
  readonly status: Record<string, unknown> | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The response's fields as encoding/json decodes them into AdmissionResponse, or the decode error. */
function decodeResponse(response: Record<string, unknown>): ResponseFields | string {
  const { uid = '', allowed = false, patch, patchType, status, warnings = [], auditAnnotations = {} } = response;
  if (uid !== null && typeof uid !== 'string') return typeError('uid', uid, 'types.UID');
  if (allowed !== null && typeof allowed !== 'boolean') return typeError('allowed', allowed, 'bool');
  if (patch !== undefined && patch !== null && typeof patch !== 'string') return typeError('patch', patch, '[]uint8');
  if (patchType !== undefined && patchType !== null && typeof patchType !== 'string') return typeError('patchType', patchType, 'v1.PatchType');
  if (status !== undefined && status !== null && !isRecord(status)) return typeError('status', status, 'v1.Status');
  if (warnings !== null && (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string'))) return typeError('warnings', warnings, '[]string');
  if (auditAnnotations !== null && (!isRecord(auditAnnotations) || Object.values(auditAnnotations).some((v) => typeof v !== 'string'))) return typeError('auditAnnotations', auditAnnotations, 'map[string]string');
  let bytes: Buffer | undefined;
  if (typeof patch === 'string') {
    const decoded = decodeBase64(patch);
    if (!Buffer.isBuffer(decoded)) return `illegal base64 data at input byte ${decoded.badAt}`;
    bytes = decoded;
  }
  return {
    uid: uid ?? '',
    allowed: allowed ?? false,
    patch: bytes,
    patchType: patchType as string | null | undefined,
    status: (status ?? undefined) as Record<string, unknown> | undefined,
    warnings: (warnings ?? []) as string[],
    auditAnnotations: (auditAnnotations ?? {}) as Record<string, string>,
  };
}

/** webhookerrors.ToStatusErr: the message the user sees for a denial. */
export function deniedMessage(webhook: string, status: Record<string, unknown> | undefined): string {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const message = typeof status?.message === 'string' ? status.message : '';
  const reason = typeof status?.reason === 'string' ? status.reason : '';
  if (message !== '') return `${deniedBy}: ${message}`;
  if (reason !== '') return `${deniedBy}: ${reason}`;
  return `${deniedBy} without explanation`;
}

/** A serving certificate that expires sooner than this is a warning. */
export const EXPIRY_WARNING_DAYS = 7;

function tlsChecks(result: CallResult, now: Date): Check[] {
  const tls = result.tls;
  if (tls === undefined) return [{ id: 'tls', status: 'skipped', message: 'no TLS handshake: the connection failed first' }];
  const cert = tls.certificate;
  const names = cert === null ? 'no certificate' : `certificate for ${[...cert.dnsNames, ...cert.ipAddresses].join(', ') || `CN=${cert.commonName}`}, valid until ${cert.validTo.toISOString().slice(0, 10)}`;
  if (tls.problem !== null) return [{ id: 'tls', status: 'error', message: `${tls.problem} (${names})` }];
  const daysLeft = cert === null ? Infinity : (cert.validTo.getTime() - now.getTime()) / 86_400_000;
  if (daysLeft < EXPIRY_WARNING_DAYS) return [{ id: 'tls', status: 'warning', message: `${tls.protocol ?? 'TLS'}, ${names}, verified; it expires in ${daysLeft < 1 ? 'less than a day' : `${Math.floor(daysLeft)} ${Math.floor(daysLeft) === 1 ? 'day' : 'days'}`}: from then every call fails` }];
  return [{ id: 'tls', status: 'ok', message: `${tls.protocol ?? 'TLS'}, ${names}, verified` }];
}

export function verifyCall(result: CallResult, ctx: VerifyContext): Verified {
  const checks: Check[] = [...tlsChecks(result, ctx.now ?? new Date())];
  const done = (outcome: CallOutcome): Verified => ({ checks, outcome });
  if (result.kind === 'failed') {
    if (result.stage !== 'tls') checks.push({ id: 'http', status: 'error', message: result.reason });
    return done(callError(ctx, `failed to call webhook: ${result.reason}`));
  }
  const { status, body } = result;
  if (status >= 300 && status < 400) {
    checks.push({ id: 'http', status: 'error', message: `HTTP ${status}${result.location !== undefined ? ` to ${result.location}` : ''}: the API server's client follows redirects, sending the AdmissionReview there; the probe does not` });
    return done({ kind: 'undetermined', message: `the webhook redirects (HTTP ${status}); answer with 200 and the AdmissionReview instead` });
  }
  if (status < 200 || status > 206) {
    const reason = httpErrorReason(status, result.contentType, body);
    checks.push({ id: 'http', status: 'error', message: `HTTP ${status}: ${reason} (a call error: failurePolicy decides; a denial is HTTP 200 with allowed: false)` });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  checks.push({ id: 'http', status: 'ok', message: `HTTP ${status}` });
  if (body.length === 0) {
    const reason = `0-length response with status code: ${status} and content type: ${result.contentType ?? ''}`;
    checks.push({ id: 'decode', status: 'error', message: reason });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  let review: unknown;
  try {
    review = JSON.parse(body.toString('utf8'));
  } catch (error) {
    const reason = `couldn't get version/kind; json parse error: ${(error as Error).message}`;
    checks.push({ id: 'decode', status: 'error', message: reason });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  if (!isRecord(review)) {
    const reason = `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(review) ? 'array' : typeof review} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
    checks.push({ id: 'decode', status: 'error', message: reason });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  const rawApiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
  const rawKind = typeof review.kind === 'string' ? review.kind : '';
  // The decoder fills what the body leaves out from the type it decodes into, then must find that type.
  const apiVersion = rawApiVersion === '' ? `admission.k8s.io/${ctx.version}` : rawApiVersion;
  const kind = rawKind === '' ? 'AdmissionReview' : rawKind;
  const answered = /^admission\.k8s\.io\/(v1|v1beta1)$/.exec(apiVersion)?.[1];
  if (kind !== 'AdmissionReview' || answered === undefined) {
    const reason = `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`;
    checks.push({ id: 'kind', status: 'error', message: `the response is a ${apiVersion} ${kind}; sent ${`admission.k8s.io/${ctx.version}`} AdmissionReview: ${reason}` });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  if (answered !== ctx.version) {
    const reason = `converting (${answered}.AdmissionReview) to (${ctx.version}.AdmissionReview): unknown conversion`;
    checks.push({ id: 'kind', status: 'error', message: `answered ${apiVersion} to an admission.k8s.io/${ctx.version} request: ${reason}` });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  const rawResponse = review.response;
  if (rawResponse !== undefined && rawResponse !== null && !isRecord(rawResponse)) {
    const reason = typeError('', rawResponse, 'v1.AdmissionResponse').replace('response.', 'response');
    checks.push({ id: 'decode', status: 'error', message: reason });
    return done(callError(ctx, `failed to call webhook: ${reason}`));
  }
  const fields = isRecord(rawResponse) ? decodeResponse(rawResponse) : undefined;
  if (typeof fields === 'string') {
    checks.push({ id: 'decode', status: 'error', message: fields });
    return done(callError(ctx, `failed to call webhook: ${fields}`));
  }
  checks.push({ id: 'decode', status: 'ok', message: `an ${apiVersion} AdmissionReview` });
  const invalid = (id: string, reason: string): Verified => {
    checks.push({ id, status: 'error', message: reason });
    return done(callError(ctx, `received invalid webhook response: ${reason}`));
  };
  if (fields === undefined) return invalid('response', 'webhook response was absent');
  let patchType = '';
  if (ctx.version === 'v1') {
    if (fields.uid !== ctx.uid) return invalid('uid', `expected response.uid=${JSON.stringify(ctx.uid)}, got ${JSON.stringify(fields.uid)}`);
    checks.push({ id: 'uid', status: 'ok', message: 'response.uid echoes request.uid' });
    if (rawApiVersion !== 'admission.k8s.io/v1' || rawKind !== 'AdmissionReview') return invalid('kind', `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(rawApiVersion, rawKind)}`);
    checks.push({ id: 'kind', status: 'ok', message: 'apiVersion admission.k8s.io/v1, kind AdmissionReview' });
    const hasPatch = fields.patch !== undefined && fields.patch.length > 0;
    const hasType = fields.patchType !== undefined && fields.patchType !== null;
    if (ctx.mutating) {
      if (hasPatch && !hasType) return invalid('patch-fields', 'webhook returned response.patch but not response.patchType');
      if (!hasPatch && hasType) return invalid('patch-fields', 'webhook returned response.patchType but not response.patch');
      if (hasType) {
        patchType = fields.patchType!;
        if (patchType === '') return invalid('patch-fields', `webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
      }
    } else {
      if (hasPatch) return invalid('patch-fields', 'validating webhook may not return response.patch');
      if (hasType) return invalid('patch-fields', 'validating webhook may not return response.patchType');
    }
  } else {
    checks.push({ id: 'uid', status: fields.uid === ctx.uid ? 'ok' : 'warning', message: fields.uid === ctx.uid ? 'response.uid echoes request.uid' : `response.uid is ${JSON.stringify(fields.uid)}, not the request's: v1beta1 answers are not checked, but v1 ones are` });
    // v1beta1: the patch type is not checked; a patch is taken as JSONPatch.
    if (ctx.mutating && fields.patch !== undefined && fields.patch.length > 0) patchType = 'JSONPatch';
  }
  const warnings = fields.warnings;
  if (warnings.length > 0) checks.push({ id: 'warnings', status: 'info', message: `${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'} for the client: ${warnings.map((w) => JSON.stringify(w)).join(', ')}` });
  const annotations = Object.keys(fields.auditAnnotations);
  if (annotations.length > 0) checks.push({ id: 'audit-annotations', status: 'info', message: `audit annotations: ${annotations.map((key) => `${ctx.webhook}/${key}`).join(', ')}` });
  if (!fields.allowed) {
    const message = deniedMessage(ctx.webhook, fields.status);
    const code = typeof fields.status?.code === 'number' && fields.status.code !== 0 ? fields.status.code : 500;
    const explained = message.endsWith('without explanation') ? 'warning' : 'ok';
    checks.push({ id: 'allowed', status: explained, message: `allowed: false (HTTP ${code} to the client): ${message}` });
    return done({ kind: 'denied', message, code, warnings });
  }
  checks.push({ id: 'allowed', status: 'ok', message: 'allowed: true' });
  if (!ctx.mutating || fields.patch === undefined || fields.patch.length === 0) return done({ kind: 'allowed', patched: null, patchOperations: 0, warnings });
  let operations;
  try {
    operations = decodePatch(fields.patch.toString('utf8'));
  } catch (error) {
    checks.push({ id: 'patch', status: 'error', message: `received undecodable patch in webhook response: ${(error as Error).message}` });
    return done(callError(ctx, `received undecodable patch in webhook response: ${(error as Error).message}`));
  }
  if (operations.length === 0) {
    checks.push({ id: 'patch', status: 'ok', message: 'an empty patch: no change' });
    return done({ kind: 'allowed', patched: null, patchOperations: 0, warnings });
  }
  if (ctx.object === null) {
    const message = `Internal error occurred: admission webhook ${JSON.stringify(ctx.webhook)} attempted to modify the object, which is not supported for this operation`;
    checks.push({ id: 'patch', status: 'error', message });
    return done({ kind: 'internal-error', message });
  }
  if (patchType !== 'JSONPatch') {
    checks.push({ id: 'patch', status: 'error', message: `unsupported patch type ${JSON.stringify(patchType)}: the API server applies JSONPatch only` });
    return done(callError(ctx, `unsupported patch type ${JSON.stringify(patchType)}`));
  }
  try {
    const patched = applyPatch(ctx.object, operations);
    checks.push({ id: 'patch', status: 'ok', message: `JSONPatch of ${operations.length} ${operations.length === 1 ? 'operation' : 'operations'}, applies` });
    return done({ kind: 'allowed', patched, patchOperations: operations.length, warnings });
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    const message = `Internal error occurred: ${error.message}`;
    checks.push({ id: 'patch', status: 'error', message: `the patch does not apply: ${error.message} (rejected under any failurePolicy)` });
    return done({ kind: 'internal-error', message });
  }
}
