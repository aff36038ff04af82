/**
 * What happens to the request when a called webhook or policy fails (facts §6, mutating and
 * validating dispatcher.go):
 *
 * - a call error (timeout, connection refused, a non-2xx answer, an invalid AdmissionReview):
 *   failurePolicy Fail ends the request with 500 "failed calling webhook"; Ignore skips the
 *   webhook (fails open) once its timeout has passed;
 * - a denial (allowed: false) rejects the request whatever the failurePolicy;
 * - a matchCondition that errors (and none is false): Fail rejects with 403, Ignore skips;
 * - a dry-run request reaching a webhook whose sideEffects is not None or NoneOnDryRun is
 *   rejected ("does not support dry run"), whatever the failurePolicy; without sideEffects at
 *   all (only old v1beta1 objects) it is a call error, so the failurePolicy applies.
 *
 * Worst-case latency: mutating webhooks run one after another, each up to its timeout, and a
 * webhook that may be re-invoked twice; validating webhooks run in parallel, so the slowest
 * adds its timeout. Policies run in the API server and add no network wait.
 */
import type { AdmissionPath, PathEntry } from './path.js';

export interface FailureRow {
  readonly phase: 'mutating' | 'validating' | 'policy';
  readonly entry: PathEntry;
  /** If it times out or is unreachable (for a policy: if its evaluation errors). */
  readonly ifUnavailable: string;
  readonly ifDenies: string;
  /** Only when some matchCondition could not be evaluated here. */
  readonly ifConditionErrors?: string;
}

export interface DryRunFailure {
  readonly phase: 'mutating' | 'validating';
  readonly entry: PathEntry;
  readonly sideEffects: string | undefined;
  readonly outcome: string;
}

function webhookRow(phase: 'mutating' | 'validating', entry: PathEntry): FailureRow {
  const name = entry.webhook ?? '';
  const fail = entry.failurePolicy !== 'Ignore';
  const wait = `${entry.timeoutSeconds}s${entry.reinvoked ? ' (twice if re-invoked)' : ''}`;
  return {
    phase,
    entry,
    ifUnavailable: fail
      ? `request fails after up to ${wait}: 500 Internal error occurred: failed calling webhook "${name}" (failurePolicy Fail)`
      : `webhook skipped (fails open) after up to ${wait}; the request goes on${phase === 'mutating' ? ' without its mutation' : ' unchecked by it'}`,
    ifDenies: `request rejected: admission webhook "${name}" denied the request (whatever the failurePolicy)`,
    ...(entry.detail.dependsOn.length > 0
      ? { ifConditionErrors: fail ? 'request rejected with 403 Forbidden before the webhook is called (failurePolicy Fail)' : 'webhook skipped (failurePolicy Ignore)' }
      : {}),
  };
}

function policyRow(entry: PathEntry): FailureRow {
  const actions = entry.detail.validationActions ?? [];
  const fail = entry.failurePolicy !== 'Ignore';
  const effects = [actions.includes('Warn') ? 'warns the client' : '', actions.includes('Audit') ? 'records an audit annotation' : ''].filter((text) => text !== '');
  const denies = actions.includes('Deny')
    ? `request rejected: ValidatingAdmissionPolicy '${entry.configuration}' with binding '${entry.webhook}' denied request`
    : `not rejected: validationActions ${actions.length > 0 ? actions.join(', ') : '(none)'}, so a failed validation only ${effects.length > 0 ? effects.join(' and ') : 'is dropped'}`;
  // Under Fail an evaluation error counts as a failed validation, handled by the binding's validationActions.
  return {
    phase: 'policy',
    entry,
    ifUnavailable: fail ? `an expression error (or missing params) counts as a failed validation: ${denies}` : 'an expression error (or missing params) is ignored (failurePolicy Ignore)',
    ifDenies: denies,
    ...(entry.detail.dependsOn.length > 0 ? { ifConditionErrors: fail ? `counts as a failed validation (failurePolicy Fail): ${denies}` : 'policy skipped (failurePolicy Ignore)' } : {}),
  };
}

/** PodSecurity rejects the request in the validating phase, before the validating policies and webhooks. */
function stopsAtPodSecurity(path: AdmissionPath): boolean {
  return path.podSecurity?.result.outcome === 'rejected';
}

export function failureTable(path: AdmissionPath): FailureRow[] {
  const reached = !stopsAtPodSecurity(path);
  return [
    ...path.mutating.filter((entry) => entry.called).map((entry) => webhookRow('mutating', entry)),
    ...(reached ? path.validating.filter((entry) => entry.called).map((entry) => webhookRow('validating', entry)) : []),
    ...(reached ? path.policies.filter((entry) => entry.called).map(policyRow) : []),
  ];
}

export interface Latency {
  readonly mutatingSeconds: number;
  readonly validatingSeconds: number;
  readonly totalSeconds: number;
}

/** kube-apiserver --request-timeout default: a request still in admission then fails with a timeout. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;

export function worstCaseLatency(path: AdmissionPath): Latency {
  const mutatingSeconds = path.mutating.filter((entry) => entry.called).reduce((sum, entry) => sum + (entry.timeoutSeconds ?? 0) * (entry.reinvoked ? 2 : 1), 0);
  // A request PodSecurity rejects never reaches the validating webhooks.
  const validatingSeconds = stopsAtPodSecurity(path) ? 0 : path.validating.filter((entry) => entry.called).reduce((max, entry) => Math.max(max, entry.timeoutSeconds ?? 0), 0);
  return { mutatingSeconds, validatingSeconds, totalSeconds: mutatingSeconds + validatingSeconds };
}

/** With --dry-run: the called webhooks whose sideEffects make the request fail. */
export function dryRunFailures(path: AdmissionPath): DryRunFailure[] {
  if (!path.request.dryRun) return [];
  const failures: DryRunFailure[] = [];
  for (const [phase, entries] of [['mutating', path.mutating], ['validating', stopsAtPodSecurity(path) ? [] : path.validating]] as const) {
    for (const entry of entries.filter((candidate) => candidate.called)) {
      const sideEffects = entry.detail.sideEffects;
      if (sideEffects === 'None' || sideEffects === 'NoneOnDryRun') continue;
      failures.push({
        phase,
        entry,
        sideEffects,
        outcome:
          sideEffects === undefined
            ? entry.failurePolicy === 'Ignore'
              ? 'sideEffects is not set: a call error, skipped under failurePolicy Ignore'
              : 'sideEffects is not set: a call error, the request fails (failurePolicy Fail)'
            : `request rejected: admission webhook "${entry.webhook}" does not support dry run (sideEffects ${sideEffects}; whatever the failurePolicy)`,
      });
    }
  }
  return failures;
}
