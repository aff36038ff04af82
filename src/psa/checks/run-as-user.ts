/**
 * upstream policy/check_runAsUser.go (restricted, from v1.23): runAsUser must not be 0 on the
 * pod or any container; from v1.35 any value in a user namespace (`hostUsers: false`). Path: the
 * first field set to 0 (pod first).
 */
import type { FieldPath } from '../../field-path.js';
import type { PodView } from './model.js';
import { inUserNamespace } from './pod-facts.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export function runAsUserV1Dot23(pod: PodView): CheckFailure | undefined {
  const badSetters: string[] = [];
  const paths: FieldPath[] = [];
  if (pod.spec.securityContext?.runAsUser === 0) {
    badSetters.push('pod');
    paths.push(['spec', 'securityContext', 'runAsUser']);
  }
  const explicitlyBadContainers = allContainers(pod.spec).filter((container) => container.securityContext?.runAsUser === 0);
  if (explicitlyBadContainers.length > 0) {
    badSetters.push(containersPhrase(explicitlyBadContainers.map((container) => container.name)));
    paths.push([...explicitlyBadContainers[0]!.path, 'securityContext', 'runAsUser']);
  }
  const [path] = paths;
  if (path === undefined) return undefined;
  return { reason: 'runAsUser=0', detail: `${badSetters.join(' and ')} must not set runAsUser=0`, path };
}

export function runAsUserV1Dot35(pod: PodView): CheckFailure | undefined {
  return inUserNamespace(pod.spec) ? undefined : runAsUserV1Dot23(pod);
}

export const checkRunAsUser: Check = {
  id: 'runAsUser',
  level: 'restricted',
  source: 'policy/check_runAsUser.go',
  versions: [
    { minimumVersion: 23, checkPod: runAsUserV1Dot23 },
    { minimumVersion: 35, checkPod: runAsUserV1Dot35 },
  ],
};
