/**
 * upstream policy/check_seccompProfile_restricted.go (restricted, from v1.19, replaces
 * seccompProfile_baseline): seccompProfile.type RuntimeDefault or Localhost on the pod or on
 * every container. Path: the first bad type (pod first); when none is bad but some container is
 * not covered, spec.securityContext.seccompProfile.type, the one field that covers every container.
 */
import type { FieldPath } from '../../field-path.js';
import { joinQuote, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import { isWindowsPod } from './pod-facts.js';
import { CHECK_SECCOMP_BASELINE_ID, validSeccomp } from './seccomp-profile-baseline.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

const POD_FIELD: FieldPath = ['spec', 'securityContext', 'seccompProfile', 'type'];

export function seccompProfileRestrictedV1Dot19(pod: PodView): CheckFailure | undefined {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const explicitPaths: FieldPath[] = [];
  let podSeccompSet = false;
  const podProfile = pod.spec.securityContext?.seccompProfile;
  if (podProfile !== undefined) {
    if (validSeccomp(podProfile.type)) {
      podSeccompSet = true;
    } else {
      badSetters.push('pod');
      badValues.push(podProfile.type);
      explicitPaths.push(POD_FIELD);
    }
  }

  const explicitlyBadContainers: string[] = [];
  const implicitlyBadContainers: string[] = [];
  for (const container of allContainers(pod.spec)) {
    const profile = container.securityContext?.seccompProfile;
    if (profile !== undefined) {
      if (!validSeccomp(profile.type)) {
        explicitlyBadContainers.push(container.name);
        badValues.push(profile.type);
        explicitPaths.push([...container.path, 'securityContext', 'seccompProfile', 'type']);
      }
    } else if (!podSeccompSet) {
      implicitlyBadContainers.push(container.name);
    }
  }
  if (explicitlyBadContainers.length > 0) badSetters.push(containersPhrase(explicitlyBadContainers));

  if (badSetters.length > 0) {
    return {
      reason: 'seccompProfile',
      detail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
      path: explicitPaths[0]!,
    };
  }
  if (implicitlyBadContainers.length > 0) {
    return {
      reason: 'seccompProfile',
      detail: `pod or ${containersPhrase(implicitlyBadContainers)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      path: POD_FIELD,
    };
  }
  return undefined;
}

export function seccompProfileRestrictedV1Dot25(pod: PodView): CheckFailure | undefined {
  return isWindowsPod(pod.spec) ? undefined : seccompProfileRestrictedV1Dot19(pod);
}

export const checkSeccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  source: 'policy/check_seccompProfile_restricted.go',
  versions: [
    { minimumVersion: 19, checkPod: seccompProfileRestrictedV1Dot19, overrideCheckIds: [CHECK_SECCOMP_BASELINE_ID] },
    { minimumVersion: 25, checkPod: seccompProfileRestrictedV1Dot25, overrideCheckIds: [CHECK_SECCOMP_BASELINE_ID] },
  ],
};
