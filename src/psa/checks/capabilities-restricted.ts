/**
 * upstream policy/check_capabilities_restricted.go (restricted, replaces capabilities_baseline):
 * containers must drop ALL and may add only NET_BIND_SERVICE. Path: the `drop` field of the first
 * container that does not drop ALL, else the first forbidden added capability.
 */
import type { FieldPath } from '../../field-path.js';
import { CHECK_CAPABILITIES_BASELINE_ID } from './capabilities-baseline.js';
import { joinQuote, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import { isWindowsPod } from './pod-facts.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

const CAPABILITY_ALL = 'ALL';
const CAPABILITY_NET_BIND_SERVICE = 'NET_BIND_SERVICE';

export function capabilitiesRestrictedV1Dot22(pod: PodView): CheckFailure | undefined {
  const containersMissingDropAll: string[] = [];
  const containersAddingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  let dropPath: FieldPath | undefined;
  let addPath: FieldPath | undefined;
  for (const container of allContainers(pod.spec)) {
    const capabilities = container.securityContext?.capabilities;
    if (capabilities === undefined) {
      containersMissingDropAll.push(container.name);
      dropPath ??= [...container.path, 'securityContext', 'capabilities', 'drop'];
      continue;
    }
    if (!capabilities.drop.some((capability) => capability.name === CAPABILITY_ALL)) {
      containersMissingDropAll.push(container.name);
      dropPath ??= [...container.path, 'securityContext', 'capabilities', 'drop'];
    }
    const forbidden = capabilities.add.filter((capability) => capability.name !== CAPABILITY_NET_BIND_SERVICE);
    if (forbidden.length > 0) {
      containersAddingForbidden.push(container.name);
      forbiddenCapabilities.push(...forbidden.map((capability) => capability.name));
      addPath ??= forbidden[0]!.path;
    }
  }

  const forbiddenDetails: string[] = [];
  if (containersMissingDropAll.length > 0) {
    forbiddenDetails.push(`${containersPhrase(containersMissingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  }
  if (containersAddingForbidden.length > 0) {
    forbiddenDetails.push(
      `${containersPhrase(containersAddingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`,
    );
  }
  const path = dropPath ?? addPath;
  if (path === undefined) return undefined;
  return { reason: 'unrestricted capabilities', detail: forbiddenDetails.join('; '), path };
}

export function capabilitiesRestrictedV1Dot25(pod: PodView): CheckFailure | undefined {
  return isWindowsPod(pod.spec) ? undefined : capabilitiesRestrictedV1Dot22(pod);
}

export const checkCapabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  source: 'policy/check_capabilities_restricted.go',
  versions: [
    { minimumVersion: 22, checkPod: capabilitiesRestrictedV1Dot22, overrideCheckIds: [CHECK_CAPABILITIES_BASELINE_ID] },
    { minimumVersion: 25, checkPod: capabilitiesRestrictedV1Dot25, overrideCheckIds: [CHECK_CAPABILITIES_BASELINE_ID] },
  ],
};
