/**
 * upstream policy/check_privileged.go (baseline): no container may set
 * securityContext.privileged=true. Path: the field of the first container named.
 */
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export function privilegedV1Dot0(pod: PodView): CheckFailure | undefined {
  const badContainers = allContainers(pod.spec).filter((container) => container.securityContext?.privileged === true);
  const [first] = badContainers;
  if (first === undefined) return undefined;
  return {
    reason: 'privileged',
    detail: `${containersPhrase(badContainers.map((container) => container.name))} must not set securityContext.privileged=true`,
    path: [...first.path, 'securityContext', 'privileged'],
  };
}

export const checkPrivileged: Check = {
  id: 'privileged',
  level: 'baseline',
  source: 'policy/check_privileged.go',
  versions: [{ minimumVersion: 0, checkPod: privilegedV1Dot0 }],
};
