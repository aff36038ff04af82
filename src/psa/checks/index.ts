/**
 * The default checks of k8s.io/pod-security-admission (policy.DefaultChecks()), as data. Upstream
 * has no experimental (unversioned) checks at the commit these follow (test/psa/fixtures/SOURCE.md).
 */
import { checkAllowPrivilegeEscalation } from './allow-privilege-escalation.js';
import { checkAppArmorProfile } from './app-armor-profile.js';
import { checkCapabilitiesBaseline } from './capabilities-baseline.js';
import { checkCapabilitiesRestricted } from './capabilities-restricted.js';
import { checkHostNamespaces } from './host-namespaces.js';
import { checkHostPathVolumes } from './host-path-volumes.js';
import { checkHostPorts } from './host-ports.js';
import { checkHostProbesAndHostLifecycle } from './host-probes-and-host-lifecycle.js';
import { checkPrivileged } from './privileged.js';
import { checkProcMountBaseline } from './proc-mount-baseline.js';
import { checkProcMountRestricted } from './proc-mount-restricted.js';
import { buildRegistry, type CheckRegistry } from './registry.js';
import { checkRestrictedVolumes } from './restricted-volumes.js';
import { checkRunAsNonRoot } from './run-as-non-root.js';
import { checkRunAsUser } from './run-as-user.js';
import { checkSELinuxOptions } from './se-linux-options.js';
import { checkSeccompBaseline } from './seccomp-profile-baseline.js';
import { checkSeccompProfileRestricted } from './seccomp-profile-restricted.js';
import { checkSysctls } from './sysctls.js';
import type { Check } from './types.js';
import { checkWindowsHostProcess } from './windows-host-process.js';

export const DEFAULT_CHECKS: readonly Check[] = [
  checkAllowPrivilegeEscalation,
  checkAppArmorProfile,
  checkCapabilitiesBaseline,
  checkCapabilitiesRestricted,
  checkHostNamespaces,
  checkHostPathVolumes,
  checkHostPorts,
  checkHostProbesAndHostLifecycle,
  checkPrivileged,
  checkProcMountBaseline,
  checkProcMountRestricted,
  checkRestrictedVolumes,
  checkRunAsNonRoot,
  checkRunAsUser,
  checkSELinuxOptions,
  checkSeccompBaseline,
  checkSeccompProfileRestricted,
  checkSysctls,
  checkWindowsHostProcess,
];

export const DEFAULT_REGISTRY: CheckRegistry = buildRegistry(DEFAULT_CHECKS);
