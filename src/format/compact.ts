/**
 * `--format compact`: one line per finding, `file:line:col: severity message [rule-id]`, the shape
 * of ESLint's `unix` format and Ruff's `concise`, which editors (Vim's and Emacs's default
 * `%f:%l:%c: %m` error formats, VS Code problem matchers) and grep read.
 *
 * Decided: no count line at the end (ESLint's `unix` prints one, Ruff's `concise` prints "Found N
 * errors"). Every line of this output is a finding, so `wc -l` counts them, `grep` never matches a
 * summary, and no error format has to skip one; no findings is no output. The exit code says
 * whether the run failed, and what `-q` or `--baseline` hid goes to stderr (src/cli).
 *
 * Each value from the input is written as a terminal line (safeText: control characters and line
 * breaks as visible escapes), and the whole output goes through guardText, so no line can start a
 * workflow command in a CI log. A message's own line breaks (CEL errors) become spaces.
 *
 * A finding in a template of rendered `helm template` output is placed where its line and column
 * are true, in the rendered stream, and names the template: `<stdin>:14:5: … (template:
 * chart/templates/webhook.yaml) [rule]`.
 */
import type { Finding, Report } from '../engine/finding.js';
import { guardText, oneLineMessage, safeText } from './escape.js';
import type { FormatOptions } from './types.js';

function line(finding: Finding): string {
  const where = finding.rendered ?? finding;
  const template = finding.rendered === undefined ? '' : ` (template: ${safeText(finding.file)})`;
  return `${safeText(where.file)}:${where.line}:${where.column}: ${finding.severity} ${oneLineMessage(finding.message)}${template} [${safeText(finding.ruleId)}]\n`;
}

export function formatCompact(report: Report, _options?: FormatOptions): string {
  return guardText(report.findings.map(line).join(''));
}
