/**
 * upstream policy/check_seccompProfile_baseline.go (baseline): before v1.19, the deprecated
 * seccomp annotations may only name runtime/default, docker/default or localhost/*; from v1.19,
 * seccompProfile.type may only be RuntimeDefault or Localhost where it is set. Path: the first
 * annotation in the detail's (sorted) order; the pod's field, else the first container's.
 */
import type { FieldPath } from '../../field-path.js';
import { compareGoStrings, goQuote, joinQuote, pluralize, sortedSet } from './go-text.js';
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export const CHECK_SECCOMP_BASELINE_ID = 'seccompProfile_baseline';

const ANNOTATION_KEY_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const ANNOTATION_KEY_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** The seccompProfile types both seccomp checks accept. */
export function validSeccomp(type: string): boolean {
  return type === 'Localhost' || type === 'RuntimeDefault';
}

function validSeccompAnnotationValue(value: string): boolean {
  return value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
}

export function seccompProfileBaselineV1Dot0(pod: PodView): CheckFailure | undefined {
  const keys = [ANNOTATION_KEY_POD, ...allContainers(pod.spec).map((container) => ANNOTATION_KEY_CONTAINER_PREFIX + container.name)];
  const forbidden = new Map<string, string>();
  for (const key of keys) {
    const value = pod.annotations.get(key);
    if (value !== undefined && !validSeccompAnnotationValue(value)) forbidden.set(`${key}=${goQuote(value)}`, key);
  }
  if (forbidden.size === 0) return undefined;
  const entries = [...forbidden.keys()].sort(compareGoStrings);
  return {
    reason: 'seccompProfile',
    detail: `forbidden ${pluralize('annotation', 'annotations', entries.length)} ${entries.join(', ')}`,
    path: ['metadata', 'annotations', forbidden.get(entries[0]!)!],
  };
}

export function seccompProfileBaselineV1Dot19(pod: PodView): CheckFailure | undefined {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const paths: FieldPath[] = [];
  const podProfile = pod.spec.securityContext?.seccompProfile;
  if (podProfile !== undefined && !validSeccomp(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type);
    paths.push(['spec', 'securityContext', 'seccompProfile', 'type']);
  }
  const explicitlyBadContainers: string[] = [];
  for (const container of allContainers(pod.spec)) {
    const profile = container.securityContext?.seccompProfile;
    if (profile !== undefined && !validSeccomp(profile.type)) {
      explicitlyBadContainers.push(container.name);
      badValues.push(profile.type);
      paths.push([...container.path, 'securityContext', 'seccompProfile', 'type']);
    }
  }
  if (explicitlyBadContainers.length > 0) badSetters.push(containersPhrase(explicitlyBadContainers));
  const [path] = paths;
  if (path === undefined) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    path,
  };
}

export const checkSeccompBaseline: Check = {
  id: CHECK_SECCOMP_BASELINE_ID,
  level: 'baseline',
  source: 'policy/check_seccompProfile_baseline.go',
  versions: [
    { minimumVersion: 0, checkPod: seccompProfileBaselineV1Dot0 },
    { minimumVersion: 19, checkPod: seccompProfileBaselineV1Dot19 },
  ],
};
