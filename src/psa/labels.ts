/**
 * Pod Security levels and versions, and a Namespace's `pod-security.kubernetes.io/*` labels read
 * the way the PodSecurity admission plugin reads them: k8s.io/pod-security-admission
 * api/constants.go and api/helpers.go (ParseLevel, ParseVersion, PolicyToEvaluate, CompareLevels).
 */
import type { FieldError } from '../validate/field-error.js';
import { invalid } from '../validate/field-error.js';
import { PSA_LEVELS, PSA_MODES, type PsaLevel, type PsaLevelVersion, type PsaMode, type PsaPolicy, type PsaVersion } from '../model/pod-security.js';

export const PSA_LABEL_PREFIX = 'pod-security.kubernetes.io/';

export { PSA_LEVELS, PSA_MODES, type PsaLevel, type PsaLevelVersion, type PsaMode, type PsaPolicy, type PsaVersion } from '../model/pod-security.js';

/** The label keys of each mode (api/constants.go). */
export const PSA_LABELS: Readonly<Record<PsaMode, { readonly level: string; readonly version: string }>> = {
  enforce: { level: `${PSA_LABEL_PREFIX}enforce`, version: `${PSA_LABEL_PREFIX}enforce-version` },
  audit: { level: `${PSA_LABEL_PREFIX}audit`, version: `${PSA_LABEL_PREFIX}audit-version` },
  warn: { level: `${PSA_LABEL_PREFIX}warn`, version: `${PSA_LABEL_PREFIX}warn-version` },
};

/** The details of the errors ParseLevel and ParseVersion return, which the API server prints. */
export const LEVEL_ERROR = `must be one of ${PSA_LEVELS.join(', ')}`;
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

export function isPsaLevel(value: unknown): value is PsaLevel {
  return typeof value === 'string' && (PSA_LEVELS as readonly string[]).includes(value);
}

/** ParseLevel: an unknown level is an error and reads as restricted. */
export function parsePsaLevel(text: string): { readonly level: PsaLevel; readonly valid: boolean } {
  return isPsaLevel(text) ? { level: text, valid: true } : { level: 'restricted', valid: false };
}

const VERSION_PATTERN = /^v1\.([0-9]|[1-9][0-9]*)$/;
/** strconv.Atoi's range on the 64-bit platforms the API server runs on. */
const MAX_GO_INT = 2n ** 63n - 1n;

/**
 * ParseVersion: `latest` or `v1.<minor>`; anything else is an error and reads as latest. A minor
 * that the regexp accepts but strconv.Atoi cannot hold is an error too.
 */
export function parsePsaVersion(text: string): { readonly version: PsaVersion; readonly valid: boolean } {
  if (text === 'latest') return { version: 'latest', valid: true };
  const match = VERSION_PATTERN.exec(text);
  if (!match || BigInt(match[1]!) > MAX_GO_INT) return { version: 'latest', valid: false };
  return { version: { minor: Number(match[1]) }, valid: true };
}

/** Version.String: `latest` or `v1.<minor>`. */
export function formatPsaVersion(version: PsaVersion): string {
  return version === 'latest' ? 'latest' : `v1.${version.minor}`;
}

/** LevelVersion.String, as in `violates PodSecurity "restricted:latest"`. */
export function formatLevelVersion(levelVersion: PsaLevelVersion): string {
  return `${levelVersion.level}:${formatPsaVersion(levelVersion.version)}`;
}

export function samePsaVersion(a: PsaVersion, b: PsaVersion): boolean {
  return a === 'latest' || b === 'latest' ? a === b : a.minor === b.minor;
}

/** CompareLevels: 1 when `a` is stricter than `b`, -1 when less strict, 0 when equal. */
export function comparePsaLevels(a: PsaLevel, b: PsaLevel): -1 | 0 | 1 {
  const difference = PSA_LEVELS.indexOf(a) - PSA_LEVELS.indexOf(b);
  return difference > 0 ? 1 : difference < 0 ? -1 : 0;
}

/**
 * Where a level or version comes from: a valid label, the configured default (no label), or the
 * value PolicyToEvaluate substitutes for a label it cannot parse.
 */
export type PolicySource = 'label' | 'default' | 'fallback';

export interface ResolvedMode extends PsaLevelVersion {
  /** `fallback` when the level or the version is a substitute, else `label` when either is from a label, else `default`. */
  readonly source: PolicySource;
  readonly levelSource: PolicySource;
  readonly versionSource: PolicySource;
  /** Warn only: warn took enforce's level (and version, unless warn-version is set) because enforce is stricter. */
  readonly inheritedFromEnforce: boolean;
}

