/**
 * Upstream's check registry (policy/registry.go): which implementation of which check runs for a
 * level and policy version, in which order.
 *
 * - Each check's implementation with the greatest minimumVersion at or below the version applies.
 * - Restricted runs its own checks plus the baseline checks no restricted implementation at that
 *   version overrides.
 * - Checks run (and their failures are listed) baseline first, then restricted, each group in
 *   Go string order of the check IDs.
 * - A version newer than the newest minimumVersion of any check evaluates as that newest one.
 */
import { compareGoStrings } from './go-text.js';
import type { Check, CheckLevel, CheckPodFn, VersionedCheck } from './types.js';

export interface RegisteredCheck {
  readonly id: string;
  readonly checkPod: CheckPodFn;
}

export interface CheckRegistry {
  /** The newest policy minor version any check defines; newer versions evaluate as this one. */
  readonly maxMinor: number;
  /** The checks to run, in order. `minor` must be a non-negative integer (policy version 1.<minor>). */
  checksFor(level: CheckLevel, minor: number): readonly RegisteredCheck[];
}

/** upstream validateChecks: the invariants the registry relies on. Throws on a malformed list (a programming error). */
export function validateChecks(checks: readonly Check[]): void {
  const levels = new Map<string, CheckLevel>();
  for (const check of checks) {
    if (levels.has(check.id)) throw new Error(`multiple checks registered for ID ${check.id}`);
    levels.set(check.id, check.level);
    if (check.versions.length === 0) throw new Error(`check ${check.id}: empty`);
    let previous = -1;
    for (const version of check.versions) {
      if (!Number.isInteger(version.minimumVersion) || version.minimumVersion < 0) {
        throw new Error(`check ${check.id}: invalid version ${version.minimumVersion}`);
      }
      if (version.minimumVersion <= previous) throw new Error(`check ${check.id}: versions must be strictly increasing`);
      previous = version.minimumVersion;
    }
  }
  for (const check of checks) {
    for (const version of check.versions) {
      if ((version.overrideCheckIds ?? []).length === 0) continue;
      if (check.level !== 'restricted') throw new Error(`check ${check.id}: only restricted checks may set overrides`);
      for (const overridden of version.overrideCheckIds ?? []) {
        const overriddenLevel = levels.get(overridden);
        if (overriddenLevel !== undefined && overriddenLevel !== 'baseline') {
          throw new Error(`check ${check.id}: overrides ${overriddenLevel} check ${overridden}`);
        }
      }
    }
  }
}

/** The implementation of `check` that applies at `minor`, if any. */
function versionAt(check: Check, minor: number): VersionedCheck | undefined {
  let applicable: VersionedCheck | undefined;
  for (const version of check.versions) {
    if (version.minimumVersion <= minor) applicable = version;
  }
  return applicable;
}

export function buildRegistry(checks: readonly Check[]): CheckRegistry {
  validateChecks(checks);
  const maxMinor = Math.max(0, ...checks.map((check) => check.versions[check.versions.length - 1]!.minimumVersion));
  const byId = (a: Check, b: Check) => compareGoStrings(a.id, b.id);
  const ordered = [
    ...checks.filter((check) => check.level === 'baseline').sort(byId),
    ...checks.filter((check) => check.level === 'restricted').sort(byId),
  ];

  const baseline: RegisteredCheck[][] = [];
  const restricted: RegisteredCheck[][] = [];
  for (let minor = 0; minor <= maxMinor; minor++) {
    const overridden = new Set(
      ordered.filter((check) => check.level === 'restricted').flatMap((check) => versionAt(check, minor)?.overrideCheckIds ?? []),
    );
    const baselineAt: RegisteredCheck[] = [];
    const restrictedAt: RegisteredCheck[] = [];
    for (const check of ordered) {
      const version = versionAt(check, minor);
      if (version === undefined) continue;
      const registered = { id: check.id, checkPod: version.checkPod };
      if (check.level === 'baseline') baselineAt.push(registered);
      if (check.level === 'restricted' || !overridden.has(check.id)) restrictedAt.push(registered);
    }
    baseline.push(baselineAt);
    restricted.push(restrictedAt);
  }

  return {
    maxMinor,
    checksFor(level, minor) {
      if (!Number.isInteger(minor) || minor < 0) throw new RangeError(`policy version 1.${minor}: the minor version must be a non-negative integer`);
      const effective = Math.min(minor, maxMinor);
      return (level === 'baseline' ? baseline : restricted)[effective]!;
    },
  };
}
