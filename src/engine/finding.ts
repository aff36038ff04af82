import type { FixHint, Severity } from '../rule.js';

/** One reported problem, as the JSON output contract (design.md §4) lays it out. */
export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly documentIndex: number;
  readonly fieldPath: string | null;
  readonly object: { readonly apiVersion: string; readonly kind: string; readonly name: string | null } | null;
  readonly webhook: string | null;
  readonly help: string | null;
  /**
   * Only for rendered input (`helm template` output with `# Source:` comments): `file` is then the
   * template, and line/column are positions in the rendered stream, which this names and repeats.
   */
  readonly rendered?: { readonly file: string; readonly line: number; readonly column: number; readonly endLine: number; readonly endColumn: number };
  /**
   * The field paths of the other places a finding of one cause stands for (Violation.alsoAt: the
   * keys of one selector, copies of a webhook): part of its identity in a baseline, so that a
   * place added later is said. Not printed by any format.
   */
  readonly alsoAt?: readonly string[];
  /** The rule's facts for the finding's fix (src/rule.ts FixHint); for `--fix`, not printed by any format. */
  readonly fixHint?: FixHint;
  /**
   * An info because other findings say its cause (src/engine/covers.ts): its own severity, and
   * those findings (their keys), so that it is what it was again when a baseline hides them.
   * Not printed by any format.
   */
  readonly coveredBy?: { readonly severity: Severity; readonly by: readonly string[] };
}

export interface Summary {
  readonly files: number;
  readonly documents: number;
  /** Admission objects linted: webhook configurations, policies, bindings (Namespaces count apart). */
  readonly objects: number;
  /** Namespace manifests read as context for the selector rules. */
  readonly namespaces: number;
  /** Documents of other kinds, recognised and skipped (workloads read for Pod Security are not among them). */
  readonly skipped: number;
  /** Workloads (Pods and pod templates) read and checked by Pod Security; absent when none were. */
  readonly workloads?: number;
  /** Present (true) when private key blocks in Secrets were left unread at the run's limits: the ca-bundle check did not look for them. */
  readonly privateKeysNotRead?: true;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Findings that inline suppressions (comments, annotations) removed; they are in `suppressed`. */
  readonly suppressed: number;
}

/** One object that was linted, findings or not (JUnit lists passing objects too). */
export interface InventoryObject {
  readonly documentIndex: number;
  readonly kind: string;
  readonly name: string | null;
}

/** Every file read and the objects linted in it, in the order they were read. */
export interface Inventory {
  readonly files: readonly { readonly path: string; readonly objects: readonly InventoryObject[] }[];
}

/** A rule that crashed: a bug in admission-lint, reported on stderr and with exit code 2. */
export interface InternalErrorReport {
  readonly ruleId: string;
  readonly file: string;
  /** "Kind name" of the object it crashed on, or null for a file-level rule. */
  readonly object: string | null;
  readonly message: string;
  readonly stack: string;
}

/**
 * What the run's configuration changed about the gate, so that a pull request that switches it
 * off (ignores every file, turns rules off, never fails) cannot pass as a clean run.
 */
export interface Gate {
  /** The config file read, or null. */
  readonly config: string | null;
  /** Files that the config's `ignore` patterns took out of the run. */
  readonly filesIgnored: number;
  /** Rules turned off by the config or the command line. */
  readonly rulesOff: readonly string[];
  /** The severity that fails the run (`error` unless changed). */
  readonly failOn: string;
  /** false with --no-inline-config: suppression comments and annotations were ignored. */
  readonly inlineConfig: boolean;
  /** Rules whose severity the config or the command line set below the rule's own (`off` is in rulesOff). */
  readonly severitiesLowered: readonly { readonly rule: string; readonly from: string; readonly to: string }[];
  /** Rule options with a name pattern that matches every name (`*`). */
  readonly optionsMatchingAll: readonly { readonly rule: string; readonly option: string; readonly value: string }[];
  /**
   * Number options set above their default where more reports less (a threshold, a budget);
   * `reportsNothing` when the value leaves the rule nothing to report.
   */
  readonly optionsLoosened: readonly { readonly rule: string; readonly option: string; readonly value: number; readonly default: number; readonly reportsNothing: boolean }[];
  /** The other name-pattern options the run sets (such as `injected: 'widgets-*'`): the names they match are exempt from the rule. */
  readonly optionsExempting?: readonly { readonly rule: string; readonly option: string; readonly value: string }[];
  /** The Kubernetes version the run checks against (`1.35`). */
  readonly kubeVersion: string;
  /** The newest Kubernetes released (`1.36`) when kubeVersion is newer than it, else null. */
  readonly kubeVersionUnreleased: string | null;
  /** Namespace label keys trusted not to be editable by namespace owners (they exempt namespaces). */
  readonly trustedNamespaceLabels: readonly string[];
}

export interface Report {
  readonly toolVersion: string;
  readonly internalErrors?: readonly InternalErrorReport[];
  readonly findings: readonly Finding[];
  readonly summary: Summary;
  readonly inventory: Inventory;
  /** What the configuration changed about this gate (set by the CLI; absent in library use). */
  readonly gate?: Gate;
  /** The findings inline suppressions removed, with how and why (SARIF `suppressions`). */
  readonly suppressed?: readonly { readonly finding: Finding; readonly by: string; readonly reason: string }[];
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function severityAtLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[threshold];
}

export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
