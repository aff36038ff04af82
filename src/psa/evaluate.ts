/**
 * Evaluates a pod (or a pod template's metadata and spec) against a Pod Security Standards level
 * and policy version, as the API server's PodSecurity admission does (k8s.io/pod-security-admission
 * `policy` package, registry and checks under `./checks/`).
 */
import type { FieldPath } from '../field-path.js';
import { decodePod } from './checks/decode.js';
import { DEFAULT_REGISTRY } from './checks/index.js';
import { prepareAsApiServer, type PodObjectKind } from './checks/prepare.js';
import type { PsaLevel } from './labels.js';


export type { PodObjectKind } from './checks/prepare.js';

export interface PodSecurityFailure {
  /** The upstream check ID, e.g. `allowPrivilegeEscalation`. */
  readonly check: string;
  /** Upstream's ForbiddenReason, e.g. `allowPrivilegeEscalation != false`. */
  readonly reason: string;
  /** Upstream's ForbiddenDetail, e.g. `container "app" must set securityContext.allowPrivilegeEscalation=false`. */
  readonly detail: string;
  /**
   * The field behind the first thing the detail names, relative to the pod: `['spec',
   * 'containers', 0, 'securityContext', 'privileged']`, `['metadata', 'annotations', key]`. Where
   * the fix is to set a field that is missing, the path names that field (for runAsNonRoot and
   * seccompProfile, the pod-level one, which covers every container), so it may not exist in the
   * input. Where the API server filled a value in (a Pod's hostPort from containerPort with
   * hostNetwork, an AppArmor profile from its annotation), the path names the field it came from.
   */
  readonly path: FieldPath;
}

export interface PodSecurityResult {
  readonly allowed: boolean;
  /** In the order the API server lists them: baseline checks, then restricted, each by check ID. */
  readonly failures: readonly PodSecurityFailure[];
}

export interface EvaluateOptions {
  /**
   * `pod` (default) for a Pod object, which the API server defaults and prepares as a Pod before
   * admission; `template` for the pod template of a workload. This changes some messages and
   * paths, never whether the pod is allowed (see `checks/prepare.ts`).
   */
  readonly object?: PodObjectKind;
}

/**
 * @param version the policy version 1.<minor>, `latest` already resolved by the caller; a minor
 *   newer than the newest check evaluates as the newest. Throws a RangeError when the minor is not
 *   a non-negative integer (no "v1.x" label can name such a version).
 * @param podMetadata, podSpec decoded JSON/YAML of any shape; see `checks/decode.ts` for how values
 *   of the wrong type are read.
 */
export function evaluatePod(
  level: PsaLevel,
  version: { readonly minor: number },
  podMetadata: unknown,
  podSpec: unknown,
  options: EvaluateOptions = {},
): PodSecurityResult {
  if (level === 'privileged') return { allowed: true, failures: [] };
  const checks = DEFAULT_REGISTRY.checksFor(level === 'baseline' ? 'baseline' : 'restricted', version.minor);
  const pod = prepareAsApiServer(decodePod(podMetadata, podSpec), options.object ?? 'pod');
  const failures: PodSecurityFailure[] = [];
  for (const check of checks) {
    const failure = check.checkPod(pod);
    if (failure !== undefined) failures.push({ check: check.id, ...failure });
  }
  return { allowed: failures.length === 0, failures };
}

/**
 * Whether a pod passes every one of the given levels and policy versions: the `allowed` of
 * evaluatePod for each, without the failures' messages and paths, the pod decoded once. Whether
 * a pod is allowed does not depend on how it was prepared (checks/prepare.ts), so a workload's
 * template gets the answer its Pods get. Each level and version once; stops at the first failure.
 */
export function podPassesAll(levels: readonly { readonly level: PsaLevel; readonly minor: number }[], podMetadata: unknown, podSpec: unknown): boolean {
  let pod: ReturnType<typeof prepareAsApiServer> | undefined;
  const passed = new Set<string>();
  for (const { level, minor } of levels) {
    if (level === 'privileged' || passed.has(`${level}:${minor}`)) continue;
    passed.add(`${level}:${minor}`);
    pod ??= prepareAsApiServer(decodePod(podMetadata, podSpec, { paths: false }), 'pod');
    for (const check of DEFAULT_REGISTRY.checksFor(level === 'baseline' ? 'baseline' : 'restricted', minor)) if (check.checkPod(pod) !== undefined) return false;
  }
  return true;
}

/** The newest policy minor version the checks define (`latest` evaluates as this one). */
export const NEWEST_POLICY_MINOR: number = DEFAULT_REGISTRY.maxMinor;
