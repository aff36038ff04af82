import type { ChalkInstance } from 'chalk';
import { describeGate } from './gate.js';
import type { Finding, Report } from '../engine/finding.js';
import type { FindingFix, FixesOf } from '../fix/report-fixes.js';
import type { Severity } from '../rule.js';
import { guardText, messageLines, safeText } from './escape.js';
import { describeHidden, hiddenFailure, type HiddenFindings } from './hidden.js';
import { textWidth, wrapWords } from './wrap.js';

export interface StylishOptions {
  /** The terminal's width: messages and fixes wrap to it. Undefined: no wrapping (not a terminal). */
  readonly width?: number;
  readonly hidden?: HiddenFindings;
  /** Print each finding's fix under it (`--show-fixes`); by default a finding is its message line. */
  readonly showFixes?: boolean;
  /** Each finding's own fixes and suggestions (src/fix/): with `showFixes` they are printed instead of the rule's help. */
  readonly fixes?: FixesOf;
}

/** Where a finding's second line starts when it does not fit under the message column. */
const HANG = '    ';

/** Narrower than this beside the location column, text wraps at this width anyway (and overflows). */
const MIN_TEXT_WIDTH = 30;

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

function paint(chalk: ChalkInstance, severity: Severity, text: string): string {
  if (severity === 'error') return chalk.red(text);
  if (severity === 'warning') return chalk.yellow(text);
  return chalk.blue(text);
}

/**
 * A message and its rule id as at most two lines of text (uncoloured), the rule id ending the
 * last. With `max` (a terminal's width beside the location and severity columns), the message
 * wraps once: the first line holds what fits, the second the rest and the rule id, unwrapped
 * even when it is longer (the terminal wraps it): a finding never takes more than two lines. A
 * CEL error's snippet and caret lines (`more`) are never wrapped: the caret points at a column.
 */
function messageBlock(finding: Finding, max: number | undefined): { first: string; second: string | undefined; more: string[] } {
  const [message = '', ...more] = messageLines(finding.message);
  if (max === undefined || textWidth(message) + 2 + finding.ruleId.length <= max) return { first: message, second: undefined, more };
  const [head = '', ...rest] = wrapWords(message, max);
  return { first: head, second: rest.join(' '), more };
}

/** The most edits shown of one fix, and the most characters of the text one edit removes or writes. */
const SHOWN_EDITS = 3;
const SHOWN_TEXT = 100;

/** Text of an edit on one line: its lines joined with `, `, whitespace runs as one space, long text cut with `…`. */
function oneLine(text: string): string {
  const flat = safeText(text.trim().split(/\s*\n\s*/).join(', ').replace(/\s+/g, ' '));
  return flat.length > SHOWN_TEXT ? `${flat.slice(0, SHOWN_TEXT - 1)}…` : flat;
}

/** A fix's edits in short: `line 8: + failurePolicy: Fail; + matchPolicy: Equivalent`, `line 1: old → new`, `line 12: - "pods/x"`. */
function shortEdits(fix: FindingFix): string {
  const shown = fix.edits.slice(0, SHOWN_EDITS).map((edit, index) => {
    const change = edit.replaced === '' ? `+ ${oneLine(edit.text)}` : edit.text.trim() === '' ? `- ${oneLine(edit.replaced)}` : `${oneLine(edit.replaced)} → ${oneLine(edit.text)}`;
    // The line is named once for edits in a row on one line.
    return index > 0 && fix.edits[index - 1]!.start.line === edit.start.line ? change : `line ${edit.start.line}: ${change}`;
  });
  const more = fix.edits.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more ${more === 1 ? 'edit' : 'edits'}` : ''}`;
}

/**
 * What `--show-fixes` prints under a finding: each of its own fixes and suggestions (what it does,
 * then its edit in short, one line), else the rule's help.
 */
function remedies(finding: Finding, fixes: FixesOf | undefined): string[][] {
  const own = fixes?.(finding) ?? [];
  if (own.length === 0) return finding.help ? [[`fix: ${safeText(finding.help)}`]] : [];
  return own.map((fix) => [`${fix.kind === 'fix' ? 'fix (--fix applies it)' : 'suggestion'}: ${safeText(fix.description)}`, shortEdits(fix)]);
}

/**
 * Findings grouped by file, one line each, as ESLint's stylish prints them: for people at a
 * terminal (and CI logs: values from the input go through safeText, the whole output through
 * guardText). On a terminal (options.width), a long message wraps once under the message column,
 * so the location and severity columns stay clear: at most two lines a finding. Elsewhere each
 * finding is one line. The fix follows with `showFixes` (wrapped the same way): the finding's
 * own fixes and suggestions with their edits when it has some, else the rule's help; by default
 * the summary says how to see it.
 */
