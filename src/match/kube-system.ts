/**
 * What the system's own objects look like to an objectSelector. The control plane's objects
 * (nodes, leases, CoreDNS and kube-proxy pods, the `kubernetes` Service) carry labels under
 * `kubernetes.io/` and `k8s.io/` and a few conventional keys (`k8s-app`, `component`, `tier`),
 * never the opt-in labels a webhook asks its own users to set. So a selector that requires a
 * label of the webhook's own exempts them, and one that requires a system label targets them.
 */
import type { LabelSelector } from '../model/types.js';
import type { Labels } from './selector.js';

/** Label keys that kube-system's own objects and the cluster's nodes carry. */
export function isSystemLabelKey(key: string): boolean {
  return ['k8s-app', 'component', 'tier'].includes(key) || /(^|\.)(kubernetes\.io|k8s\.io)\//.test(key);
}

/**
 * The labels an unlabelled system object is assumed to have when `selector` is evaluated: none,
 * except that every requirement on a system label key that asks for the key (matchLabels,
 * `In`, `Exists`) is met, since some system object carries that label. Requirements on other
 * keys are left unmet: no system object carries the webhook's own opt-in label.
 */
export function systemObjectLabels(selector: LabelSelector | undefined): Labels {
  const labels: Record<string, string> = {};
  if (selector === undefined || selector === null) return labels;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (isSystemLabelKey(key)) labels[key] = value ?? '';
  }
  const excluded = new Map<string, readonly string[]>();
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement?.operator === 'NotIn') excluded.set(requirement.key, [...(excluded.get(requirement.key) ?? []), ...(requirement.values ?? [])]);
  }
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement === null || typeof requirement.key !== 'string' || !isSystemLabelKey(requirement.key) || requirement.key in labels) continue;
    const notIn = excluded.get(requirement.key) ?? [];
    if (requirement.operator === 'In') {
      const value = (requirement.values ?? []).find((v) => !notIn.includes(v));
      if (value !== undefined) labels[requirement.key] = value;
    } else if (requirement.operator === 'Exists') {
      let value = 'system';
      while (notIn.includes(value)) value += '-';
      labels[requirement.key] = value;
    }
  }
  return labels;
}
