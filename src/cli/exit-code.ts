import { severityAtLeast, type Report } from '../engine/finding.js';
import type { FailOn } from '../severity.js';

export const EXIT = { ok: 0, findings: 1, fatal: 2 } as const;

export type { FailOn } from '../severity.js';

export function exitCodeFor(report: Report, failOn: FailOn): number {
  if (failOn === 'never') return EXIT.ok;
  return report.findings.some((finding) => severityAtLeast(finding.severity, failOn)) ? EXIT.findings : EXIT.ok;
}
