/**
 * GitHub Actions workflow commands: one `::error` / `::warning` / `::notice` line per finding,
 * which the runner turns into annotations on the changed lines (no code scanning needed).
 * Escaping is the Actions toolkit's (@actions/core, command.ts), after other control characters
 * are made visible escapes (the log viewer renders terminal escapes).
 */
import { posix } from 'node:path';
import type { Finding, Report } from '../engine/finding.js';
import { STDIN_PATH } from '../load/sources.js';
import type { Severity } from '../rule.js';
import { keepingBreaks } from './escape.js';
import type { FormatOptions } from './types.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** The message of a command: `%`, CR and LF escaped, so one finding stays one line. */
export function escapeData(value: string): string {
  return keepingBreaks(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value: as data, plus `:` and `,`, which separate the properties. */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(finding: Finding): string {
  const properties: [string, string | number][] = [];
  // A finding in rendered `helm template` output is annotated where it is true, in the stream that
  // was read; the template its `# Source:` comment names (input text) is said in the message only.
  const where = finding.rendered ?? finding;
  let message = finding.rendered === undefined ? finding.message : `${finding.message} (template ${finding.file})`;
  if (where.file === STDIN_PATH) {
    // No file in the workspace to annotate: the position goes into the message instead.
    message = `${STDIN_PATH}:${where.line}:${where.column}: ${message}`;
  } else {
    properties.push(['file', posix.normalize(where.file.split('\\').join('/'))], ['line', where.line]);
    // The runner takes columns only when the annotation stays on one line.
    if (where.endLine === where.line) {
      properties.push(['col', where.column], ['endLine', where.endLine], ['endColumn', Math.max(where.endColumn, where.column + 1)]);
    } else if (where.endLine > where.line) {
      properties.push(['endLine', where.endLine]);
    }
  }
  properties.push(['title', finding.ruleId]);
  const props = properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',');
  return `::${COMMAND[finding.severity]} ${props}::${escapeData(message)}`;
}

export function formatGithub(report: Report, _options?: FormatOptions): string {
  return report.findings.map((finding) => `${command(finding)}\n`).join('');
}
