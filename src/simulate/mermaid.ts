/**
 * A Mermaid sequenceDiagram of the admission path: client → API server → each mutating webhook
 * (in order, with the possible reinvocation round) → the validating webhooks (in parallel) →
 * storage. GitHub renders it in PR comments and Markdown files.
 */
import { describeRequest, hookName } from './describe.js';
import { worstCaseLatency } from './failures.js';
import type { AdmissionPath, PathEntry } from './path.js';

/**
 * Text safe inside a participant alias or message: no statement separators, entity codes, line
 * breaks or other control characters (escape.ts says why), no backticks (the fence around it).
 */
export function mermaidText(text: string): string {
  return text.replace(/[;#`\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/[<>{}]/g, '').replace(/\s+/g, ' ').trim();
}

/** Called only if matchConditions the simulation could not evaluate hold. */
function conditional(entry: PathEntry): string {
  return entry.reason?.startsWith('depends on') ? ', if its matchConditions hold' : '';
}

export function sequenceDiagram(path: AdmissionPath): string {
  const mutating = path.mutating.filter((entry) => entry.called);
  const validating = path.validating.filter((entry) => entry.called);
  const policies = path.policies.filter((entry) => entry.called);
  const lines = ['sequenceDiagram', '  autonumber', '  participant C as Client', '  participant A as API server'];
  mutating.forEach((entry, i) => lines.push(`  participant M${i + 1} as ${mermaidText(hookName(entry))}`));
  validating.forEach((entry, i) => lines.push(`  participant V${i + 1} as ${mermaidText(hookName(entry))}`));
  lines.push('  participant S as Storage (etcd)');
  lines.push(`  C->>A: ${mermaidText(describeRequest(path))}`);
  mutating.forEach((entry, i) => {
    lines.push(`  A->>M${i + 1}: AdmissionReview (mutate, ${entry.failurePolicy}, ${entry.timeoutSeconds}s${conditional(entry)})`);
    lines.push(`  M${i + 1}-->>A: allowed, optional patch`);
  });
  const reinvoked = mutating.map((entry, i) => ({ entry, i })).filter(({ entry }) => entry.reinvoked);
  if (reinvoked.length > 0) {
    lines.push('  opt reinvocation round (a later mutation changed the object)');
    for (const { i } of reinvoked) lines.push(`    A->>M${i + 1}: AdmissionReview again (IfNeeded)`);
    lines.push('  end');
  }
  const podSecurity = path.podSecurity;
  if (podSecurity !== null) {
    const result = podSecurity.result;
    const said = result.outcome === 'rejected' ? 'PodSecurity rejects the request' : result.outcome === 'admitted' ? `PodSecurity admits${result.warnings.length > 0 ? ', with a warning' : ''}` : result.outcome === 'depends' ? `PodSecurity checks it (${podSecurity.policy ?? ''})` : 'PodSecurity does not check it';
    lines.push(`  Note over A: ${mermaidText(said)}`);
    if (result.outcome === 'rejected') {
      lines.push(`  A-->>C: ${mermaidText(`${result.status} (PodSecurity)`)}`);
      return `${lines.join('\n')}\n`;
    }
  }
  if (validating.length > 0) {
    lines.push('  par validating webhooks, in parallel');
    validating.forEach((entry, i) => {
      if (i > 0) lines.push('  and');
      lines.push(`    A->>V${i + 1}: AdmissionReview (validate, ${entry.failurePolicy}, ${entry.timeoutSeconds}s${conditional(entry)})`);
      lines.push(`    V${i + 1}-->>A: allowed`);
    });
    lines.push('  end');
  }
  if (policies.length > 0) lines.push(`  Note over A: ${mermaidText(`validating admission policies: ${policies.map(hookName).join(', ')}`)}`);
  if (path.request.dryRun) lines.push('  Note over A,S: dry run: nothing is stored');
  else lines.push('  A->>S: store the object');
  lines.push(`  A-->>C: response (worst case after ${worstCaseLatency(path).totalSeconds}s)`);
  return `${lines.join('\n')}\n`;
}
