/**
 * A finding's identity across runs, for the formats that let a server track findings (SARIF's
 * partialFingerprints, GitLab Code Quality's fingerprint): where the problem is in the object
 * model (rule, file, object kind and name, webhook, field path), not which line it is on or how
 * its message reads, so edits that move lines or change a wrong value keep it the same finding.
 * The baseline (src/engine/baseline.ts) matches findings by the same parts.
 */
import { createHash } from 'node:crypto';
import type { Finding } from '../engine/finding.js';

/** SHA-256 (hex) of the finding's parts, with `file` as the format writes the path. */
export function findingHash(finding: Finding, file: string): string {
  const parts = [finding.ruleId, file, finding.object?.kind ?? '', finding.object?.name ?? '', finding.webhook ?? '', finding.fieldPath ?? ''];
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/**
 * Findings that share every part (two `yaml-syntax` findings in one document) are told apart by
 * their occurrence: the first is 1, the next 2, in report order. Returns a counter per run.
 */
export function occurrenceCounter(): (base: string) => number {
  const seen = new Map<string, number>();
  return (base) => {
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    return occurrence;
  };
}
