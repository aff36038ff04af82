/**
 * upstream policy/check_hostProbesAndhostLifecycle.go (baseline, from v1.34): probes and
 * lifecycle handlers must not set httpGet.host or tcpSocket.host. Path: the first such host of
 * the first container named (the detail names containers in sorted order).
 */
import type { FieldPath } from '../../field-path.js';
import { joinQuote, pluralize, sortedSet } from './go-text.js';
import type { ContainerView, HandlerView, PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';

interface ForbiddenHost {
  readonly host: string;
  readonly path: FieldPath;
}

function forbiddenHosts(handler: HandlerView | undefined, path: FieldPath): ForbiddenHost[] {
  if (handler === undefined) return [];
  const hosts: ForbiddenHost[] = [];
  if (handler.httpGet !== undefined && handler.httpGet.host !== '') hosts.push({ host: handler.httpGet.host, path: [...path, 'httpGet', 'host'] });
  if (handler.tcpSocket !== undefined && handler.tcpSocket.host !== '') hosts.push({ host: handler.tcpSocket.host, path: [...path, 'tcpSocket', 'host'] });
  return hosts;
}

/** In the order upstream reads them: liveness, readiness and startup probes, then postStart and preStop. */
function containerForbiddenHosts(container: ContainerView): ForbiddenHost[] {
  return [
    ...forbiddenHosts(container.livenessProbe, [...container.path, 'livenessProbe']),
    ...forbiddenHosts(container.readinessProbe, [...container.path, 'readinessProbe']),
    ...forbiddenHosts(container.startupProbe, [...container.path, 'startupProbe']),
    ...forbiddenHosts(container.lifecycle?.postStart, [...container.path, 'lifecycle', 'postStart']),
    ...forbiddenHosts(container.lifecycle?.preStop, [...container.path, 'lifecycle', 'preStop']),
  ];
}

export function hostProbesAndHostLifecycleV1Dot34(pod: PodView): CheckFailure | undefined {
  const forbidden: string[] = [];
  const firstPathByContainer = new Map<string, FieldPath>();
  for (const container of allContainers(pod.spec)) {
    const hosts = containerForbiddenHosts(container);
    if (hosts.length === 0) continue;
    forbidden.push(...hosts.map((entry) => entry.host));
    if (!firstPathByContainer.has(container.name)) firstPathByContainer.set(container.name, hosts[0]!.path);
  }
  if (firstPathByContainer.size === 0) return undefined;
  const badContainers = sortedSet(firstPathByContainer.keys());
  const hosts = sortedSet(forbidden);
  return {
    reason: 'probe or lifecycle host',
    detail: `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hosts.length)} ${joinQuote(hosts)}`,
    path: firstPathByContainer.get(badContainers[0]!)!,
  };
}

export const checkHostProbesAndHostLifecycle: Check = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  source: 'policy/check_hostProbesAndhostLifecycle.go',
  versions: [{ minimumVersion: 34, checkPod: hostProbesAndHostLifecycleV1Dot34 }],
};
