/**
 * `simulate --format markdown`: for PR comments. Tables, and a Mermaid sequenceDiagram of the path.
 * Values from the input are escaped as lint's Markdown escapes them (escape.ts): names in code
 * spans, reasons and labels as cells, so none can add HTML, mention anyone or make a link.
 */
import { codeSpan, escapeCell, guardMarkup } from '../format/escape.js';
import { describeNamespaceLabels, describeObject, describeObjectLabels, describeRequest, EXIT_NOTE, kubeVersionText, nothingCalledText, POD_SECURITY_TITLE, podSecurityLines, rejectedByPodSecurity, validationText } from './describe.js';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, dryRunFailures, failureTable, worstCaseLatency } from './failures.js';
import { sequenceDiagram } from './mermaid.js';
import type { AdmissionPath, PathEntry } from './path.js';

/** A table cell: escaped as lint's Markdown cells are. */
export function cell(text: string | number | null): string {
  return escapeCell(String(text ?? ''));
}

const code = codeSpan;

function calledText(entry: PathEntry): string {
  if (!entry.called) return 'no';
  const how = entry.detail.equivalent !== undefined ? ` (as ${entry.detail.equivalent}, matchPolicy Equivalent)` : '';
  return `${entry.reason?.startsWith('depends on') ? 'if its matchConditions hold' : 'yes'}${how}`;
}

function table(entries: readonly PathEntry[], phase: 'mutating' | 'validating' | 'policy'): string[] {
  if (entries.length === 0) return ['None in the run.'];
  const head = phase === 'policy' ? ['#', 'policy', 'binding', 'called', 'failurePolicy', 'validationActions', 'reason'] : ['#', 'configuration', 'webhook', 'called', 'failurePolicy', 'timeout', ...(phase === 'mutating' ? ['may be re-invoked'] : []), 'reason'];
  // Each cell escaped once: names as code spans, the rest as text cells.
  const rows = entries.map((entry, i) => {
    const n = entry.called ? String(i + 1) : '–';
    if (phase === 'policy') return [n, code(entry.configuration), entry.webhook === null ? '–' : code(entry.webhook), cell(calledText(entry)), cell(entry.failurePolicy), cell((entry.detail.validationActions ?? []).join(', ')), cell([entry.reason, validationText(entry)].filter((text) => text !== null).join('; '))];
    return [n, code(entry.configuration), code(entry.webhook ?? ''), cell(calledText(entry)), cell(entry.failurePolicy), `${entry.timeoutSeconds}s`, ...(phase === 'mutating' ? [entry.reinvoked ? 'yes' : 'no'] : []), cell(entry.reason)];
  });
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

export function formatMarkdown(path: AdmissionPath): string {
  const lines: string[] = [`## Admission path: ${cell(describeRequest(path))}`, '', `Kubernetes ${kubeVersionText(path)}.`];
  const nsLabels = describeNamespaceLabels(path);
  if (nsLabels !== null) lines.push(`Namespace labels: ${cell(nsLabels)}.`);
  const object = describeObject(path);
  if (object !== null) lines.push(`Object: ${cell(object)}.`);
  const objectLabels = describeObjectLabels(path);
  if (objectLabels !== null) lines.push(`Object labels: ${cell(objectLabels)}.`);
  for (const name of path.notDecodable) lines.push(`Not simulated (fields of the wrong type; run lint): ${cell(name)}.`);
  for (const name of path.replaced) lines.push(`Not simulated, a later object of the same kind and name replaces it: ${cell(name)}.`);
  lines.push('', '```mermaid', sequenceDiagram(path).trimEnd(), '```');
  lines.push('', '### Mutating webhooks (one after another, in this order)', '', ...table(path.mutating, 'mutating'));
  if (path.podSecurity !== null) lines.push('', `### ${POD_SECURITY_TITLE}`, '', ...podSecurityLines(path).map((line) => `- ${cell(line)}`));
  const stopped = rejectedByPodSecurity(path) ? ' — not reached: PodSecurity rejects the request' : '';
  lines.push('', `### Validating webhooks (in parallel)${stopped}`, '', ...table(path.validating, 'validating'));
  lines.push('', `### Validating admission policies${stopped}`, '', ...table(path.policies, 'policy'));
  const rows = failureTable(path);
  lines.push('', '### If a called webhook or policy fails', '');
  if (rows.length === 0) {
    const text = nothingCalledText(path);
    lines.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
  }
  else {
    lines.push('| webhook or policy | phase | times out or unreachable (policy: an expression errors) | denies | a matchCondition errors |', '|---|---|---|---|---|');
    for (const row of rows) lines.push(`| ${cell(`${row.entry.configuration} / ${row.entry.webhook ?? ''}`)} | ${row.phase} | ${cell(row.ifUnavailable)} | ${cell(row.ifDenies)} | ${cell(row.ifConditionErrors ?? '–')} |`);
  }
  const latency = worstCaseLatency(path);
  lines.push('', `**Worst-case latency: ${latency.totalSeconds}s** (mutating webhooks in sequence ${latency.mutatingSeconds}s + slowest validating webhook ${latency.validatingSeconds}s).${latency.totalSeconds > DEFAULT_REQUEST_TIMEOUT_SECONDS ? ` That is above the API server's default request timeout (${DEFAULT_REQUEST_TIMEOUT_SECONDS}s, \`--request-timeout\`): the request would time out first.` : ''}`);
  if (path.request.dryRun) {
    const failures = dryRunFailures(path);
    lines.push('', '### Dry run', '');
    if (failures.length === 0) lines.push('Every called webhook declares sideEffects None or NoneOnDryRun: the dry run is not rejected for side effects.');
    for (const failure of failures) lines.push(`- ${code(`${failure.entry.configuration} / ${failure.entry.webhook ?? ''}`)} (${failure.phase}): ${cell(failure.outcome)}`);
  }
  lines.push('', `<sub>${EXIT_NOTE}</sub>`);
  return guardMarkup(`${lines.join('\n')}\n`);
}
