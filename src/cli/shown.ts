/**
 * What a lint run shows of its findings, and what it says it hid. `-q` shows errors only (as
 * ESLint's --quiet). The terminal output (stylish) leaves infos out unless `--show-info` asks for
 * them, and counts them in its summary: the default output is what needs acting on, as ESLint's
 * and Ruff's are. The machine formats (JSON, SARIF, compact, GitHub, GitLab, JUnit) and Markdown
 * keep every finding. Hidden findings still count for `--fail-on`; when they alone fail the run,
 * the report says so.
 */
import type { Report } from '../engine/finding.js';
import type { FormatName } from '../format/index.js';
import type { HiddenFindings } from '../format/types.js';
import { UsageError } from '../errors.js';
import { EXIT, exitCodeFor, type FailOn } from './exit-code.js';

/** The formats that leave infos out unless `--show-info` is given. */
const HIDE_INFOS_BY_DEFAULT: ReadonlySet<FormatName> = new Set(['stylish']);

export interface ShownRun {
  /** The findings after the baseline: what the exit code follows. */
  readonly filtered: Report;
  readonly format: FormatName;
  readonly quiet: boolean;
  readonly showInfo: boolean;
  /** Findings the baseline matched, when `--baseline` was given. */
  readonly inBaseline: number | undefined;
  /** The level the run fails on (`never` when it cannot fail, e.g. writing a baseline). */
  readonly failOn: FailOn;
}

/** Errors only, the summary counting only them (-q's report: it says what it hid). */
function onlyErrors(report: Report): Report {
  const findings = report.findings.filter((finding) => finding.severity === 'error');
  return { ...report, findings, summary: { ...report.summary, warnings: 0, infos: 0 } };
}

/** Without infos, the summary still counting them (the terminal's default: it says they are not shown). */
function withoutInfos(report: Report): Report {
  return { ...report, findings: report.findings.filter((finding) => finding.severity !== 'info') };
}

/** The report to render and what it hid (undefined when nothing can have been hidden). */
export function shownFindings(run: ShownRun): { shown: Report; hidden: HiddenFindings | undefined } {
  const hideInfos = !run.quiet && !run.showInfo && HIDE_INFOS_BY_DEFAULT.has(run.format);
  const shown = run.quiet ? onlyErrors(run.filtered) : hideInfos ? withoutInfos(run.filtered) : run.filtered;
  const infosHidden = hideInfos ? run.filtered.summary.infos : 0;
  if (!run.quiet && infosHidden === 0 && run.inBaseline === undefined) return { shown, hidden: undefined };
  const failOn = run.failOn;
  const failsRunOn = failOn !== 'never' && exitCodeFor(run.filtered, failOn) !== EXIT.ok && exitCodeFor(shown, failOn) === EXIT.ok ? failOn : undefined;
  const hidden: HiddenFindings = {
    ...(run.quiet ? { quiet: { warnings: run.filtered.summary.warnings, infos: run.filtered.summary.infos } } : {}),
    ...(infosHidden > 0 ? { infos: infosHidden } : {}),
    ...(run.inBaseline !== undefined ? { baseline: run.inBaseline } : {}),
    ...(failsRunOn !== undefined ? { failsRunOn } : {}),
  };
  return { shown, hidden };
}

/**
 * `--max-warnings N` (ESLint's): more than N warnings (after the baseline, whatever -q hid) fail
 * the run. The line that says so, or undefined when the run is within the limit.
 */
export function tooManyWarnings(filtered: Report, maxWarnings: number | undefined): string | undefined {
  if (maxWarnings === undefined || filtered.summary.warnings <= maxWarnings) return undefined;
  return `${filtered.summary.warnings} ${filtered.summary.warnings === 1 ? 'warning' : 'warnings'}, more than --max-warnings ${maxWarnings} allows: exit 1`;
}

/** `--max-warnings`'s value: a whole number, 0 or more. */
export function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value.trim())) throw new UsageError(`--max-warnings takes a whole number, 0 or more, not "${value}"`, 'e.g. --max-warnings 0 fails the run on any warning');
  return Number(value.trim());
}
