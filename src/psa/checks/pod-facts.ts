/** Facts about a pod that relax several checks. */
import type { PodSpecView } from './model.js';

/**
 * `spec.os.name: windows`: from policy v1.25 the Linux-only restricted checks admit such pods,
 * because API validation already forbids setting those Linux fields on them.
 */
export function isWindowsPod(spec: PodSpecView): boolean {
  return spec.osName === 'windows';
}

/** Upstream `relaxPolicyForUserNamespacePod` (policy/helpers.go): `hostUsers: false`. */
export function inUserNamespace(spec: PodSpecView): boolean {
  return spec.hostUsers === false;
}
