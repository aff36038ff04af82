/**
 * upstream policy/check_runAsNonRoot.go (restricted): runAsNonRoot=true on the pod or on every
 * container; from v1.35 any value in a user namespace (`hostUsers: false`). Path: the first field
 * set to false (pod first); when none is false but some container is not covered,
 * spec.securityContext.runAsNonRoot, the one field that covers every container.
 */
import type { FieldPath } from '../../field-path.js';
import type { PodView } from './model.js';
import { inUserNamespace } from './pod-facts.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

const REASON = 'runAsNonRoot != true';
const POD_FIELD: FieldPath = ['spec', 'securityContext', 'runAsNonRoot'];

export function runAsNonRootV1Dot0(pod: PodView): CheckFailure | undefined {
  const badSetters: string[] = [];
  const explicitPaths: FieldPath[] = [];
  const podRunAsNonRoot = pod.spec.securityContext?.runAsNonRoot;
  if (podRunAsNonRoot === false) {
    badSetters.push('pod');
    explicitPaths.push(POD_FIELD);
  }

  const explicitlyBadContainers: string[] = [];
  const implicitlyBadContainers: string[] = [];
  for (const container of allContainers(pod.spec)) {
    const runAsNonRoot = container.securityContext?.runAsNonRoot;
    if (runAsNonRoot === false) {
      explicitlyBadContainers.push(container.name);
      explicitPaths.push([...container.path, 'securityContext', 'runAsNonRoot']);
    } else if (runAsNonRoot === undefined && podRunAsNonRoot !== true) {
      implicitlyBadContainers.push(container.name);
    }
  }
  if (explicitlyBadContainers.length > 0) badSetters.push(containersPhrase(explicitlyBadContainers));

  if (badSetters.length > 0) {
    return { reason: REASON, detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`, path: explicitPaths[0]! };
  }
  if (implicitlyBadContainers.length > 0) {
    return { reason: REASON, detail: `pod or ${containersPhrase(implicitlyBadContainers)} must set securityContext.runAsNonRoot=true`, path: POD_FIELD };
  }
  return undefined;
}

export function runAsNonRootV1Dot35(pod: PodView): CheckFailure | undefined {
  return inUserNamespace(pod.spec) ? undefined : runAsNonRootV1Dot0(pod);
}

export const checkRunAsNonRoot: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  source: 'policy/check_runAsNonRoot.go',
  versions: [
    { minimumVersion: 0, checkPod: runAsNonRootV1Dot0 },
    { minimumVersion: 35, checkPod: runAsNonRootV1Dot35 },
  ],
};
