/**
 * One line that says what the configuration changed about the gate, for the human formats'
 * summaries (stylish, markdown): files ignored, rules turned off, a changed fail-on level,
 * findings suppressed inline. Nothing when nothing changed.
 */
import type { Report } from '../engine/finding.js';

export function describeGate(report: Report): string | undefined {
  const gate = report.gate;
  const parts: string[] = [];
  if (gate !== undefined) {
    if (gate.filesIgnored > 0) parts.push(`${gate.filesIgnored} ${gate.filesIgnored === 1 ? 'file' : 'files'} ignored`);
    if (gate.rulesOff.length > 0) parts.push(`${gate.rulesOff.length} ${gate.rulesOff.length === 1 ? 'rule' : 'rules'} off (${gate.rulesOff.join(', ')})`);
    if (gate.failOn !== 'error') parts.push(`fails on: ${gate.failOn}`);
    if (!gate.inlineConfig) parts.push('suppression comments ignored');
  }
  const suppressed = report.summary.suppressed ?? 0;
  if (suppressed > 0) parts.push(`${suppressed} ${suppressed === 1 ? 'finding' : 'findings'} suppressed inline`);
  if (parts.length === 0) return undefined;
  const source = gate?.config ? ` by ${gate.config}` : '';
  return `gate changed${source}: ${parts.join('; ')}`;
}
