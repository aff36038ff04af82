import type { ContainerView, PodSpecView } from './model.js';

/**
 * Upstream `visitContainers` (policy/visitor.go): init containers, then containers, then
 * ephemeral containers. Every container check reads them in this order, so names in details and
 * the first offending path follow it.
 */
export function allContainers(spec: PodSpecView): ContainerView[] {
  return [...spec.initContainers, ...spec.containers, ...spec.ephemeralContainers];
}
