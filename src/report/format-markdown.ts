/**
 * `report --format markdown`: one table per webhook, then the critical-resources matrix. Every
 * value is escaped as lint's Markdown cells are (escape.ts): no HTML, mention or link from the input.
 */
import { escapeCell as cell, guardMarkup } from '../format/escape.js';
import type { BlastRadiusReport } from './build.js';
import { MARK_LEGEND, MARK_TEXT, markText, matrixColumns, notInMatrix, podSecurityHeading, propertyRows, rejectedText, webhookTitle } from './describe.js';
import { modesText } from './pod-security.js';

export function formatMarkdown(report: BlastRadiusReport): string {
  const lines: string[] = [`## Blast radius (Kubernetes ${report.kubeVersion})`, ''];
  for (const name of report.notDecodable) lines.push(`Not reported (fields of the wrong type; run lint): ${cell(name)}.`, '');
  for (const webhook of report.webhooks) {
    lines.push(`### ${cell(webhookTitle(webhook))}`, '', '| | |', '|---|---|');
    for (const [name, value] of propertyRows(webhook)) lines.push(`| ${cell(name)} | ${cell(value)} |`);
    const findings = [...webhook.findings, ...(report.configurationFindings[`${webhook.kind}/${webhook.configuration}`] ?? [])];
    lines.push(`| findings | ${findings.length === 0 ? 'none' : findings.map((f) => cell(`${f.severity} ${f.ruleId}: ${f.message} (${f.file}:${f.line})`)).join('<br>')} |`, '');
  }
  lines.push('### Critical resources × webhooks', '');
  const columns = matrixColumns(report);
  if (report.webhooks.length === 0) lines.push('No webhooks in the run.');
  else if (columns.length === 0) lines.push('No webhook in the run intercepts any of them.');
  else {
    lines.push(`| resource (what breaks) | ${columns.map(({ webhook }) => cell(`${webhook.configuration} / ${webhook.webhook}`)).join(' | ')} |`);
    lines.push(`|---|${columns.map(() => '---').join('|')}|`);
    report.critical.targets.forEach((target, index) => {
      lines.push(`| ${cell(`${target.label} (${target.why})`)} | ${columns.map(({ webhook }) => cell(markText(webhook.critical[index]!))).join(' | ')} |`);
    });
  }
  const rest = notInMatrix(report);
  if (rest !== null && columns.length > 0) lines.push('', `${cell(rest)}.`);
  lines.push('', ...MARK_LEGEND.map(([mark, text]) => `- **${MARK_TEXT[mark]}**: ${text}`));
  const psa = report.podSecurity;
  lines.push('', '### Pod Security per namespace', '', `${cell(podSecurityHeading(psa))}.`);
  if (psa.enabled && psa.namespaces.length > 0) {
    lines.push('', '| namespace | Namespace manifest | levels | rejected by enforce |', '|---|---|---|---|');
    for (const row of psa.namespaces) {
      const rejected = row.rejected.length === 0 ? 'none' : row.rejected.map((workload) => cell(rejectedText(workload))).join('<br>');
      lines.push(`| ${cell(row.name)} | ${cell(row.file ?? '(none: the defaults)')} | ${cell(row.exempt ? 'exempt' : modesText(row))} | ${rejected} |`);
    }
  } else if (psa.enabled) lines.push('', 'No Namespace manifests or workloads in the run.');
  return guardMarkup(`${lines.join('\n')}\n`);
}