export type ResolvedPolicy = Readonly<Record<PsaMode, ResolvedMode>>;

export interface LabelPolicy {
  readonly policy: ResolvedPolicy;
  /** What PolicyToEvaluate reports (`metadata.labels[<key>]: Invalid value: …`), in its order. */
  readonly errors: readonly FieldError[];
  /**
   * PSA label keys whose value is a number, boolean, list or mapping: such a Namespace cannot be
   * decoded (label values are strings), so no cluster holds it; these labels are left out.
   */
  readonly undecodable: readonly string[];
}

const LABELS_PATH = ['metadata', 'labels'] as const;

function summarize(levelSource: PolicySource, versionSource: PolicySource): PolicySource {
  if (levelSource === 'fallback' || versionSource === 'fallback') return 'fallback';
  return levelSource === 'label' || versionSource === 'label' ? 'label' : 'default';
}

interface ModeDraft {
  level: PsaLevel;
  version: PsaVersion;
  levelSource: PolicySource;
  versionSource: PolicySource;
  inheritedFromEnforce: boolean;
}

/**
 * api.PolicyToEvaluate: each mode's level and version from the labels, the defaults where a label
 * is absent. An enforce level that does not parse fails closed (restricted); an audit or warn
 * level that does not parse fails open (privileged); a version that does not parse is latest.
 * When enforce is set (and valid), warn is not, and enforce is stricter than the default warn
 * level, warn takes enforce's level, and its version too unless warn-version is set.
 */
export function policyFromLabels(labels: Readonly<Record<string, unknown>> | undefined, defaults: PsaPolicy): LabelPolicy {
  const errors: FieldError[] = [];
  const undecodable: string[] = [];
  const draft = {} as Record<PsaMode, ModeDraft>;
  for (const mode of PSA_MODES) draft[mode] = { ...defaults[mode], levelSource: 'default', versionSource: 'default', inheritedFromEnforce: false };

  /** The label's value as the API server decodes it; undefined when absent or undecodable. */
  const read = (key: string): string | undefined => {
    if (labels === undefined || !Object.prototype.hasOwnProperty.call(labels, key)) return undefined;
    const value = labels[key];
    // encoding/json stores a null map value as the zero value: the label is present and empty.
    if (value === null) return '';
    if (typeof value === 'string') return value;
    undecodable.push(key);
    return undefined;
  };

  let hasEnforceLevel = false;
  let hasWarnLevel = false;
  let hasWarnVersion = false;
  for (const mode of PSA_MODES) {
    const { level: levelKey, version: versionKey } = PSA_LABELS[mode];
    const levelText = read(levelKey);
    if (levelText !== undefined) {
      const parsed = parsePsaLevel(levelText);
      // Audit and warn fail open; enforce keeps ParseLevel's restricted.
      draft[mode].level = parsed.valid || mode === 'enforce' ? parsed.level : 'privileged';
      draft[mode].levelSource = parsed.valid ? 'label' : 'fallback';
      if (!parsed.valid) errors.push(invalid([...LABELS_PATH, levelKey], levelText, LEVEL_ERROR));
      if (mode === 'enforce') hasEnforceLevel = parsed.valid;
      if (mode === 'warn') hasWarnLevel = true;
    }
    const versionText = read(versionKey);
    if (versionText !== undefined) {
      const parsed = parsePsaVersion(versionText);
      draft[mode].version = parsed.version;
      draft[mode].versionSource = parsed.valid ? 'label' : 'fallback';
      if (!parsed.valid) errors.push(invalid([...LABELS_PATH, versionKey], versionText, VERSION_ERROR));
      if (mode === 'warn') hasWarnVersion = true;
    }
  }

  const { enforce, warn } = draft;
  if (!hasWarnLevel && hasEnforceLevel && comparePsaLevels(enforce.level, warn.level) > 0) {
    warn.level = enforce.level;
    warn.levelSource = enforce.levelSource;
    warn.inheritedFromEnforce = true;
    if (!hasWarnVersion) {
      warn.version = enforce.version;
      warn.versionSource = enforce.versionSource;
    }
  }

  const resolve = (mode: ModeDraft): ResolvedMode => ({ ...mode, source: summarize(mode.levelSource, mode.versionSource) });
  return { policy: { enforce: resolve(draft.enforce), audit: resolve(draft.audit), warn: resolve(draft.warn) }, errors, undecodable };
}
