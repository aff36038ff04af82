import type { Report } from '../engine/finding.js';
import { coverPlace } from '../engine/covers.js';
import { guardJson } from './escape.js';
import type { FormatOptions } from './types.js';

/**
 * The JSON contract of design.md §4: field order is part of what users diff. guardJson keeps
 * values from the input from reading as workflow commands in a CI log (same data once parsed).
 */
export function formatJson(report: Report, options?: Pick<FormatOptions, 'hidden'>): string {
  return guardJson(`${JSON.stringify(
    {
      tool: { name: 'admission-lint', version: report.toolVersion },
      findings: report.findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        file: f.file,
        line: f.line,
        column: f.column,
        endLine: f.endLine,
        endColumn: f.endColumn,
        documentIndex: f.documentIndex,
        fieldPath: f.fieldPath,
        object: f.object,
        webhook: f.webhook,
        help: f.help,
        // Not in the §4 contract's list: only for rendered input, after the contract fields.
        ...(f.rendered ? { rendered: f.rendered } : {}),
        // Also after them: an info that another finding stands for (one cause, one finding), its severity before, and that finding.
        ...(f.coveredBy ? { coveredBy: { severity: f.coveredBy.severity, by: f.coveredBy.by.map(coverPlace) } } : {}),
      })),
      summary: report.summary,
      // After the contract fields: what the configuration changed, and the findings suppressed inline.
      ...(report.gate ? { gate: report.gate } : {}),
      ...(report.suppressed && report.suppressed.length > 0 ? { suppressed: report.suppressed.map((s) => ({ ruleId: s.finding.ruleId, file: s.finding.file, line: s.finding.line, column: s.finding.column, by: s.by, reason: s.reason })) } : {}),
      // After the contract fields, when -q or --baseline was given: what they left out of `findings`.
      ...(options?.hidden !== undefined ? { hidden: options.hidden } : {}),
    },
    null,
    2,
  )}\n`);
}
