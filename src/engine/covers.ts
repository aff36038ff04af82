/**
 * One cause, one finding across rules (Violation.covers): a finding that another reported finding
 * of the same object stands for is made an info, and made what it was again when what covered it
 * is no longer reported (a baseline hides it).
 */
import { formatFieldPath, type FieldPath } from '../field-path.js';
import type { Covered } from '../rule.js';
import type { Severity } from '../severity.js';
import { severityAtLeast, type Finding } from './finding.js';

/** What the engine knows of a finding for this: its object, rule and places, and what it covers. */
export interface Coverage<O> {
  readonly object: O;
  readonly ruleId: string;
  readonly places: readonly FieldPath[];
  readonly covers: readonly Covered[];
}

/** A covering finding, as restoreUncovered looks for it among the findings (src/engine/variants.ts covers across files). */
export function coverKey(finding: Finding): string {
  return [finding.file, finding.ruleId, finding.documentIndex, finding.line, finding.column, finding.fieldPath ?? '', finding.message].join('\u0000');
}

/** A cover key with its file renamed (`--stdin-filename`): the covering finding is renamed too. */
export function renameCoverKey(key: string, from: string, to: string): string {
  return key.startsWith(`${from}\u0000`) ? `${to}${key.slice(from.length)}` : key;
}

/** Where a covering finding is, from its coverKey: what the JSON output names (`coveredBy`). */
export function coverPlace(key: string): { readonly ruleId: string; readonly file: string; readonly line: number; readonly column: number } {
  const [file, ruleId, , line, column] = key.split('\u0000');
  return { ruleId: ruleId!, file: file!, line: Number(line), column: Number(column) };
}

/**
 * The reported findings, those another reported finding of the same object stands for made infos:
 * a finding whose every place (its path and alsoAt) is covered for its rule by a finding at least
 * as severe. An info, not dropped: it keeps its fix. A rule whose severity the user set is left as
 * set. The info remembers its severity and what covered it (Finding.coveredBy).
 */
export function uncovered<O>(findings: Finding[], coverage: ReadonlyMap<Finding, Coverage<O>>, overridden: (ruleId: string) => boolean): Finding[] {
  const objects = new Map<O, number>();
  const objectKey = (object: O): number => objects.get(object) ?? (objects.set(object, objects.size), objects.size - 1);
  const key = (object: O, ruleId: string, path: FieldPath): string => `${objectKey(object)}\u0000${ruleId}\u0000${formatFieldPath(path)}`;
  /** Per covered place: the most severe finding covering it, and all that do. */
  const covered = new Map<string, { severity: Severity; by: Finding[] }>();
  for (const finding of findings) {
    const of = coverage.get(finding);
    for (const place of of?.covers ?? []) {
      const at = key(of!.object, place.ruleId, place.path);
      const entry = covered.get(at);
      if (entry === undefined) covered.set(at, { severity: finding.severity, by: [finding] });
      else {
        if (severityAtLeast(finding.severity, entry.severity)) entry.severity = finding.severity;
        entry.by.push(finding);
      }
    }
  }
  if (covered.size === 0) return findings;
  return findings.map((finding) => {
    const of = coverage.get(finding);
    if (of === undefined || finding.severity === 'info' || overridden(of.ruleId)) return finding;
    const places = of.places.map((path) => covered.get(key(of.object, of.ruleId, path)));
    if (!places.every((place) => place !== undefined && severityAtLeast(place.severity, finding.severity))) return finding;
    const by = [...new Set(places.flatMap((place) => place!.by))].map(coverKey);
    return { ...finding, severity: 'info' as const, coveredBy: { severity: finding.severity, by } };
  });
}

/**
 * The findings with those made infos by findings no longer among them (a baseline hid them) made
 * what they were again: what the info deferred to is not said any more.
 */
export function restoreUncovered(findings: readonly Finding[]): Finding[] {
  const keys = new Set(findings.map(coverKey));
  return findings.map((finding) => {
    if (finding.coveredBy === undefined) return finding;
    if (finding.coveredBy.by.every((by) => keys.has(by))) return finding;
    const { coveredBy, ...rest } = finding;
    return { ...rest, severity: coveredBy.severity };
  });
}
