/**
 * Positions on demand (src/parse/read.ts `byValue`, issue 23): the first pass of loadRun parses a
 * Namespace's document only when a position its lines do not give is asked for, once; an admission object's
 * document is never parsed when the fast reader writes its positions, and parsed at once otherwise. Counted on `yaml`'s own entry.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('yaml', async (importOriginal) => {
  const actual = await importOriginal<typeof import('yaml')>();
  return {
    ...actual,
    parseAllDocuments: (...args: Parameters<typeof actual.parseAllDocuments>) => {
      parses.count++;
      return actual.parseAllDocuments(...args);
    },
  };
});

const { loadRun } = await import('../src/engine/load-run.js');

const NAMESPACE = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    pod-security.kubernetes.io/enforce: restricted\n';
const WEBHOOK = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: w\nwebhooks: []\n';

function fileWith(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'positions-on-demand-')), 'manifests.yaml');
  writeFileSync(path, text);
  return path;
}

describe('positions on demand', () => {
  it('parse a Namespace document only when a position in it is asked for, and once', () => {
    const path = fileWith(NAMESPACE);
    parses.count = 0;
    const run = loadRun([path]);
    expect(run.namespaces.map((namespace) => namespace.name)).toEqual(['team-a']);
    expect(parses.count).toBe(0);
    const manifest = run.namespaces[0]!.manifest;
    expect(manifest.startLine()).toBe(5);
    expect(parses.count).toBe(0);
    expect(manifest.locate(['metadata', 'labels', 'pod-security.kubernetes.io/enforce'])).toEqual({ line: 10, column: 5, endLine: 10, endColumn: 51, exact: true });
    expect(manifest.locate(['metadata', 'name'], 'value')).toEqual({ line: 8, column: 9, endLine: 8, endColumn: 15, exact: true });
    // A scalar on its key's line is found from the lines (src/parse/simple-positions.ts): no parse.
    expect(parses.count).toBe(0);
    // A mapping's place is not: the document is parsed, once.
    expect(manifest.locate(['metadata', 'labels'])).toEqual({ line: 9, column: 3, endLine: 10, endColumn: 51, exact: true });
    expect(manifest.locate(['metadata'])).toEqual({ line: 7, column: 1, endLine: 10, endColumn: 51, exact: true });
    expect(parses.count).toBe(1);
  });

  it('never parse an admission object the fast reader reads with its positions', () => {
    const path = fileWith(WEBHOOK);
    parses.count = 0;
    const run = loadRun([path]);
    expect(run.webhookConfigurations).toHaveLength(1);
    const manifest = run.webhookConfigurations[0]!.manifest;
    expect(manifest.locate(['metadata', 'name'], 'value')).toEqual({ line: 4, column: 9, endLine: 4, endColumn: 10, exact: true });
    // A path that is not written: its closest written ancestor, from the same positions.
    expect(manifest.locate(['webhooks', 0, 'failurePolicy'])).toEqual({ line: 5, column: 1, endLine: 5, endColumn: 13, exact: false });
    expect(parses.count).toBe(0);
  });

  it('parse an admission object whose text does not spell its group (an escape in its apiVersion: s38a 3b)', () => {
    const path = fileWith(WEBHOOK.replace('apiVersion: admissionregistration.k8s.io/v1', 'apiVersion: "admissionregistration.k8s\\x2eio/v1"'));
    parses.count = 0;
    const run = loadRun([path]);
    expect(run.webhookConfigurations).toHaveLength(1);
    expect(parses.count).toBe(1);
  });

  it('parse a file whose `...` line has content after it (s38a 2)', () => {
    const path = fileWith(`${WEBHOOK}... junk\n`);
    parses.count = 0;
    loadRun([path]);
    expect(parses.count).toBe(1);
  });

  it('parse an admission object document at once when its positions are left to the parse (a comment inside it)', () => {
    const path = fileWith(WEBHOOK.replace('webhooks: []', '# none yet\nwebhooks: []'));
    parses.count = 0;
    const run = loadRun([path]);
    expect(run.webhookConfigurations).toHaveLength(1);
    expect(parses.count).toBe(1);
    run.webhookConfigurations[0]!.manifest.locate(['metadata', 'name']);
    expect(parses.count).toBe(1);
  });
});
