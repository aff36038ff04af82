/**
 * The texts the API server builds from Pod Security failures (k8s.io/pod-security-admission
 * `policy/checks.go` AggregateCheckResult, `admission/admission.go` EvaluatePod, and
 * apimachinery's NewForbidden for the rejection of a Pod).
 */
import { goQuote } from './checks/go-text.js';
import { formatLevelVersion, type PsaLevel, type PsaVersion } from './labels.js';

// Versions are given as the namespace label gives them: the message quotes the policy as
// labelled (`restricted:latest`, `baseline:v1.40`), not the version it evaluated as.

export interface FailureText {
  readonly reason: string;
  readonly detail: string;
}

/** Upstream's placeholder for a check that forbids without a reason. */
export const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

function reasonOf(failure: FailureText): string {
  return failure.reason.length === 0 ? UNKNOWN_FORBIDDEN_REASON : failure.reason;
}

/** api.LevelVersion.String(): `restricted:v1.35`, `baseline:latest`. */
export function levelVersionText(level: PsaLevel, version: PsaVersion): string {
  return formatLevelVersion({ level, version });
}

/** AggregateCheckResult.ForbiddenReason(): the reasons, comma-separated (used in namespace-wide warnings). */
export function forbiddenReason(failures: readonly FailureText[]): string {
  return failures.map(reasonOf).join(', ');
}

/** AggregateCheckResult.ForbiddenDetail(): each reason, with its detail in parentheses when it has one. */
export function forbiddenDetail(failures: readonly FailureText[]): string {
  return failures.map((failure) => (failure.detail === '' ? reasonOf(failure) : `${reasonOf(failure)} (${failure.detail})`)).join(', ');
}

/** The enforce error: `violates PodSecurity "restricted:v1.35": ...`. */
export function violatesMessage(level: PsaLevel, version: PsaVersion, failures: readonly FailureText[]): string {
  return `violates PodSecurity ${goQuote(levelVersionText(level, version))}: ${forbiddenDetail(failures)}`;
}

/**
 * The warn-mode warning (for Pods and for workloads with a pod template) and the audit
 * annotation's value: `would violate PodSecurity "restricted:latest": ...`.
 */
export function wouldViolateMessage(level: PsaLevel, version: PsaVersion, failures: readonly FailureText[]): string {
  return `would violate PodSecurity ${goQuote(levelVersionText(level, version))}: ${forbiddenDetail(failures)}`;
}

/**
 * The Forbidden status message of a rejected Pod (apimachinery NewForbidden):
 * `pods "web" is forbidden: violates PodSecurity ...`; `pods is forbidden: ...` without a name.
 */
export function podForbiddenMessage(
  podName: string,
  level: PsaLevel,
  version: PsaVersion,
  failures: readonly FailureText[],
): string {
  const subject = podName === '' ? 'pods' : `pods ${goQuote(podName)}`;
  return `${subject} is forbidden: ${violatesMessage(level, version, failures)}`;
}
