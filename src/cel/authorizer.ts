/**
 * Kubernetes' CEL authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) for the one
 * requester whose every decision is known without the cluster's RBAC: a member of
 * `system:masters`. kube-apiserver puts the privileged-group authorizer first in its union
 * (pkg/kubeapiserver/authorizer/config.go, `authorizerfactory.NewPrivilegedGroups`), so every
 * check it makes for such a user is allowed, with no reason and no error. That is the API
 * server's own loopback user (`system:apiserver`), which writes the RBAC bootstrap policy.
 *
 * A check of a service account's permissions (`authorizer.serviceAccount(ns, name)`) asks about
 * that account, not the requester: its answer is not known, and the call is an evaluation error.
 * For any other requester no `authorizer` is given at all, so its reads error the same way.
 */
import type { Environment } from '@marcbachmann/cel-js';

const AUTHORIZER = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
const RESOURCE_CHECK = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** A check whose every decision is "allowed": nothing is kept, since the answer never depends on it. */
class PathCheck {}
class GroupCheck {}
class ResourceCheck {}
class Decision {}
class Authorizer {
  /** `authorizer.requestResource`: a check on the request's own resource. */
  readonly requestResource = new ResourceCheck();
}

/** Registers the library's types and functions on an environment (once, when it is made). */
export function registerAuthorizerLibrary(environment: Environment): void {
  environment
    .registerType(AUTHORIZER, Authorizer)
    .registerType(PATH_CHECK, PathCheck)
    .registerType(GROUP_CHECK, GroupCheck)
    .registerType(RESOURCE_CHECK, ResourceCheck)
    .registerType(DECISION, Decision)
    .registerFunction(`${AUTHORIZER}.path(string): ${PATH_CHECK}`, () => new PathCheck())
    .registerFunction(`${AUTHORIZER}.group(string): ${GROUP_CHECK}`, () => new GroupCheck())
    .registerFunction(`${AUTHORIZER}.serviceAccount(string, string): ${AUTHORIZER}`, () => {
      throw new Error("a service account's permissions are not known here");
    })
    .registerFunction(`${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.subresource(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.namespace(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.name(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.fieldSelector(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.labelSelector(string): ${RESOURCE_CHECK}`, () => new ResourceCheck())
    .registerFunction(`${RESOURCE_CHECK}.check(string): ${DECISION}`, () => new Decision())
    .registerFunction(`${PATH_CHECK}.check(string): ${DECISION}`, () => new Decision())
    .registerFunction(`${DECISION}.allowed(): bool`, () => true)
    .registerFunction(`${DECISION}.reason(): string`, () => '')
    .registerFunction(`${DECISION}.errored(): bool`, () => false)
    .registerFunction(`${DECISION}.error(): string`, () => '');
}

/** The `authorizer` variable for a member of system:masters: every check allowed. */
export function privilegedAuthorizer(): unknown {
  return new Authorizer();
}

/** The group whose members the API server authorizes for everything (k8s.io/apiserver user.SystemPrivilegedGroup). */
export const PRIVILEGED_GROUP = 'system:masters';
