/**
 * `probe --format stylish`: the webhook, the request and where it went, one line per check,
 * the patch and the object after it, the verdict. Values from the input and from the webhook's
 * answer are safeText each, the whole guardText.
 */
import { guardText, safeText } from '../format/escape.js';
import { describeProbeRequest, describeSettings, describeUser, describeWebhook, expectationText, repeatLines, targetLines, VERDICT_TITLES } from './describe.js';
import type { ProbeReport } from './probe.js';

const WIDTH = Math.max(...['ok', 'info', 'warning', 'error', 'skipped'].map((s) => s.length));

export function formatText(report: ProbeReport): string {
  const lines: string[] = [`Probe of webhook ${safeText(describeWebhook(report))}`];
  lines.push(`  ${safeText(describeSettings(report))}`);
  lines.push(`  request: ${safeText(describeProbeRequest(report))}, user ${safeText(describeUser(report))}`);
  for (const line of targetLines(report)) lines.push(`  ${safeText(line)}`);
  lines.push('');
  const idWidth = Math.max(0, ...report.checks.map((check) => check.id.length));
  for (const check of report.checks) lines.push(`  ${check.status.padEnd(WIDTH)}  ${check.id.padEnd(idWidth)}  ${safeText(check.message)}`);
  if (report.patch.length > 0) {
    lines.push('', 'Patch:');
    for (const op of report.patch) lines.push(`  ${safeText(op)}`);
  }
  if (report.objectAfter !== null) {
    lines.push('', 'Object after the patch:');
    for (const line of JSON.stringify(report.objectAfter, null, 2).split('\n')) lines.push(`  ${safeText(line)}`);
  }
  const repeats = repeatLines(report);
  if (repeats.length > 0) {
    lines.push('', 'Repeated calls:');
    for (const line of repeats) lines.push(`  ${safeText(line)}`);
  }
  lines.push('', `Verdict (failurePolicy ${safeText(report.webhook.failurePolicy)}): ${VERDICT_TITLES[report.verdict.kind]}`, `  ${safeText(report.verdict.message)}`);
  const expectation = expectationText(report);
  if (expectation !== null) lines.push(`  ${expectation}`);
  const errors = report.checks.filter((check) => check.status === 'error').length;
  if (errors > 0) lines.push(`  ${errors} ${errors === 1 ? 'check' : 'checks'} failed`);
  return guardText(`${lines.join('\n')}\n`);
}
