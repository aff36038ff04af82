/**
 * upstream policy/check_restrictedVolumes.go (restricted, replaces hostPathVolumes): inline
 * volume sources other than configMap, csi, downwardAPI, emptyDir, ephemeral, image,
 * persistentVolumeClaim, projected and secret. Path: the first such volume's source field.
 */
import type { FieldPath } from '../../field-path.js';
import { joinQuote, pluralize, sortedSet } from './go-text.js';
import { CHECK_HOST_PATH_VOLUMES_ID } from './host-path-volumes.js';
import type { PodView, VolumeSourceKey } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { volumesPhrase } from './wording.js';

const ALLOWED_SOURCES: readonly VolumeSourceKey[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/** The order of upstream's switch: the first source set names the volume's type. */
const RESTRICTED_SOURCES: readonly VolumeSourceKey[] = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

/** Upstream's name for a volume with no source it knows (the API server defaults a sourceless volume to emptyDir first). */
const UNKNOWN_TYPE = 'unknown';

export function restrictedVolumesV1Dot0(pod: PodView): CheckFailure | undefined {
  const badVolumes: string[] = [];
  const badVolumeTypes: string[] = [];
  let path: FieldPath | undefined;
  for (const volume of pod.spec.volumes) {
    if (volume.sources.some((source) => ALLOWED_SOURCES.includes(source))) continue;
    badVolumes.push(volume.name);
    const type = RESTRICTED_SOURCES.find((source) => volume.sources.includes(source));
    badVolumeTypes.push(type ?? UNKNOWN_TYPE);
    path ??= type === undefined ? volume.path : [...volume.path, type];
  }
  if (path === undefined) return undefined;
  const types = sortedSet(badVolumeTypes);
  return {
    reason: 'restricted volume types',
    detail: `${volumesPhrase(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
    path,
  };
}

export const checkRestrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  source: 'policy/check_restrictedVolumes.go',
  versions: [{ minimumVersion: 0, checkPod: restrictedVolumesV1Dot0, overrideCheckIds: [CHECK_HOST_PATH_VOLUMES_ID] }],
};
