import type { ChalkInstance } from 'chalk';
import { describeGate } from './gate.js';
import type { Finding, Report } from '../engine/finding.js';
import type { Severity } from '../rule.js';
import { guardText, messageLines, safeText } from './escape.js';

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

function paint(chalk: ChalkInstance, severity: Severity, text: string): string {
  if (severity === 'error') return chalk.red(text);
  if (severity === 'warning') return chalk.yellow(text);
  return chalk.blue(text);
}

/**
 * Findings grouped by file, one line each with its fix below: for people at a terminal (and CI
 * logs: values from the input go through safeText, the whole output through guardText).
 */
export function formatStylish(report: Report, chalk: ChalkInstance): string {
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
    for (const f of findings) {
      const where = `${f.line}:${f.column}`.padEnd(width);
      const indent = `  ${' '.repeat(width)}  ${' '.repeat(7)}  `;
      // CEL errors carry the expression and a caret line, as the API server prints them.
      const [first, ...more] = messageLines(f.message);
      lines.push(`  ${chalk.dim(where)}  ${paint(chalk, f.severity, f.severity.padEnd(7))}  ${first}  ${chalk.dim(f.ruleId)}`);
      for (const line of more) lines.push(`${indent}${line}`);
      if (f.help) lines.push(`${indent}${chalk.dim(`fix: ${safeText(f.help)}`)}`);
    }
    lines.push('');
  }
  const { summary } = report;
  const scope = `${plural(summary.files, 'file')}, ${plural(summary.documents, 'document')}: ${plural(summary.objects, 'admission object')} linted, ${plural(summary.namespaces, 'Namespace')} read, ${plural(summary.skipped, 'other document')} skipped`;
  const total = summary.errors + summary.warnings + summary.infos;
  if (total === 0) {
    lines.push(`${chalk.green('✔')} no problems (${scope})`);
  } else {
    const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${plural(summary.infos, 'info', 'infos')}`;
    const mark = summary.errors > 0 ? chalk.red('✖') : summary.warnings > 0 ? chalk.yellow('⚠') : chalk.blue('ℹ');
    lines.push(`${mark} ${plural(total, 'problem')} (${counts}) in ${scope}`);
  }
  const gate = describeGate(report);
  if (gate !== undefined) lines.push(chalk.yellow(`! ${safeText(gate)}`));
  return guardText(`${lines.join('\n')}\n`);
}
