/**
 * `--stdin-filename <path>` (ESLint's and Ruff's): the name findings read from standard input
 * carry instead of `<stdin>`, so that `--format github` annotates the file, SARIF locates it and
 * a baseline matches it (`cat deploy/webhook.yaml | admission-lint --stdin-filename
 * deploy/webhook.yaml -`). Rendered input (`helm template` output) keeps its templates' names;
 * the stream they were rendered in takes the name.
 */
import type { Finding, Report } from '../engine/finding.js';
import { STDIN_PATH } from '../load/sources.js';
import { renameCoverKey } from '../engine/covers.js';

/** The report with `<stdin>` renamed; the same report when no name is given. */
export function withStdinFilename(report: Report, name: string | undefined): Report {
  if (name === undefined) return report;
  const path = name.split('\\').join('/');
  const rename = (finding: Finding): Finding => {
    const file = finding.file === STDIN_PATH ? path : finding.file;
    const rendered = finding.rendered !== undefined && finding.rendered.file === STDIN_PATH ? { ...finding.rendered, file: path } : finding.rendered;
    // What covers it is renamed with it, so that a baseline and the JSON output find it (attack s48c 9, 10).
    const coveredBy = finding.coveredBy?.by.some((key) => renameCoverKey(key, STDIN_PATH, path) !== key) === true ? { ...finding.coveredBy, by: finding.coveredBy.by.map((key) => renameCoverKey(key, STDIN_PATH, path)) } : finding.coveredBy;
    return file === finding.file && rendered === finding.rendered && coveredBy === finding.coveredBy ? finding : { ...finding, file, ...(rendered !== undefined ? { rendered } : {}), ...(coveredBy !== undefined ? { coveredBy } : {}) };
  };
  return {
    ...report,
    findings: report.findings.map(rename),
    inventory: { files: report.inventory.files.map((file) => (file.path === STDIN_PATH ? { ...file, path } : file)) },
    ...(report.suppressed !== undefined ? { suppressed: report.suppressed.map((entry) => ({ ...entry, finding: rename(entry.finding) })) } : {}),
  };
}
