/**
 * reviewdog's diagnostic format, rdjson (the DiagnosticResult message of
 * https://github.com/reviewdog/reviewdog/tree/master/proto/rdf; test/format-rdjson.test.ts
 * validates against its JSON Schema): `reviewdog -f=rdjson` posts the findings as review comments
 * on a pull request, and each finding's fixes and suggestions (src/fix/) as suggested changes.
 * Positions: line and column of the finding (columns count UTF-16 units, which are UTF-8 bytes
 * for ASCII lines); a suggestion's range counts UTF-8 bytes, as the format defines.
 */
import type { Finding, Report } from '../engine/finding.js';
import type { Severity } from '../rule.js';
import { INFORMATION_URI, ruleDocsUrl } from './docs.js';
import { guardJson } from './escape.js';
import type { FormatOptions } from './types.js';

const SEVERITY: Record<Severity, string> = { error: 'ERROR', warning: 'WARNING', info: 'INFO' };

function diagnostic(finding: Finding, options: FormatOptions): Record<string, unknown> {
  const fixes = options.fixes?.(finding) ?? [];
  const suggestions = fixes.flatMap((fix) =>
    fix.edits.map((edit) => ({
      range: { start: { line: edit.start.line, column: edit.start.byteColumn }, end: { line: edit.end.line, column: edit.end.byteColumn } },
      text: edit.text,
    })),
  );
  const advice = fixes.map((fix) => `${fix.kind === 'fix' ? 'fix' : 'suggestion'}: ${fix.description}`);
  return {
    message: [finding.message, ...advice].join('\n'),
    location: {
      path: finding.file,
      range: { start: { line: finding.line, column: finding.column }, end: { line: finding.endLine, column: finding.endColumn } },
    },
    severity: SEVERITY[finding.severity],
    source: { name: 'admission-lint', url: INFORMATION_URI },
    code: { value: finding.ruleId, url: ruleDocsUrl(finding.ruleId) },
    ...(suggestions.length > 0 ? { suggestions } : {}),
  };
}

export function formatRdjson(report: Report, options: FormatOptions): string {
  return guardJson(`${JSON.stringify({ source: { name: 'admission-lint', url: INFORMATION_URI }, diagnostics: report.findings.map((finding) => diagnostic(finding, options)) }, null, 2)}\n`);
}
