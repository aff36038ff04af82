/**
 * upstream policy/check_hostPorts.go (baseline): no container port may set a hostPort. Path:
 * the first host port of the first container named (for a Pod with hostNetwork, where the API
 * server defaulted hostPort from containerPort, that containerPort).
 */
import type { FieldPath } from '../../field-path.js';
import { pluralize, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export function hostPortsV1Dot0(pod: PodView): CheckFailure | undefined {
  const badContainers: string[] = [];
  // Upstream collects the ports as decimal strings in a string set, so they sort as text ("10" < "9").
  const forbiddenHostPorts: string[] = [];
  let path: FieldPath | undefined;
  for (const container of allContainers(pod.spec)) {
    const hostPorts = container.ports.filter((port) => port.hostPort !== 0);
    if (hostPorts.length === 0) continue;
    badContainers.push(container.name);
    forbiddenHostPorts.push(...hostPorts.map((port) => String(port.hostPort)));
    path ??= [...hostPorts[0]!.path, hostPorts[0]!.hostPortField];
  }
  if (path === undefined) return undefined;
  const ports = sortedSet(forbiddenHostPorts);
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', ports.length)} ${ports.join(', ')}`,
    path,
  };
}

export const checkHostPorts: Check = {
  id: 'hostPorts',
  level: 'baseline',
  source: 'policy/check_hostPorts.go',
  versions: [{ minimumVersion: 0, checkPod: hostPortsV1Dot0 }],
};
