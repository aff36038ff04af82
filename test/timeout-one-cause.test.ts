/**
 * One cause, one finding: a webhook with failurePolicy Ignore and a long timeout is one cause,
 * which critical-resources, matches-kube-system and long-timeout could each report. The first of
 * them that runs as designed (on, its severity and options as declared) reports it.
 */
import { describe, expect, it } from 'vitest';
import type { SeverityOverride } from '../src/severity.js';
import { lintText } from './helpers.js';

const RULES = ['critical-resources', 'matches-kube-system', 'long-timeout'];

const config = (resources: string, timeout: number): string => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: injector
webhooks:
  - name: inject.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    failurePolicy: Ignore
    timeoutSeconds: ${timeout}
    clientConfig:
      service: {namespace: injector, name: injector, path: /mutate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: [${resources}]}
`;

async function reported(text: string, options: { only?: readonly string[]; severityOverrides?: ReadonlyMap<string, SeverityOverride>; ruleOptions?: ReadonlyMap<string, Readonly<Record<string, number>>> } = {}): Promise<string[]> {
  const findings = await lintText(text, { only: options.only ?? RULES, ...(options.severityOverrides ? { severityOverrides: options.severityOverrides } : {}), ...(options.ruleOptions ? { ruleOptions: options.ruleOptions } : {}) });
  return findings.map((f) => `${f.ruleId} ${f.severity}`).sort();
}

describe('an Ignore webhook with a long timeout: one finding', () => {
  it('is critical-resources\' when the webhook intercepts a control-plane write, kube-system pods included', async () => {
    const findings = await lintText(config('"pods"', 30), { only: RULES });
    expect(findings.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['critical-resources warning']);
    expect(findings[0]!.message).toContain('pods (CREATE) in kube-system');
  });

  it('is long-timeout\'s without critical-resources, at the 30 s clients give up at', async () => {
    expect(await reported(config('"pods"', 30), { only: ['matches-kube-system', 'long-timeout'] })).toEqual(['long-timeout warning']);
    // critical-resources lowered by the user: it does not run as designed, so the others report as without it.
    expect(await reported(config('"pods"', 30), { severityOverrides: new Map([['critical-resources', 'info']]) })).toEqual(['critical-resources info', 'long-timeout warning']);
  });

  it('is matches-kube-system\'s alone, or when long-timeout would not warn', async () => {
    expect(await reported(config('"pods"', 30), { only: ['matches-kube-system'] })).toEqual(['matches-kube-system warning']);
    // long-timeout with a threshold the user set: not as designed, so matches-kube-system keeps its finding.
    expect(await reported(config('"pods"', 30), { only: ['matches-kube-system', 'long-timeout'], ruleOptions: new Map([['long-timeout', { thresholdSeconds: 29 }]]) })).toEqual(['long-timeout warning', 'matches-kube-system warning']);
    // 20 s, not a control-plane write (kube-system ConfigMaps): long-timeout only informs, matches-kube-system warns.
    expect(await reported(config('"configmaps"', 20))).toEqual(['long-timeout info', 'matches-kube-system warning']);
  });

  it('leaves a short timeout alone', async () => {
    expect(await reported(config('"pods"', 5))).toEqual(['matches-kube-system info']);
  });
});
