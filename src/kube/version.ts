import { UsageError } from '../errors.js';

export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
}

/** The Kubernetes version whose API server we model unless told otherwise. */
export const DEFAULT_KUBE_VERSION: KubeVersion = { major: 1, minor: 35 };

export function parseKubeVersion(text: string): KubeVersion {
  const match = /^v?(1)\.(\d{1,3})(?:\.\d+)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--kube-version: "${text}" is not a Kubernetes version`, 'write it as 1.35 (or v1.35)');
  return { major: Number(match[1]), minor: Number(match[2]) };
}

export function formatKubeVersion(version: KubeVersion): string {
  return `${version.major}.${version.minor}`;
}

export function isAtLeast(version: KubeVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
