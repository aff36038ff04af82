/**
 * upstream policy/check_capabilities_baseline.go (baseline): securityContext.capabilities.add
 * may only hold the container runtime's default capabilities. Path: the first non-default
 * capability of the first container named.
 */
import type { FieldPath } from '../../field-path.js';
import { joinQuote, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export const CHECK_CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

const CAPABILITIES_ALLOWED_V1_DOT_0: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

export function capabilitiesBaselineV1Dot0(pod: PodView): CheckFailure | undefined {
  const badContainers: string[] = [];
  const nonDefaultCapabilities: string[] = [];
  let path: FieldPath | undefined;
  for (const container of allContainers(pod.spec)) {
    const added = container.securityContext?.capabilities?.add ?? [];
    const forbidden = added.filter((capability) => !CAPABILITIES_ALLOWED_V1_DOT_0.has(capability.name));
    if (forbidden.length === 0) continue;
    badContainers.push(container.name);
    nonDefaultCapabilities.push(...forbidden.map((capability) => capability.name));
    path ??= forbidden[0]!.path;
  }
  if (path === undefined) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersPhrase(badContainers)} must not include ${joinQuote(sortedSet(nonDefaultCapabilities))} in securityContext.capabilities.add`,
    path,
  };
}

export const checkCapabilitiesBaseline: Check = {
  id: CHECK_CAPABILITIES_BASELINE_ID,
  level: 'baseline',
  source: 'policy/check_capabilities_baseline.go',
  versions: [{ minimumVersion: 0, checkPod: capabilitiesBaselineV1Dot0 }],
};
