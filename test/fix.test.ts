/**
 * lint --fix over every fixture and corpus file (docs/fixes.md): each fix is proven by the
 * fixer (src/fix/fix-file.ts); here the done-when checks are made independently of it. After
 * the fixes, a new lint reports none of the findings they resolve; `defaults` shows the same
 * effective configuration (the same in v1 for a v1beta1 move); a second --fix changes nothing;
 * the lines outside the edits are the same bytes; kubectl reads the fixed file (slow suite).
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/engine/finding.js';
import { loadRun } from '../src/engine/lint.js';
import { canonical } from '../src/fix/objects.js';
import { fixFileText } from '../src/fix/fix-file.js';
import { fixCases } from './fix-cases.js';

/** A finding's identity across the fix: a removed list item moves the later ones, so a removal's is its message (which names the resource). */
const key = (finding: Pick<Finding, 'ruleId' | 'documentIndex' | 'fieldPath' | 'line'> & { message?: string; description?: string }): string =>
  finding.ruleId === 'unknown-resource' ? `${finding.ruleId} ${finding.documentIndex} ${finding.message ?? ''}` : `${finding.ruleId} ${finding.documentIndex} ${finding.fieldPath}`;

/** The effective configurations `defaults` prints, per object, in file order. */
function effective(file: string): { kind: string; apiVersion: string; value: string }[] {
  const run = loadRun([file]);
  return [...run.webhookConfigurations, ...run.policies]
    .sort((a, b) => a.manifest.documentIndex - b.manifest.documentIndex)
    .map((object) => ({ kind: object.kind, apiVersion: object.apiVersion, value: canonical({ ...(object.effective as object), apiVersion: undefined }) }));
}

describe('lint --fix on every fixture and corpus file', async () => {
  const { cases, findings, after, suggestions } = await fixCases();

  it('fixes something in many files, and offers suggestions', () => {
    expect(cases.length).toBeGreaterThan(30);
    expect(suggestions).toBeGreaterThan(30);
  });

  it('a new lint reports none of the findings the fixes resolve', () => {
    const left: string[] = [];
    for (const c of cases) {
      const now = new Set((after.get(c.fixedFile) ?? []).map(key));
      const fixed = new Set(c.result.applied.filter((fix) => fix.resolves).map((fix) => `${fix.ruleId} ${fix.documentIndex} ${fix.fieldPath}`));
      const resolved = (findings.get(c.file) ?? []).filter((finding) => fixed.has(`${finding.ruleId} ${finding.documentIndex} ${finding.fieldPath}`));
      for (const finding of resolved) if (now.has(key(finding))) left.push(`${c.file}: ${key(finding)}`);
    }
    expect(left).toEqual([]);
  });

  it('defaults shows the same effective configuration (in v1 for a v1beta1 move; removals and quoted booleans aside)', () => {
    const changed: string[] = [];
    for (const c of cases) {
      // A removal and a quoted boolean change the configuration on purpose (the fixer proves the exact change).
      if (c.result.applied.some((fix) => fix.ruleId === 'unknown-resource' || fix.ruleId === 'schema')) continue;
      const before = effective(c.file);
      const now = effective(c.fixedFile);
      const migrated = c.result.applied.some((fix) => fix.ruleId === 'removed-api-version');
      if (before.length !== now.length) changed.push(`${c.file}: ${before.length} objects, then ${now.length}`);
      before.forEach((object, i) => {
        if (now[i]?.value !== object.value || now[i]?.kind !== object.kind) changed.push(`${c.file}: ${object.kind} #${i}`);
        if (!migrated && now[i]?.apiVersion !== object.apiVersion) changed.push(`${c.file}: ${object.kind} #${i} apiVersion`);
      });
    }
    expect(changed).toEqual([]);
  }, 120_000);

  it('a second --fix changes nothing', async () => {
    const again: string[] = [];
    for (const c of cases) {
      const second = fixFileText(c.fixedFile, c.result.text, after.get(c.fixedFile) ?? []);
      if (second.text !== undefined && second.text !== c.result.text) again.push(c.file);
    }
    expect(again).toEqual([]);
  }, 120_000);

  it('the bytes outside the edits are the same: the file as read is the fixed one less the inserted text', () => {
    const differ: string[] = [];
    for (const c of cases) {
      const edits = c.result.applied.flatMap((fix) => fix.edits);
      // Insertions only (every fix but a v1beta1 move and a removal): taking the inserted text out gives the file back.
      if (edits.some((edit) => edit.end > edit.start)) continue;
      const unique = [...new Map(edits.map((edit) => [`${edit.start}:${edit.text}`, edit])).values()].sort((a, b) => a.start - b.start);
      let rebuilt = '';
      let at = 0;
      let shift = 0;
      for (const edit of unique) {
        const from = edit.start + shift;
        if (c.result.text.slice(from, from + edit.text.length) !== edit.text) differ.push(`${c.file}: insertion at ${edit.start} not found`);
        rebuilt += c.result.text.slice(at, from);
        at = from + edit.text.length;
        shift += edit.text.length;
      }
      rebuilt += c.result.text.slice(at);
      if (rebuilt !== c.text) differ.push(c.file);
      // Line endings kept: a CRLF file gets no bare LF.
      if (c.text.includes('\r\n') && /(?<!\r)\n/.test(c.result.text) && !/(?<!\r)\n/.test(c.text)) differ.push(`${c.file}: line endings`);
    }
    expect(differ).toEqual([]);
  });

});
