/**
 * upstream policy/check_hostPathVolumes.go (baseline): no hostPath volumes. Path: the first
 * one's hostPath field.
 */
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { volumesPhrase } from './wording.js';

export const CHECK_HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

export function hostPathVolumesV1Dot0(pod: PodView): CheckFailure | undefined {
  const hostVolumes = pod.spec.volumes.filter((volume) => volume.sources.includes('hostPath'));
  const [first] = hostVolumes;
  if (first === undefined) return undefined;
  return {
    reason: 'hostPath volumes',
    detail: volumesPhrase(hostVolumes.map((volume) => volume.name)),
    path: [...first.path, 'hostPath'],
  };
}

export const checkHostPathVolumes: Check = {
  id: CHECK_HOST_PATH_VOLUMES_ID,
  level: 'baseline',
  source: 'policy/check_hostPathVolumes.go',
  versions: [{ minimumVersion: 0, checkPod: hostPathVolumesV1Dot0 }],
};
