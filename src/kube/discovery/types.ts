/**
 * The shape of the built-in API discovery data (what `kubectl api-resources` and the
 * aggregated discovery documents say a kube-apiserver serves).
 */

/** "1.35"-style Kubernetes minor versions, for when a group version or resource was served. */
export type MinorVersion = `1.${number}`;

export interface ResourceEntry {
  /** The plural resource name used in webhook rules, e.g. "pods". */
  readonly name: string;
  /** The kind, e.g. "Pod". */
  readonly kind: string;
  readonly namespaced: boolean;
  /** Subresources, e.g. ["status", "log", "exec"]. */
  readonly subresources?: readonly string[];
  /** The subresources that accept CONNECT (exec, attach, portforward, proxy); a subset of subresources. */
  readonly connect?: readonly string[];
  /**
   * The subresources that are only read (GET), such as pods/log: reads never reach admission, so
   * no webhook rule ever matches them. A subset of subresources.
   */
  readonly readOnly?: readonly string[];
  /** The main resource itself accepts CONNECT (none do in 1.35; kept for completeness). */
  readonly connectMain?: boolean;
  /** First minor version that serves it in this group version, when later than the group version's. */
  readonly since?: MinorVersion;
  /** First minor version that no longer serves it. */
  readonly removed?: MinorVersion;
}

export interface GroupVersionEntry {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** Served by default (without --runtime-config) from this minor version. */
  readonly since: MinorVersion;
  /** Not served by default from this minor version on. */
  readonly removed?: MinorVersion;
  readonly resources: readonly ResourceEntry[];
}
