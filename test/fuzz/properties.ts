/** The fuzz properties, shared by the quick run (test/fuzz.test.ts) and the long run (test/fuzz/long-run.ts). */
import { rules } from '../../rules/index.js';
import { lint } from '../../src/engine/lint.js';
import { formatJson } from '../../src/format/json.js';
import { DEFAULT_KUBE_VERSION } from '../../src/kube/version.js';
import { normalizeBreaks } from '../../src/load/sources.js';

/** Throws (with the reason) when a property fails for these bytes. */
export async function checkBytes(bytes: Uint8Array, checkPositions = true): Promise<void> {
  const report = await lint({
    paths: ['-'], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), ruleOptions: new Map(),
    toolVersion: 'fuzz', readStdin: () => bytes,
  });
  let text: string | null = null;
  try {
    // Lines as YAML 1.1 (and the linter) break them: CR, NEL, LS and PS count too.
    text = normalizeBreaks(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch { /* not UTF-8 */ }
  const lines = (text ?? '').split('\n');
  const inside = (line: number, column: number): boolean =>
    Number.isInteger(line) && Number.isInteger(column) && line >= 1 && line <= lines.length && column >= 1 && column <= lines[line - 1]!.length + 1;
  for (const f of report.findings) {
    const where = `${f.ruleId} ${f.line}:${f.column}-${f.endLine}:${f.endColumn}`;
    if (checkPositions && (!inside(f.line, f.column) || !inside(f.endLine, f.endColumn))) throw new Error(`position outside the text: ${where}`);
    if (f.endLine < f.line || (f.endLine === f.line && f.endColumn < f.column)) throw new Error(`end before start: ${where}`);
    if (!['error', 'warning', 'info'].includes(f.severity)) throw new Error(`bad severity ${f.severity}`);
  }
  const json = JSON.parse(formatJson(report)) as { findings: unknown[] };
  if (json.findings.length !== report.findings.length) throw new Error('JSON lost findings');
}

export function checkText(text: string, checkPositions = true): Promise<void> {
  return checkBytes(new TextEncoder().encode(text), checkPositions);
}
