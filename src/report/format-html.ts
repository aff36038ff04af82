/**
 * `report --format html`: one self-contained page for a CI artifact. Inline CSS only, no
 * scripts, no network assets: it reads the same with JavaScript off.
 */
import { guardMarkup, safeMarkupText } from '../format/escape.js';
import type { BlastRadiusReport } from './build.js';
import { MARK_LEGEND, MARK_TEXT, markText, matrixColumns, notInMatrix, podSecurityHeading, propertyRows, rejectedText, webhookTitle } from './describe.js';
import { modesText } from './pod-security.js';

/** Text and attribute values: control characters as visible escapes (escape.ts), CR as a line break. */
export function escapeHtml(text: string): string {
  return safeMarkupText(text)
    .replace(/\r\n?/g, '\n')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1b1f24; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; } h3 { font-size: 1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #c8ccd1; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f1f3f5; }
td.blocks { background: #ffd7d5; font-weight: 600; } td.can-deny { background: #fff1c2; } td.depends { background: #e7eefc; } td.exempt { color: #6a737d; }
.error { color: #b31d28; } .warning { color: #9a6700; } .info { color: #0550ae; }
code { font: 12px ui-monospace, monospace; }
`;

export function formatHtml(report: BlastRadiusReport): string {
  const out: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
    `<title>admission-lint blast radius (Kubernetes ${escapeHtml(report.kubeVersion)})</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>Blast radius of ${report.webhooks.length} webhook${report.webhooks.length === 1 ? '' : 's'} (Kubernetes ${escapeHtml(report.kubeVersion)})</h1>`,
  ];
  for (const name of report.notDecodable) out.push(`<p>Not reported (fields of the wrong type; run lint): ${escapeHtml(name)}</p>`);
  out.push('<h2 id="critical">Critical resources × webhooks</h2>');
  const columns = matrixColumns(report);
  if (report.webhooks.length === 0) out.push('<p>No webhooks in the run.</p>');
  else if (columns.length === 0) out.push('<p>No webhook in the run intercepts any of them.</p>');
  else {
    out.push('<table id="critical-matrix"><thead><tr><th>resource (what breaks)</th>');
    for (const { webhook, index } of columns) out.push(`<th scope="col"><a href="#webhook-${index + 1}">${escapeHtml(`${webhook.configuration} / ${webhook.webhook}`)}</a></th>`);
    out.push('</tr></thead><tbody>');
    report.critical.targets.forEach((target, index) => {
      out.push(`<tr><th scope="row">${escapeHtml(target.label)} <small>(${escapeHtml(target.why)})</small></th>`);
      for (const { webhook } of columns) {
        const cell = webhook.critical[index]!;
        out.push(`<td class="${cell.mark}">${escapeHtml(markText(cell))}</td>`);
      }
      out.push('</tr>');
    });
    out.push('</tbody></table>');
    const rest = notInMatrix(report);
    if (rest !== null) out.push(`<p id="not-in-matrix">${escapeHtml(rest)}.</p>`);
    out.push(`<ul>${MARK_LEGEND.map(([mark, text]) => `<li><strong>${escapeHtml(MARK_TEXT[mark])}</strong>: ${escapeHtml(text)}</li>`).join('')}</ul>`);
  }
  out.push('<h2 id="webhooks">Webhooks</h2>');
  report.webhooks.forEach((webhook, i) => {
    out.push(`<h3 id="webhook-${i + 1}">${escapeHtml(webhookTitle(webhook))}</h3>`, '<table class="webhook"><tbody>');
    for (const [name, value] of propertyRows(webhook)) out.push(`<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`);
    const findings = [...webhook.findings, ...(report.configurationFindings[`${webhook.kind}/${webhook.configuration}`] ?? [])];
    out.push(
      `<tr><th scope="row">findings</th><td>${
        findings.length === 0 ? 'none' : `<ul>${findings.map((f) => `<li><span class="${escapeHtml(f.severity)}">${escapeHtml(f.severity)}</span> <code>${escapeHtml(f.ruleId)}</code>: ${escapeHtml(f.message)} <small>(${escapeHtml(`${f.file}:${f.line}`)})</small></li>`).join('')}</ul>`
      }</td></tr>`,
      '</tbody></table>',
    );
  });
  const psa = report.podSecurity;
  out.push('<h2 id="pod-security">Pod Security per namespace</h2>', `<p>${escapeHtml(podSecurityHeading(psa))}</p>`);
  if (psa.enabled && psa.namespaces.length > 0) {
    out.push('<table id="pod-security-namespaces"><thead><tr><th>namespace</th><th>Namespace manifest</th><th>levels</th><th>rejected by enforce</th></tr></thead><tbody>');
    for (const row of psa.namespaces) {
      const rejected = row.rejected.length === 0 ? 'none' : `<ul>${row.rejected.map((workload) => `<li>${escapeHtml(rejectedText(workload))}</li>`).join('')}</ul>`;
      out.push(`<tr><th scope="row">${escapeHtml(row.name)}</th><td>${escapeHtml(row.file ?? '(none: the defaults)')}</td><td>${escapeHtml(row.exempt ? 'exempt' : modesText(row))}</td><td>${rejected}</td></tr>`);
    }
    out.push('</tbody></table>');
  } else if (psa.enabled) out.push('<p>No Namespace manifests or workloads in the run.</p>');
  out.push('</body></html>');
  // A message with a line break starts a line with input text: no workflow command (escape.ts).
  return guardMarkup(`${out.join('\n')}\n`);
}
