/**
 * upstream policy/check_sysctls.go (baseline): spec.securityContext.sysctls may only name the
 * "safe" sysctls of the policy version (the list grew in v1.27, v1.29, v1.32 and v1.37). Path:
 * the first forbidden sysctl's name.
 */
import type { PodView } from './model.js';
import type { Check, CheckFailure } from './types.js';

const SYSCTLS_ALLOWED_V1_DOT_0: ReadonlySet<string> = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
]);
const SYSCTLS_ALLOWED_V1_DOT_27: ReadonlySet<string> = new Set([...SYSCTLS_ALLOWED_V1_DOT_0, 'net.ipv4.ip_local_reserved_ports']);
const SYSCTLS_ALLOWED_V1_DOT_29: ReadonlySet<string> = new Set([
  ...SYSCTLS_ALLOWED_V1_DOT_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const SYSCTLS_ALLOWED_V1_DOT_32: ReadonlySet<string> = new Set([...SYSCTLS_ALLOWED_V1_DOT_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']);
const SYSCTLS_ALLOWED_V1_DOT_37: ReadonlySet<string> = new Set([
  ...SYSCTLS_ALLOWED_V1_DOT_32,
  'net.ipv4.tcp_slow_start_after_idle',
  'net.ipv4.tcp_notsent_lowat',
]);

function sysctls(pod: PodView, allowed: ReadonlySet<string>): CheckFailure | undefined {
  const forbidden = (pod.spec.securityContext?.sysctls ?? []).filter((sysctl) => !allowed.has(sysctl.name));
  const [first] = forbidden;
  if (first === undefined) return undefined;
  return { reason: 'forbidden sysctls', detail: forbidden.map((sysctl) => sysctl.name).join(', '), path: first.path };
}

export const sysctlsV1Dot0 = (pod: PodView): CheckFailure | undefined => sysctls(pod, SYSCTLS_ALLOWED_V1_DOT_0);
export const sysctlsV1Dot27 = (pod: PodView): CheckFailure | undefined => sysctls(pod, SYSCTLS_ALLOWED_V1_DOT_27);
export const sysctlsV1Dot29 = (pod: PodView): CheckFailure | undefined => sysctls(pod, SYSCTLS_ALLOWED_V1_DOT_29);
export const sysctlsV1Dot32 = (pod: PodView): CheckFailure | undefined => sysctls(pod, SYSCTLS_ALLOWED_V1_DOT_32);
export const sysctlsV1Dot37 = (pod: PodView): CheckFailure | undefined => sysctls(pod, SYSCTLS_ALLOWED_V1_DOT_37);

export const checkSysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  source: 'policy/check_sysctls.go',
  versions: [
    { minimumVersion: 0, checkPod: sysctlsV1Dot0 },
    { minimumVersion: 27, checkPod: sysctlsV1Dot27 },
    { minimumVersion: 29, checkPod: sysctlsV1Dot29 },
    { minimumVersion: 32, checkPod: sysctlsV1Dot32 },
    { minimumVersion: 37, checkPod: sysctlsV1Dot37 },
  ],
};
