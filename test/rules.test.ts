/**
 * Golden fixtures, one folder per rule: fixtures/<rule-id>/invalid/*.yaml must produce exactly
 * the findings in the neighbouring .expected.txt (one line each:
 * `line:col-endLine:endCol severity fieldPath webhook | message`), and
 * fixtures/<rule-id>/valid/*.yaml none of that rule. A leading `# kube-version: 1.21`,
 * `# trusted-namespace-label: key` or `# rule-option: <id>.<name>=<value>` comment sets that option. `UPDATE_FIXTURES=1 npx vitest run
 * test/rules.test.ts` rewrites the .expected.txt files: review the diff before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lintText, type LintTextOptions } from './helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
/** Rules whose valid fixtures may still trip the structural checks (they are about them). */
const STRUCTURAL = new Set(['yaml-syntax', 'schema', 'api-validation']);

function optionsFrom(text: string): LintTextOptions {
  const kubeVersion = /^# kube-version: (\S+)/m.exec(text)?.[1];
  const trusted = [...text.matchAll(/^# trusted-namespace-label: (\S+)/gm)].map((m) => m[1]!);
  const ruleOptions = new Map<string, Record<string, number | string>>();
  for (const [, id, name, value] of text.matchAll(/^# rule-option: ([a-z0-9-]+)\.(\w+)=(\S+)/gm)) {
    ruleOptions.set(id!, { ...ruleOptions.get(id!), [name!]: Number.isNaN(Number(value)) ? value! : Number(value) });
  }
  return { ...(kubeVersion ? { kubeVersion } : {}), trustedNamespaceLabels: trusted, ruleOptions };
}

function describeFinding(f: Finding): string {
  return `${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.severity} ${f.fieldPath ?? '-'} ${f.webhook ?? '-'} | ${f.message}`;
}

function yamlFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort() : [];
}

describe.each(rules.map((rule) => rule.meta.id))('%s', (id) => {
  const invalid = yamlFiles(join(FIXTURES, id, 'invalid'));
  const valid = yamlFiles(join(FIXTURES, id, 'valid'));

  it('has at least one failing and one passing fixture', () => {
    expect(invalid.length).toBeGreaterThan(0);
    expect(valid.length).toBeGreaterThan(0);
  });

  it.each(invalid)('invalid/%s', async (name) => {
    const path = join(FIXTURES, id, 'invalid', name);
    const text = readFileSync(path, 'utf8');
    const findings = await lintText(text, { ...optionsFrom(text), only: [id] });
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expect(finding.ruleId).toBe(id);
    const actual = `${findings.map(describeFinding).join('\n')}\n`;
    const expectedPath = path.replace(/\.yaml$/, '.expected.txt');
    if (process.env.UPDATE_FIXTURES === '1') writeFileSync(expectedPath, actual);
    expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
  });

  it.each(valid)('valid/%s', async (name) => {
    const text = readFileSync(join(FIXTURES, id, 'valid', name), 'utf8');
    const findings = await lintText(text, optionsFrom(text));
    expect(findings.filter((f) => f.ruleId === id).map(describeFinding)).toEqual([]);
    if (!STRUCTURAL.has(id)) {
      // A passing example must be a manifest the API server accepts, or it teaches nothing.
      expect(findings.filter((f) => STRUCTURAL.has(f.ruleId)).map(describeFinding)).toEqual([]);
    }
  });
});
