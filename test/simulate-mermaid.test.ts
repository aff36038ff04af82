/**
 * The Markdown output of `simulate` carries a Mermaid sequenceDiagram; GitHub renders it only if
 * Mermaid parses it. Parsed here with the mermaid package itself (mermaid.parse, no browser).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { formatMarkdown } from '../src/simulate/format-markdown.js';
import { mermaidText, sequenceDiagram } from '../src/simulate/mermaid.js';
import type { RequestFlags } from '../src/simulate/request-flags.js';
import { simulate } from '../src/simulate/simulate.js';

const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-world');
const FIXTURES = join(ROOT, 'fixtures', 'simulate', 'path.yaml');

type Mermaid = { parse(text: string): Promise<unknown>; initialize(config: object): void };
let mermaid: Mermaid;

beforeAll(async () => {
  mermaid = (await import('mermaid')).default as unknown as Mermaid;
  mermaid.initialize({ startOnLoad: false });
});

function mermaidBlock(markdown: string): string {
  const match = /```mermaid\n([\s\S]*?)\n```/.exec(markdown);
  if (!match) throw new Error('no mermaid block in the Markdown');
  return match[1]!;
}

async function markdownFor(paths: string[], flags: RequestFlags): Promise<string> {
  return formatMarkdown(await simulate({ paths, flags, kubeVersion: DEFAULT_KUBE_VERSION }));
}

describe('the Mermaid sequenceDiagram of simulate --format markdown', () => {
  it('the parser rejects a broken diagram (so the checks below can fail)', async () => {
    await expect(mermaid.parse('sequenceDiagram\n  A->>: \n  par\n')).rejects.toThrow();
  });

  it('parses for the fixtures: reinvocation round, parallel validating webhooks, policies, dry run', async () => {
    const markdown = await markdownFor([FIXTURES], { operation: 'CREATE', resource: 'pods', namespace: 'team-a' });
    const diagram = mermaidBlock(markdown);
    expect(await mermaid.parse(diagram)).toMatchObject({ diagramType: 'sequence' });
    expect(diagram).toContain('participant M1 as a-defaulter / defaults.a.example.com');
    expect(diagram).toContain('participant M2 as b-injector / inject.b.example.com');
    expect(diagram).toContain('A->>M2: AdmissionReview (mutate, Fail, 10s, if its matchConditions hold)');
    expect(diagram).toContain('opt reinvocation round');
    expect(diagram).toContain('par validating webhooks, in parallel');
    expect(diagram).toContain('A->>S: store the object');
    const dry = mermaidBlock(await markdownFor([FIXTURES], { operation: 'CREATE', resource: 'pods', namespace: 'team-a', dryRun: true }));
    expect(await mermaid.parse(dry)).toMatchObject({ diagramType: 'sequence' });
    expect(dry).toContain('Note over A,S: dry run: nothing is stored');
  });

  it('parses when nothing is called', async () => {
    const markdown = await markdownFor([FIXTURES], { operation: 'DELETE', resource: 'nodes' });
    expect(await mermaid.parse(mermaidBlock(markdown))).toMatchObject({ diagramType: 'sequence' });
  });

  it('keeps names with Mermaid statement separators and entity codes from breaking the diagram', () => {
    expect(mermaidText('a;b#c\nd')).toBe('a b c d');
  });

  it.skipIf(!existsSync(CORPUS))('parses for real-world webhooks (Istio, Gatekeeper, Dapr, Linkerd)', async () => {
    const files = ['dapr--sidecar-injector-webhook-config.yaml', 'gatekeeper--gatekeeper.yaml', 'istio--istiod-pilot-default.yaml', 'linkerd2--install-default.yaml'].map((file) => join(CORPUS, file));
    const path = await simulate({ paths: files, flags: { operation: 'CREATE', resource: 'pods', namespace: 'team-a', namespaceLabels: 'istio-injection=enabled' }, kubeVersion: DEFAULT_KUBE_VERSION });
    const diagram = sequenceDiagram(path);
    expect(await mermaid.parse(diagram)).toMatchObject({ diagramType: 'sequence' });
    // Four mutating webhooks in order, one validating webhook.
    expect(diagram.match(/^ {2}participant M\d as .*$/gm)).toEqual([
      '  participant M1 as dapr-sidecar-injector / sidecar-injector.dapr.io',
      '  participant M2 as gatekeeper-mutating-webhook-configuration / mutation.gatekeeper.sh',
      '  participant M3 as istio-sidecar-injector / namespace.sidecar-injector.istio.io',
      '  participant M4 as linkerd-proxy-injector-webhook-config / linkerd-proxy-injector.linkerd.io',
    ]);
    expect(diagram).toContain('participant V1 as gatekeeper-validating-webhook-configuration / validation.gatekeeper.sh');
    expect(diagram).toContain('A-->>C: response (worst case after 44s)');
  });
});