export function formatStylish(report: Report, chalk: ChalkInstance, options: StylishOptions = {}): string {
  const lines: string[] = [];
  const byFile = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const list = byFile.get(finding.file) ?? [];
    list.push(finding);
    byFile.set(finding.file, list);
  }
  for (const [file, findings] of byFile) {
    // A template of `helm template` output: its positions are lines of the rendered stream.
    const rendered = findings.find((f) => f.rendered !== undefined)?.rendered;
    lines.push(rendered ? `${chalk.underline(safeText(file))} ${chalk.dim(`(lines of the rendered ${safeText(rendered.file)})`)}` : chalk.underline(safeText(file)));
    const width = findings.reduce((max, f) => Math.max(max, `${f.line}:${f.column}`.length), 0);
    const indent = `  ${' '.repeat(width)}  ${' '.repeat(7)}  `;
    const max = options.width === undefined ? undefined : Math.max(options.width - indent.length, MIN_TEXT_WIDTH);
    for (const f of findings) {
      const where = `${f.line}:${f.column}`.padEnd(width);
      // CEL errors carry the expression and a caret line, as the API server prints them.
      const { first, second, more } = messageBlock(f, max);
      const rule = chalk.dim(f.ruleId);
      const head = `  ${chalk.dim(where)}  ${paint(chalk, f.severity, f.severity.padEnd(7))}  `;
      if (second === undefined) lines.push(`${head}${first}  ${rule}`);
      else {
        // The second line goes under the message; when it is too long there but fits from a
        // four-column hang, it starts there, rather than being broken by the terminal at column 0.
        const rest = `${second === '' ? '' : `${second}  `}${f.ruleId}`;
        const under = options.width === undefined || indent.length + textWidth(rest) <= options.width || HANG.length + textWidth(rest) > options.width;
        lines.push(`${head}${first}`, `${under ? indent : HANG}${second === '' ? '' : `${second}  `}${rule}`);
      }
      for (const line of more) lines.push(`${indent}${line}`);
      if (options.showFixes === true) {
        // What it does, then its edit, each wrapped under its first word.
        for (const remedy of remedies(f, options.fixes)) {
          const fixLines = remedy.flatMap((text) => (max === undefined ? [text] : wrapWords(text, max - 5))).map((line, index) => (index === 0 ? line : `     ${line}`));
          for (const line of fixLines) lines.push(`${indent}${chalk.dim(line)}`);
        }
      }
    }
    lines.push('');
  }
  // The summary wraps too on a terminal (its scope and notes run long), continued under its text.
  const summary = summaryLine(report, chalk, options.hidden);
  if (options.width === undefined) lines.push(summary);
  else lines.push(...wrapWords(summary, Math.max(options.width, MIN_TEXT_WIDTH) - 2).map((line, index) => (index === 0 ? line : `  ${line}`)));
  if (options.showFixes !== true && report.findings.some((f) => f.help)) {
    lines.push(chalk.dim('fixes: --show-fixes; why, and a correct example: admission-lint explain <rule-id>'));
  }
  const gate = describeGate(report);
  if (gate !== undefined) lines.push(chalk.yellow(`! ${safeText(gate)}`));
  return guardText(`${lines.join('\n')}\n`);
}

/**
 * The counts, and what -q and --baseline hid. A run whose shown findings are all below
 * --fail-on but whose hidden ones are not exits 1: then the line has no ✔ and says why.
 */
function summaryLine(report: Report, chalk: ChalkInstance, hidden: HiddenFindings | undefined): string {
  const { summary } = report;
  const scope = `${plural(summary.files, 'file')}, ${plural(summary.documents, 'document')}: ${plural(summary.objects, 'admission object')} linted, ${plural(summary.namespaces, 'Namespace')} read, ${summary.workloads ? `${plural(summary.workloads, 'workload')} checked for Pod Security, ` : ''}${plural(summary.skipped, 'other document')} skipped`;
  const hiddenParts = describeHidden(hidden);
  const note = hiddenParts.length > 0 ? `; ${hiddenParts.join('; ')}` : '';
  const total = summary.errors + summary.warnings + summary.infos;
  if (total === 0) {
    const failing = hiddenFailure(hidden);
    if (failing !== undefined) return `${paint(chalk, failing, failing === 'warning' ? '⚠' : 'ℹ')} no problems shown (${scope})${note}`;
    return hiddenParts.length > 0 ? `${chalk.green('✔')} no problems shown (${scope})${note}` : `${chalk.green('✔')} no problems (${scope})`;
  }
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${plural(summary.infos, 'info', 'infos')}`;
  const mark = summary.errors > 0 ? chalk.red('✖') : summary.warnings > 0 ? chalk.yellow('⚠') : chalk.blue('ℹ');
  return `${mark} ${plural(total, 'problem')} (${counts}) in ${scope}${note}`;
}
