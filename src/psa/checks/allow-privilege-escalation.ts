/**
 * upstream policy/check_allowPrivilegeEscalation.go (restricted): every container must set
 * securityContext.allowPrivilegeEscalation=false. Path: the field of the first container named.
 */
import type { PodView } from './model.js';
import { isWindowsPod } from './pod-facts.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

/** The field was added in 1.8. */
export function allowPrivilegeEscalationV1Dot8(pod: PodView): CheckFailure | undefined {
  const badContainers = allContainers(pod.spec).filter((container) => container.securityContext?.allowPrivilegeEscalation !== false);
  const [first] = badContainers;
  if (first === undefined) return undefined;
  return {
    reason: 'allowPrivilegeEscalation != false',
    detail: `${containersPhrase(badContainers.map((container) => container.name))} must set securityContext.allowPrivilegeEscalation=false`,
    path: [...first.path, 'securityContext', 'allowPrivilegeEscalation'],
  };
}

export function allowPrivilegeEscalationV1Dot25(pod: PodView): CheckFailure | undefined {
  return isWindowsPod(pod.spec) ? undefined : allowPrivilegeEscalationV1Dot8(pod);
}

export const checkAllowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  source: 'policy/check_allowPrivilegeEscalation.go',
  versions: [
    { minimumVersion: 8, checkPod: allowPrivilegeEscalationV1Dot8 },
    { minimumVersion: 25, checkPod: allowPrivilegeEscalationV1Dot25 },
  ],
};
