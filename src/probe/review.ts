/**
 * The AdmissionReview the API server sends a webhook (request/admissionreview.go:
 * CreateAdmissionObjects, CreateV1AdmissionReview): the first of the webhook's
 * admissionReviewVersions the server knows (v1, v1beta1), a fresh uid, the kind, resource and
 * subresource (the request's own too), name, namespace, operation, userInfo, the object and the
 * old object, dryRun and the operation's options. Empty fields are left out as Go's omitempty
 * leaves them out; object, oldObject and options are null when the request has none.
 */
import type { SimulatedRequest } from '../simulate/request-flags.js';
import type { JsonValue } from './json-patch.js';

export const KNOWN_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof KNOWN_REVIEW_VERSIONS)[number];

export interface UserInfo {
  readonly username: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** The version the API server sends: the first of admissionReviewVersions it knows; undefined when none. */
export function reviewVersionFor(admissionReviewVersions: readonly string[] | undefined): ReviewVersion | undefined {
  for (const version of admissionReviewVersions ?? []) {
    if ((KNOWN_REVIEW_VERSIONS as readonly string[]).includes(version)) return version as ReviewVersion;
  }
  return undefined;
}

/** The options object of the operation, as the API server passes it (CreateOptions, UpdateOptions, DeleteOptions; none for CONNECT). */
function optionsFor(operation: string, dryRun: boolean): JsonValue {
  const kind = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' }[operation];
  if (kind === undefined) return null;
  return { kind, apiVersion: 'meta.k8s.io/v1', ...(dryRun ? { dryRun: ['All'] } : {}) };
}

function userInfoJson(user: UserInfo): JsonValue {
  return {
    ...(user.username !== '' ? { username: user.username } : {}),
    ...(user.uid !== '' ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(Object.keys(user.extra).length > 0 ? { extra: Object.fromEntries(Object.entries(user.extra).map(([key, values]) => [key, [...values]])) } : {}),
  };
}

export interface ReviewInput {
  readonly version: ReviewVersion;
  readonly uid: string;
  readonly request: SimulatedRequest;
  /** The object sent: the new object (CREATE, UPDATE); null for DELETE and CONNECT. */
  readonly object: JsonValue;
  /** The old object (UPDATE) or the object deleted (DELETE); null otherwise. */
  readonly oldObject: JsonValue;
  readonly name: string;
  readonly userInfo: UserInfo;
}

export function buildReview(input: ReviewInput): { [key: string]: JsonValue } {
  const { request } = input;
  const kind = { group: request.group, version: request.version, kind: request.kind };
  const resource = { group: request.group, version: request.version, resource: request.resource };
  return {
    kind: 'AdmissionReview',
    apiVersion: `admission.k8s.io/${input.version}`,
    request: {
      uid: input.uid,
      kind,
      resource,
      ...(request.subresource !== '' ? { subResource: request.subresource } : {}),
      requestKind: kind,
      requestResource: resource,
      ...(request.subresource !== '' ? { requestSubResource: request.subresource } : {}),
      ...(input.name !== '' ? { name: input.name } : {}),
      ...(request.namespace !== null ? { namespace: request.namespace } : {}),
      operation: request.operation,
      userInfo: userInfoJson(input.userInfo),
      object: input.object,
      oldObject: input.oldObject,
      dryRun: request.dryRun,
      options: optionsFor(request.operation, request.dryRun),
    },
  };
}
