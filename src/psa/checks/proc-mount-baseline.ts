/**
 * upstream policy/check_procMount_baseline.go (baseline): securityContext.procMount must be
 * unset or "Default"; from v1.35 any value is allowed in a user namespace (`hostUsers: false`).
 * Path: the field of the first container named.
 */
import { joinQuote, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import { inUserNamespace } from './pod-facts.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export const CHECK_PROC_MOUNT_ID = 'procMount';

/** Blocks unmasked /proc unconditionally (also the restricted check from v1.35). */
export function procMountV1Dot0(pod: PodView): CheckFailure | undefined {
  const badContainers = allContainers(pod.spec).filter((container) => {
    const procMount = container.securityContext?.procMount;
    return procMount !== undefined && procMount !== 'Default';
  });
  const [first] = badContainers;
  if (first === undefined) return undefined;
  const forbiddenTypes = sortedSet(badContainers.map((container) => container.securityContext!.procMount!));
  return {
    reason: 'procMount',
    detail: `${containersPhrase(badContainers.map((container) => container.name))} must not set securityContext.procMount to ${joinQuote(forbiddenTypes)}`,
    path: [...first.path, 'securityContext', 'procMount'],
  };
}

export function procMountV1Dot35Baseline(pod: PodView): CheckFailure | undefined {
  return inUserNamespace(pod.spec) ? undefined : procMountV1Dot0(pod);
}

export const checkProcMountBaseline: Check = {
  id: CHECK_PROC_MOUNT_ID,
  level: 'baseline',
  source: 'policy/check_procMount_baseline.go',
  versions: [
    { minimumVersion: 0, checkPod: procMountV1Dot0 },
    { minimumVersion: 35, checkPod: procMountV1Dot35Baseline },
  ],
};
