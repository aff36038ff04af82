/** `simulate --format markdown`: for PR comments. Tables, and a Mermaid sequenceDiagram of the path. */
import { describeNamespaceLabels, describeObjectLabels, describeRequest, EXIT_NOTE, kubeVersionText } from './describe.js';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, dryRunFailures, failureTable, worstCaseLatency } from './failures.js';
import { sequenceDiagram } from './mermaid.js';
import type { AdmissionPath, PathEntry } from './path.js';

/** A table cell: pipes escaped, no line breaks. */
export function cell(text: string | number | null): string {
  return String(text ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function calledText(entry: PathEntry): string {
  if (!entry.called) return 'no';
  const how = entry.detail.equivalent !== undefined ? ` (as ${entry.detail.equivalent}, matchPolicy Equivalent)` : '';
  return `${entry.reason?.startsWith('depends on') ? 'if its matchConditions hold' : 'yes'}${how}`;
}

function table(entries: readonly PathEntry[], phase: 'mutating' | 'validating' | 'policy'): string[] {
  if (entries.length === 0) return ['None in the run.'];
  const head = phase === 'policy' ? ['#', 'policy', 'binding', 'called', 'failurePolicy', 'validationActions', 'reason'] : ['#', 'configuration', 'webhook', 'called', 'failurePolicy', 'timeout', ...(phase === 'mutating' ? ['may be re-invoked'] : []), 'reason'];
  const rows = entries.map((entry, i) => {
    const n = entry.called ? String(i + 1) : '–';
    if (phase === 'policy') return [n, code(entry.configuration), entry.webhook === null ? '–' : code(entry.webhook), calledText(entry), entry.failurePolicy, (entry.detail.validationActions ?? []).join(', '), entry.reason ?? ''];
    return [n, code(entry.configuration), code(entry.webhook ?? ''), calledText(entry), entry.failurePolicy, `${entry.timeoutSeconds}s`, ...(phase === 'mutating' ? [entry.reinvoked ? 'yes' : 'no'] : []), entry.reason ?? ''];
  });
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
}

export function formatMarkdown(path: AdmissionPath): string {
  const lines: string[] = [`## Admission path: ${describeRequest(path)}`, '', `Kubernetes ${kubeVersionText(path)}.`];
  const nsLabels = describeNamespaceLabels(path);
  if (nsLabels !== null) lines.push(`Namespace labels: ${nsLabels}.`);
  const objectLabels = describeObjectLabels(path);
  if (objectLabels !== null) lines.push(`Object labels: ${objectLabels}.`);
  for (const name of path.notDecodable) lines.push(`Not simulated (fields of the wrong type; run lint): ${name}.`);
  for (const name of path.replaced) lines.push(`Not simulated, a later object of the same kind and name replaces it: ${name}.`);
  lines.push('', '```mermaid', sequenceDiagram(path).trimEnd(), '```');
  lines.push('', '### Mutating webhooks (one after another, in this order)', '', ...table(path.mutating, 'mutating'));
  lines.push('', '### Validating webhooks (in parallel)', '', ...table(path.validating, 'validating'));
  lines.push('', '### Validating admission policies', '', ...table(path.policies, 'policy'));
  const rows = failureTable(path);
  lines.push('', '### If a called webhook or policy fails', '');
  if (rows.length === 0) lines.push('Nothing is called: no webhook or policy can delay or reject this request.');
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
    for (const failure of failures) lines.push(`- ${code(`${failure.entry.configuration} / ${failure.entry.webhook ?? ''}`)} (${failure.phase}): ${failure.outcome}`);
  }
  lines.push('', `<sub>${EXIT_NOTE}</sub>`);
  return `${lines.join('\n')}\n`;
}
