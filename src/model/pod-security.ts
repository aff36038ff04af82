/**
 * The Pod Security Admission data a run carries: levels, versions, a namespace's policy and the
 * PodSecurity admission configuration (its defaults and exemptions). Types and constants only;
 * src/psa/ reads, decides and evaluates (labels.ts, config.ts, namespace-policy.ts, evaluate.ts).
 */

export const PSA_MODES = ['enforce', 'audit', 'warn'] as const;
export type PsaMode = (typeof PSA_MODES)[number];

/** In order of strictness (CompareLevels). */
export const PSA_LEVELS = ['privileged', 'baseline', 'restricted'] as const;
export type PsaLevel = (typeof PSA_LEVELS)[number];

/** `latest`, or `v1.<minor>`: the major version is always 1 (ParseVersion accepts nothing else). */
export type PsaVersion = 'latest' | { readonly minor: number };

export interface PsaLevelVersion {
  readonly level: PsaLevel;
  readonly version: PsaVersion;
}

/** api.Policy: what each mode checks pods against. */
export type PsaPolicy = Readonly<Record<PsaMode, PsaLevelVersion>>;

export interface PodSecurityExemptions {
  readonly usernames: readonly string[];
  readonly namespaces: readonly string[];
  readonly runtimeClasses: readonly string[];
}

/** Where the configuration in effect came from. */
export type PodSecurityConfigOrigin =
  | { readonly kind: 'built-in' }
  | { readonly kind: 'standalone'; readonly file: string; readonly apiVersion: string }
  | {
      readonly kind: 'admission-configuration';
      readonly file: string;
      /** Index of the PodSecurity entry in `plugins`; undefined when there is none (defaults apply). */
      readonly plugin: number | undefined;
      /** `none`: the entry has neither configuration nor path (defaults apply). */
      readonly via: 'configuration' | 'path' | 'none';
      /** For `path`: the file read, relative to the current folder unless the path is absolute. */
      readonly referencedFile?: string;
      /** Undefined when the defaults apply (no entry, an empty entry, or an empty referenced file). */
      readonly apiVersion?: string;
    };

export interface PodSecurityConfiguration {
  readonly defaults: PsaPolicy;
  readonly exemptions: PodSecurityExemptions;
  readonly origin: PodSecurityConfigOrigin;
}

/** The namespace of objects that name none, unless the run is told another (`--namespace`), as kubectl's. */
export const DEFAULT_NAMESPACE = 'default';

/** What a run knows of the cluster's Pod Security Admission beyond the manifests. */
export interface PodSecuritySettings {
  /** The PodSecurity admission configuration (`--pod-security-config`), else the plugin's built-in one. */
  readonly config: PodSecurityConfiguration;
  /** The namespace of objects without metadata.namespace: `--namespace`, else `default`. */
  readonly defaultNamespace: string;
  /** Whether defaultNamespace was given (`--namespace`) rather than kubectl's `default`. */
  readonly defaultNamespaceGiven: boolean;
}
