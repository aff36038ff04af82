/** `report --format markdown`: one table per webhook, then the critical-resources matrix. */
import type { BlastRadiusReport } from './build.js';
import { MARK_LEGEND, MARK_TEXT, markText, propertyRows, webhookTitle } from './describe.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function formatMarkdown(report: BlastRadiusReport): string {
  const lines: string[] = [`## Blast radius (Kubernetes ${report.kubeVersion})`, ''];
  for (const name of report.notDecodable) lines.push(`Not reported (fields of the wrong type; run lint): ${name}.`, '');
  for (const webhook of report.webhooks) {
    lines.push(`### ${cell(webhookTitle(webhook))}`, '', '| | |', '|---|---|');
    for (const [name, value] of propertyRows(webhook)) lines.push(`| ${cell(name)} | ${cell(value)} |`);
    const findings = [...webhook.findings, ...(report.configurationFindings[`${webhook.kind}/${webhook.configuration}`] ?? [])];
    lines.push(`| findings | ${findings.length === 0 ? 'none' : findings.map((f) => cell(`${f.severity} ${f.ruleId}: ${f.message} (${f.file}:${f.line})`)).join('<br>')} |`, '');
  }
  lines.push('### Critical resources × webhooks', '');
  if (report.webhooks.length === 0) lines.push('No webhooks in the run.');
  else {
    lines.push(`| resource (what breaks) | ${report.webhooks.map((webhook) => cell(`${webhook.configuration} / ${webhook.webhook}`)).join(' | ')} |`);
    lines.push(`|---|${report.webhooks.map(() => '---').join('|')}|`);
    report.critical.targets.forEach((target, index) => {
      lines.push(`| ${cell(`${target.label} (${target.why})`)} | ${report.webhooks.map((webhook) => cell(markText(webhook.critical[index]!))).join(' | ')} |`);
    });
  }
  lines.push('', ...MARK_LEGEND.map(([mark, text]) => `- **${MARK_TEXT[mark]}**: ${text}`));
  return `${lines.join('\n')}\n`;
}
