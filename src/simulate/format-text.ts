/**
 * `simulate` as text: the path, the webhooks not called and why, the failure table, the latency.
 * Names, labels and reasons (which quote them) come from the input: safeText each, guardText the whole.
 */
import { guardText, safeText } from '../format/escape.js';
import { describeNamespaceLabels, describeObject, describeObjectLabels, describeRequest, hookName, kubeVersionText, nothingCalledText, POD_SECURITY_TITLE, podSecurityLines, rejectedByPodSecurity, settings, validationText } from './describe.js';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, dryRunFailures, failureTable, worstCaseLatency } from './failures.js';
import type { AdmissionPath, PathEntry } from './path.js';

function section(lines: string[], title: string, entries: readonly PathEntry[], phase: 'mutating' | 'validating' | 'policy', order: string): void {
  lines.push('', `${title} (${order}):`);
  const called = entries.filter((entry) => entry.called);
  const skipped = entries.filter((entry) => !entry.called);
  if (entries.length === 0) {
    lines.push('  none in the run');
    return;
  }
  if (called.length === 0) lines.push('  none called');
  called.forEach((entry, i) => {
    lines.push(`  ${phase === 'mutating' ? `${i + 1}. ` : '- '}${safeText(hookName(entry))}  [${safeText(settings(entry, phase))}]`);
    if (entry.reason !== null) lines.push(`     ${safeText(entry.reason)}`);
    if (entry.detail.equivalent !== undefined) lines.push(`     matched through ${safeText(entry.detail.equivalent)} (matchPolicy Equivalent): it receives the object converted to that version`);
    const validation = validationText(entry);
    if (validation !== null) lines.push(`     ${safeText(validation)}`);
  });
  if (skipped.length > 0) {
    lines.push('  not called:');
    for (const entry of skipped) lines.push(`  - ${safeText(hookName(entry))}: ${safeText(entry.reason ?? '')}`);
  }
}

export function formatText(path: AdmissionPath): string {
  const lines: string[] = [`Request: ${safeText(describeRequest(path))} (Kubernetes ${kubeVersionText(path)})`];
  const nsLabels = describeNamespaceLabels(path);
  if (nsLabels !== null) lines.push(`  namespace labels: ${safeText(nsLabels)}`);
  const object = describeObject(path);
  if (object !== null) lines.push(`  object: ${safeText(object)}`);
  const objectLabels = describeObjectLabels(path);
  if (objectLabels !== null) lines.push(`  object labels: ${safeText(objectLabels)}`);
  for (const name of path.notDecodable) lines.push(`  not simulated (fields of the wrong type; run lint): ${safeText(name)}`);
  for (const name of path.replaced) lines.push(`  not simulated, a later object of the same kind and name replaces it: ${safeText(name)}`);
  section(lines, 'Mutating webhooks', path.mutating, 'mutating', 'one after another, in this order; IfNeeded ones may be called again in a second round');
  if (path.podSecurity !== null) {
    lines.push('', `${POD_SECURITY_TITLE}:`);
    for (const line of podSecurityLines(path)) lines.push(`  ${safeText(line)}`);
  }
  const stopped = rejectedByPodSecurity(path) ? '; not reached: PodSecurity rejects the request' : '';
  section(lines, 'Validating webhooks', path.validating, 'validating', `all at once, in parallel, after the mutations${stopped}`);
  section(lines, 'Validating admission policies', path.policies, 'policy', `evaluated in the API server${stopped}`);

  const rows = failureTable(path);
  lines.push('', 'If a called webhook or policy fails:');
  if (rows.length === 0) lines.push(`  ${nothingCalledText(path)}`);
  for (const row of rows) {
    lines.push(`  ${safeText(hookName(row.entry))} (${row.phase})`);
    lines.push(`    ${row.phase === 'policy' ? 'an expression errors' : 'times out or unreachable'}: ${safeText(row.ifUnavailable)}`);
    lines.push(`    denies: ${safeText(row.ifDenies)}`);
    if (row.ifConditionErrors) lines.push(`    a matchCondition errors: ${safeText(row.ifConditionErrors)}`);
  }
  const latency = worstCaseLatency(path);
  lines.push('', `Worst-case latency: ${latency.totalSeconds}s (mutating webhooks in sequence ${latency.mutatingSeconds}s + slowest validating webhook ${latency.validatingSeconds}s)`);
  if (latency.totalSeconds > DEFAULT_REQUEST_TIMEOUT_SECONDS) lines.push(`  above the API server's default request timeout (${DEFAULT_REQUEST_TIMEOUT_SECONDS}s, --request-timeout): the request would time out first`);
  if (path.request.dryRun) {
    const failures = dryRunFailures(path);
    lines.push('', 'Dry run:');
    if (failures.length === 0) lines.push('  every called webhook declares sideEffects None or NoneOnDryRun: the dry run is not rejected for side effects');
    for (const failure of failures) lines.push(`  ${safeText(hookName(failure.entry))} (${failure.phase}): ${safeText(failure.outcome)}`);
    if (failures.some((failure) => failure.phase === 'mutating')) lines.push('  (the request stops at the first mutating webhook that rejects it: later webhooks are not called)');
  }
  return guardText(`${lines.join('\n')}\n`);
}
