/**
 * One line that says what the configuration changed about the gate, for the human formats'
 * summaries (stylish, markdown) and, for the other formats, stderr: files ignored, rules turned
 * off or lowered, a changed fail-on level, an option that matches every name or a threshold
 * raised past its default, a Kubernetes version
 * no server runs yet, findings suppressed inline. Nothing when nothing changed.
 */
import type { Report } from '../engine/finding.js';

/** A pattern list as the gate line quotes it: its start, when it is long. */
function capped(value: string): string {
  return value.length <= 60 ? value : `${value.slice(0, 57)}…`;
}

export function describeGate(report: Report, options: { readonly loweringOnly?: boolean } = {}): string | undefined {
  const gate = report.gate;
  const parts: string[] = [];
  if (gate !== undefined) {
    if (gate.filesIgnored > 0) parts.push(`${gate.filesIgnored} ${gate.filesIgnored === 1 ? 'file' : 'files'} ignored`);
    if (gate.rulesOff.length > 0) parts.push(`${gate.rulesOff.length} ${gate.rulesOff.length === 1 ? 'rule' : 'rules'} off (${gate.rulesOff.join(', ')})`);
    // A stricter fail-on (warning, info) opens nothing: the stderr notice leaves it out.
    if (gate.failOn !== 'error' && (gate.failOn === 'never' || options.loweringOnly !== true)) parts.push(`fails on: ${gate.failOn}`);
    if (!gate.inlineConfig) parts.push('suppression comments ignored');
    const lowered = gate.severitiesLowered ?? [];
    if (lowered.length > 0) parts.push(`${lowered.length} ${lowered.length === 1 ? 'rule' : 'rules'} lowered (${lowered.map((entry) => `${entry.rule} ${entry.from} to ${entry.to}`).join(', ')})`);
    for (const option of gate.optionsMatchingAll ?? []) parts.push(`option ${option.rule}.${option.option} "${option.value}" matches every name`);
    for (const option of gate.optionsExempting ?? []) parts.push(`option ${option.rule}.${option.option} exempts "${capped(option.value)}"`);
    for (const option of gate.optionsLoosened ?? []) {
      parts.push(`option ${option.rule}.${option.option} ${option.value} (default ${option.default})${option.reportsNothing ? ' leaves the rule nothing to report' : ''}`);
    }
    const trusted = gate.trustedNamespaceLabels ?? [];
    if (trusted.length > 0) parts.push(`namespace ${trusted.length === 1 ? 'label' : 'labels'} trusted (${trusted.join(', ')})`);
    if (gate.kubeVersionUnreleased) parts.push(`kubeVersion ${gate.kubeVersion} is newer than any released Kubernetes (${gate.kubeVersionUnreleased})`);
  }
  const suppressed = report.summary.suppressed ?? 0;
  if (suppressed > 0) parts.push(`${suppressed} ${suppressed === 1 ? 'finding' : 'findings'} suppressed inline`);
  if (parts.length === 0) return undefined;
  const source = gate?.config ? ` by ${gate.config}` : '';
  return `gate changed${source}: ${parts.join('; ')}`;
}
