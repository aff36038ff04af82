/**
 * upstream policy/check_hostNamespaces.go (baseline): hostNetwork, hostPID and hostIPC must not
 * be true. Path: the first of them that is.
 */
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';

const HOST_NAMESPACE_FIELDS = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

export function hostNamespacesV1Dot0(pod: PodView): CheckFailure | undefined {
  const hostNamespaces = HOST_NAMESPACE_FIELDS.filter((field) => pod.spec[field]);
  const [first] = hostNamespaces;
  if (first === undefined) return undefined;
  return {
    reason: 'host namespaces',
    detail: hostNamespaces.map((field) => `${field}=true`).join(', '),
    path: ['spec', first],
  };
}

export const checkHostNamespaces: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  source: 'policy/check_hostNamespaces.go',
  versions: [{ minimumVersion: 0, checkPod: hostNamespacesV1Dot0 }],
};
