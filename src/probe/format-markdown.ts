/**
 * `probe --format markdown`: for PR comments and job summaries. Values from the input and the
 * webhook's answer escaped as table cells or code spans (src/format/escape.ts).
 */
import { codeSpan, escapeCell, guardMarkup } from '../format/escape.js';
import { describeProbeRequest, describeSettings, describeUser, expectationText, repeatLines, targetLines, VERDICT_TITLES } from './describe.js';
import type { ProbeReport } from './probe.js';

export function formatMarkdown(report: ProbeReport): string {
  const { webhook } = report;
  const lines: string[] = [
    `## Probe of ${codeSpan(webhook.name)}: ${VERDICT_TITLES[report.verdict.kind]}`,
    '',
    `${webhook.mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration'} ${codeSpan(webhook.configuration)} (${escapeCell(webhook.file)}); ${escapeCell(describeSettings(report))}.`,
    '',
    `Request: ${escapeCell(describeProbeRequest(report))}, user ${escapeCell(describeUser(report))}.`,
    ...targetLines(report).map((line) => `${escapeCell(line)}.`),
    '',
    '| check | status | result |',
    '|---|---|---|',
    ...report.checks.map((check) => `| ${check.id} | ${check.status} | ${escapeCell(check.message)} |`),
  ];
  if (report.patch.length > 0) lines.push('', 'Patch:', '', ...report.patch.map((op) => `- ${codeSpan(op)}`));
  const repeats = repeatLines(report);
  if (repeats.length > 0) lines.push('', 'Repeated calls:', '', ...repeats.map((line) => `- ${escapeCell(line)}`));
  lines.push('', `**Verdict** (failurePolicy ${escapeCell(webhook.failurePolicy)}): ${VERDICT_TITLES[report.verdict.kind]}: ${escapeCell(report.verdict.message)}`);
  const expectation = expectationText(report);
  if (expectation !== null) lines.push('', escapeCell(expectation));
  return guardMarkup(`${lines.join('\n')}\n`);
}
