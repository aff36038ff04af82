/** `report` as text. Names, selectors and findings come from the input: safeText each, guardText the whole. */
import { guardText, safeText } from '../format/escape.js';
import type { BlastRadiusReport } from './build.js';
import { MARK_LEGEND, MARK_TEXT, markText, namespaceRowText, podSecurityHeading, propertyRows, rejectedText, webhookTitle } from './describe.js';

export function formatText(report: BlastRadiusReport): string {
  const lines: string[] = [`Blast radius of ${report.webhooks.length} webhook${report.webhooks.length === 1 ? '' : 's'} (Kubernetes ${report.kubeVersion})`];
  for (const name of report.notDecodable) lines.push(`  not reported (fields of the wrong type; run lint): ${safeText(name)}`);
  for (const webhook of report.webhooks) {
    lines.push('', safeText(webhookTitle(webhook)));
    const rows = propertyRows(webhook);
    const width = rows.reduce((max, [name]) => Math.max(max, name.length), 0);
    for (const [name, value] of rows) lines.push(`  ${name.padEnd(width)}  ${safeText(value)}`);
    const findings = [...webhook.findings, ...(report.configurationFindings[`${webhook.kind}/${webhook.configuration}`] ?? [])];
    lines.push(findings.length === 0 ? `  ${'findings'.padEnd(width)}  none` : '  findings');
    for (const finding of findings) lines.push(`    ${finding.severity} ${finding.ruleId} (${safeText(finding.file)}:${finding.line}): ${safeText(finding.message)}`);
  }
  lines.push('', 'Critical resources × webhooks (who can block what the control plane needs):');
  const blocking = report.critical.targets.map((target, index) => ({
    target,
    hooks: report.webhooks.filter((webhook) => webhook.critical[index]!.mark !== 'none').map((webhook) => safeText(`${webhook.configuration}/${webhook.webhook}: ${markText(webhook.critical[index]!)}`)),
  }));
  for (const { target, hooks } of blocking) {
    lines.push(`  ${target.label} (${target.why})${hooks.length === 0 ? ': no webhook' : ':'}`);
    for (const hook of hooks) lines.push(`    ${hook}`);
  }
  lines.push('', ...MARK_LEGEND.map(([mark, text]) => `  ${MARK_TEXT[mark]}: ${text}`));
  const psa = report.podSecurity;
  lines.push('', `Pod Security per namespace (${safeText(podSecurityHeading(psa))}):`);
  if (psa.enabled && psa.namespaces.length === 0) lines.push('  no Namespace manifests or workloads in the run');
  for (const row of psa.enabled ? psa.namespaces : []) {
    lines.push(`  ${safeText(namespaceRowText(row))}`);
    for (const workload of row.rejected) lines.push(`    rejected by enforce: ${safeText(rejectedText(workload))}`);
  }
  return guardText(`${lines.join('\n')}\n`);
}
