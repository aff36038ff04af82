import { UsageError } from '../errors.js';

export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
}

/** The Kubernetes version whose API server we model unless told otherwise. */
export const DEFAULT_KUBE_VERSION: KubeVersion = { major: 1, minor: 35 };

/**
 * The versions the built-in tables describe: admissionregistration.k8s.io/v1 is served from 1.16,
 * and the discovery data (src/kube/discovery/builtin-data.ts) reaches 1.37. Outside that range a
 * run would silently check against tables that do not describe the cluster.
 */
export const OLDEST_KUBE_MINOR = 16;
export const NEWEST_KUBE_MINOR = 37;
/**
 * The newest Kubernetes minor released (k8s.io/apiserver tag v0.36.3; 1.37 is master, see
 * shared/research/k8s-api-facts.md). A newer target checks against unreleased behaviour (1.37
 * stops calling webhooks for virtual resources, say), which the run's gate names.
 */
export const NEWEST_RELEASED_KUBE_MINOR = 36;

/** The newest released version, when `version` is newer than every released server; else undefined. */
export function unreleasedBeyond(version: KubeVersion): KubeVersion | undefined {
  return version.major === 1 && version.minor > NEWEST_RELEASED_KUBE_MINOR ? { major: 1, minor: NEWEST_RELEASED_KUBE_MINOR } : undefined;
}

export function parseKubeVersion(text: string): KubeVersion {
  const match = /^v?(1)\.(\d{1,3})(?:\.\d+)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--kube-version: "${text}" is not a Kubernetes version`, 'write it as 1.35 (or v1.35)');
  const minor = Number(match[2]);
  if (minor < OLDEST_KUBE_MINOR || minor > NEWEST_KUBE_MINOR) {
    throw new UsageError(`--kube-version: ${text.trim()} is outside the versions admission-lint knows (1.${OLDEST_KUBE_MINOR} to 1.${NEWEST_KUBE_MINOR})`, `e.g. --kube-version 1.${DEFAULT_KUBE_VERSION.minor}`);
  }
  return { major: Number(match[1]), minor };
}

export function formatKubeVersion(version: KubeVersion): string {
  return `${version.major}.${version.minor}`;
}

export function isAtLeast(version: KubeVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
