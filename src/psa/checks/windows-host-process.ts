/**
 * upstream policy/check_windowsHostProcess.go (baseline): windowsOptions.hostProcess must not be
 * true on the pod or any container. Path: the pod's field, else the first container's.
 */
import type { FieldPath } from '../../field-path.js';
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';
import { allContainers } from './visit.js';
import { containersPhrase } from './wording.js';

export function windowsHostProcessV1Dot0(pod: PodView): CheckFailure | undefined {
  const badContainers = allContainers(pod.spec).filter((container) => container.securityContext?.windowsOptions?.hostProcess === true);
  const forbiddenSetters: string[] = [];
  const paths: FieldPath[] = [];
  if (pod.spec.securityContext?.windowsOptions?.hostProcess === true) {
    forbiddenSetters.push('pod');
    paths.push(['spec', 'securityContext', 'windowsOptions', 'hostProcess']);
  }
  if (badContainers.length > 0) {
    forbiddenSetters.push(containersPhrase(badContainers.map((container) => container.name)));
    paths.push([...badContainers[0]!.path, 'securityContext', 'windowsOptions', 'hostProcess']);
  }
  const [path] = paths;
  if (path === undefined) return undefined;
  return {
    reason: 'hostProcess',
    detail: `${forbiddenSetters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
    path,
  };
}

export const checkWindowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  source: 'policy/check_windowsHostProcess.go',
  versions: [{ minimumVersion: 0, checkPod: windowsHostProcessV1Dot0 }],
};
