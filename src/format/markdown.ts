/**
 * A Markdown summary for a pull-request comment or $GITHUB_STEP_SUMMARY: a headline with the
 * counts, then the findings as a table, grouped per rule in collapsed <details> blocks when
 * there are many. Every cell is escaped, so a message cannot break the table or ping anyone.
 */
import { describeGate } from './gate.js';
import type { Finding, Report } from '../engine/finding.js';
import type { Severity } from '../rule.js';
import { ruleDocsUrl } from './docs.js';
import { escapeCell, guardMarkup } from './escape.js';
import { describeHidden, hiddenFailure, type HiddenFindings } from './hidden.js';
import type { FormatOptions } from './types.js';

/** More findings than this: one collapsed table per rule instead of one open table. */
export const DETAILS_THRESHOLD = 10;
/** GitHub refuses comments over 65,536 characters; stay below, with room for a footer. */
export const MAX_LENGTH = 60_000;

const ICON: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/** One copy of the cell escaping, shared with simulate and report Markdown (escape.ts). */
export { escapeCell };

const escapeHtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function where(finding: Finding): string {
  const object = finding.object ? `${finding.object.kind}/${finding.object.name ?? '(no name)'}` : `document ${finding.documentIndex + 1}`;
  return finding.webhook !== null ? `${escapeCell(finding.webhook)}<br>${escapeCell(object)}` : escapeCell(object);
}

function row(finding: Finding): string {
  const cells = [
    `${ICON[finding.severity]} ${finding.severity}`,
    `[${escapeCell(finding.ruleId)}](${ruleDocsUrl(finding.ruleId)})`,
    `${escapeCell(finding.file)}:${finding.line}`,
    where(finding),
    escapeCell(finding.message),
  ];
  return `| ${cells.join(' | ')} |`;
}

const HEADER = ['| Severity | Rule | File | Webhook / object | Message |', '| --- | --- | --- | --- | --- |'];

/** The counts; what -q and --baseline hid ends the scope line, and hidden findings that fail the run take the ✅. */
function headline(report: Report, hidden: HiddenFindings | undefined): string {
  const { summary } = report;
  const total = summary.errors + summary.warnings + summary.infos;
  const gate = describeGate(report);
  const hiddenParts = describeHidden(hidden);
  const note = hiddenParts.length > 0 ? `; ${escapeCell(hiddenParts.join('; '))}` : '';
  const scope = `${plural(summary.files, 'file')}, ${plural(summary.objects, 'admission object')}${gate === undefined ? '' : ` (${escapeCell(gate)})`}`;
  if (total === 0) {
    const failing = hiddenFailure(hidden);
    const mark = failing === undefined ? '✅' : ICON[failing];
    return `### ${mark} admission-lint: ${hiddenParts.length > 0 ? 'No problems shown' : 'No problems found'}\n\n${scope} linted${note}.`;
  }
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${plural(summary.infos, 'info', 'infos')}`;
  const mark = summary.errors > 0 ? ICON.error : summary.warnings > 0 ? ICON.warning : ICON.info;
  return `### ${mark} admission-lint: ${plural(total, 'problem')} (${counts})\n\n${scope} linted${note}.`;
}

export interface MarkdownOptions {
  /** Group per rule in collapsed blocks above this many findings (default DETAILS_THRESHOLD). */
  readonly detailsThreshold?: number;
  /** Stop adding rows when the text would grow beyond this (default MAX_LENGTH). */
  readonly maxLength?: number;
}

export function formatMarkdown(report: Report, options?: Partial<FormatOptions> & MarkdownOptions): string {
  const threshold = options?.detailsThreshold ?? DETAILS_THRESHOLD;
  const maxLength = options?.maxLength ?? MAX_LENGTH;
  const parts: string[] = [headline(report, options?.hidden)];
  const findings = report.findings;
  if (findings.length === 0) return guardMarkup(`${parts.join('\n\n')}\n`);

  let length = parts[0]!.length;
  let shown = 0;
  /** Adds the rows that fit; false once the budget is spent. */
  const fill = (rows: string[], list: readonly Finding[]): boolean => {
    for (const finding of list) {
      const line = row(finding);
      if (length + line.length + 1 > maxLength) return false;
      rows.push(line);
      length += line.length + 1;
      shown++;
    }
    return true;
  };

  if (findings.length <= threshold) {
    const rows = [...HEADER];
    fill(rows, findings);
    parts.push(rows.join('\n'));
  } else {
    const byRule = new Map<string, Finding[]>();
    for (const finding of findings) {
      const list = byRule.get(finding.ruleId);
      if (list === undefined) byRule.set(finding.ruleId, [finding]);
      else list.push(finding);
    }
    const rank = (list: readonly Finding[]): number => list.reduce((min, f) => Math.min(min, { error: 0, warning: 1, info: 2 }[f.severity]), 2);
    const groups = [...byRule.entries()].sort(([a, x], [b, y]) => rank(x) - rank(y) || y.length - x.length || (a < b ? -1 : 1));
    for (const [ruleId, list] of groups) {
      const worst = (['error', 'warning', 'info'] as const)[rank(list)]!;
      const rows = [...HEADER];
      const summary = `<summary>${ICON[worst]} <code>${escapeHtml(ruleId)}</code>: ${plural(list.length, 'finding')}</summary>`;
      length += summary.length + 40;
      const complete = fill(rows, list);
      if (rows.length > HEADER.length) parts.push(`<details>\n${summary}\n\n${rows.join('\n')}\n\n</details>`);
      if (!complete) break;
    }
  }
  if (shown < findings.length) {
    parts.push(`… and ${plural(findings.length - shown, 'more finding')} not shown here (use \`--format json\` or \`--format sarif\` for all of them).`);
  }
  // Cells are escaped already; the guard is the last word on workflow commands (escape.ts).
  return guardMarkup(`${parts.join('\n\n')}\n`);
}
