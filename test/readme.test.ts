/** The README is a product surface: its rule table lists exactly the registered rules. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

describe('README', () => {
  it('has one rule-table row per registered rule, with its default severity', () => {
    const section = README.slice(README.indexOf('## Rules'), README.indexOf('\n## ', README.indexOf('## Rules') + 1));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|/gm)].map((m) => ({ id: m[1]!, severity: m[2]!.trim() }));
    expect(rows.map((row) => row.id).sort()).toEqual(rules.map((rule) => rule.meta.id).sort());
    for (const row of rows) {
      const rule = rules.find((r) => r.meta.id === row.id)!;
      expect(row.severity.startsWith(rule.meta.severity), `${row.id}: README says ${row.severity}`).toBe(true);
    }
  });

  it('documents every lint option the CLI has', () => {
    for (const flag of ['--format', '--output', '--fail-on', '--no-color', '--quiet', '--kube-version', '--rule ', '--rule-option', '--trusted-namespace-label', '--config', '--baseline', '--write-baseline']) {
      expect(README).toContain(flag.trim());
    }
  });
});
