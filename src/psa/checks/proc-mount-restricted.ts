/**
 * upstream policy/check_procMount_restricted.go (restricted, from v1.35): when the baseline
 * check started allowing unmasked /proc in user namespaces, restricted kept the unconditional
 * v1.0 rule and replaced the baseline check with it.
 */
import { CHECK_PROC_MOUNT_ID, procMountV1Dot0 } from './proc-mount-baseline.js';
import type { Check } from './types.js';

export const checkProcMountRestricted: Check = {
  id: 'procMount_restricted',
  level: 'restricted',
  source: 'policy/check_procMount_restricted.go',
  versions: [{ minimumVersion: 35, checkPod: procMountV1Dot0, overrideCheckIds: [CHECK_PROC_MOUNT_ID] }],
};
