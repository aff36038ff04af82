/**
 * The shape of upstream's checks (k8s.io/pod-security-admission `policy/checks.go`), as data:
 * a check has an ID, a level and one implementation per policy version it changed in.
 */
import type { FieldPath } from '../../field-path.js';
import type { PodView } from './model.js';

export type CheckLevel = 'baseline' | 'restricted';

/** Why a check forbids a pod: upstream's ForbiddenReason and ForbiddenDetail, and the field at fault. */
export interface CheckFailure {
  readonly reason: string;
  readonly detail: string;
  /** The first offending field, relative to the pod (see each check for which one it picks). */
  readonly path: FieldPath;
}

/** CheckPodFn: undefined when the check allows the pod. */
export type CheckPodFn = (pod: PodView) => CheckFailure | undefined;

export interface VersionedCheck {
  /** The first policy version (1.<minor>) this implementation applies to. */
  readonly minimumVersion: number;
  readonly checkPod: CheckPodFn;
  /** Baseline checks this (restricted) implementation replaces at its versions. */
  readonly overrideCheckIds?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: CheckLevel;
  /** The upstream file that defines the check, in k8s.io/pod-security-admission. */
  readonly source: string;
  /** In strictly increasing minimumVersion order. */
  readonly versions: readonly VersionedCheck[];
}
