/**
 * Reading a file costs work linear in its size, on the shapes a hostile pull request can give
 * (s38e 3 and 4): many small documents, one huge mapping, one long flow list over comment lines,
 * a finding on every item of a long list. Each input below is sized so that a walk that is
 * quadratic in it would take minutes (and fail the test's timeout), while the linear one takes a
 * fraction of a second: no time is measured. The duplicate-key check that replaced `yaml`'s
 * quadratic one is also compared with it, error for error.
 */
import { describe, expect, it } from 'vitest';
import { parseAsGoYaml } from '../src/parse/go-yaml-schema.js';
import { flattenFlow } from '../src/parse/lenient.js';
import { documentLines } from '../src/parse/prefilter.js';
import { lintText } from './helpers.js';

const WEBHOOK_HEAD = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: v\n';

describe('reading is linear in the file', () => {
  it('finds the documents of 200,000 two-line documents in one pass', () => {
    const text = Array.from({ length: 200_000 }, () => 'a: 1\nb: 2\n').join('---\n');
    const documents = documentLines(text);
    expect(documents).toHaveLength(200_000);
    expect(documents![199_999]).toEqual({ start: text.length - 11, end: text.length, firstContent: text.length - 10 });
  });

  it('flattens a flow list over 1,000,000 comment lines in one pass', () => {
    const text = `rules: [\n${'#\n'.repeat(1_000_000)}]\n`;
    const flat = flattenFlow(text, text.indexOf('['));
    expect(flat).toHaveLength(text.length - 'rules: \n'.length);
    expect(flat!.trim()).toMatch(/^\[\s+\]$/);
  });

  it('checks the keys of a 100,000-key mapping for duplicates in one pass', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `    k${i}: v\n`).join('');
    // The comment line keeps the fast reader off: the document is parsed in full.
    const text = `${WEBHOOK_HEAD}  # labels\n  labels:\n${keys}    k5: again\n`;
    const [document] = parseAsGoYaml(text, { logLevel: 'silent', prettyErrors: false });
    expect(document!.errors.map((error) => [error.code, error.pos[0]])).toEqual([['DUPLICATE_KEY', text.lastIndexOf('k5: again')]]);
  });

  it('places a finding on each of 200,000 list items', async () => {
    const text = `${WEBHOOK_HEAD}webhooks:\n- name: a.example.com\n  rules: [\n${'x,\n'.repeat(200_000)}]\n`;
    const findings = await lintText(text);
    expect(findings).toHaveLength(200_000);
    expect(findings[199_999]!.line).toBe(200_007);
  });
});
