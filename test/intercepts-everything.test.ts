/**
 * A Fail webhook that nothing narrows, over every resource of every API group: one cause, one
 * finding (wildcard-rule, at error); matches-kube-system, critical-resources and self-deadlock
 * defer to it when it runs, and report as before when it is off or when anything narrows the webhook.
 */
import { describe, expect, it } from 'vitest';
import { everythingRule } from '../src/match/intercepts-everything.js';
import type { Webhook } from '../src/model/types.js';
import { lintText } from './helpers.js';

const RULES = ['wildcard-rule', 'matches-kube-system', 'critical-resources', 'self-deadlock'];

const config = (extra: string, rule = '{operations: ["CREATE", "UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}'): string => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: unified
webhooks:
  - name: all.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    failurePolicy: Fail
    clientConfig:
      service: {namespace: rollouts, name: webhook, path: /mutate}
    rules:
      - ${rule}
${extra}`;

const found = async (text: string, options: { only?: string[]; severityOverrides?: Map<string, 'off' | 'warning'> } = {}): Promise<string[]> =>
  (await lintText(text, { only: RULES, ...options })).filter((f) => RULES.includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity}`).sort();

describe('a webhook that intercepts everything', () => {
  it('is one finding, wildcard-rule at error', async () => {
    expect(await found(config(''))).toEqual(['wildcard-rule error']);
    const [finding] = await lintText(config(''), { only: ['wildcard-rule'] });
    expect(finding?.message).toBe('webhook "all.example.com" intercepts every resource of every API group in every namespace with failurePolicy Fail');
  });

  it('is reported by each consequence when wildcard-rule is off, or its severity overridden', async () => {
    const off = await found(config(''), { severityOverrides: new Map([['wildcard-rule', 'off']]) });
    expect(off).toEqual(['critical-resources error', 'matches-kube-system error', 'self-deadlock error']);
    expect(await found(config(''), { only: ['matches-kube-system', 'critical-resources', 'self-deadlock'] })).toEqual(off);
    // A user who lowers wildcard-rule (broad rules accepted) does not lose the deadlock errors with it.
    expect(await found(config(''), { severityOverrides: new Map([['wildcard-rule', 'warning']]) })).toEqual([...off, 'wildcard-rule warning']);
  });

  it('is not everything when something narrows it: each rule reports its own consequence', async () => {
    // A namespaceSelector that leaves out kube-system: critical-resources (nodes, kube-node-lease) and self-deadlock remain.
    const narrowed = await found(config(`    namespaceSelector:
      matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
`));
    // The wildcard is still reported, an info under critical-resources' error for its cluster-scoped writes (one cause, one finding).
    expect(narrowed).toContain('wildcard-rule info');
    expect(narrowed).toContain('critical-resources error');
    expect(narrowed).toContain('self-deadlock error');
    expect(narrowed).not.toContain('matches-kube-system error');
    // DELETE only: not every write.
    expect(await found(config('', '{operations: ["DELETE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}'))).not.toContain('wildcard-rule error');
  });
});

describe('everythingRule', () => {
  const webhook = (fields: Partial<Webhook>): Webhook => ({ name: 'w', failurePolicy: 'Fail', rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }], ...fields }) as Webhook;
  it('names the rule entry that sends every write, and only when nothing narrows the webhook', () => {
    expect(everythingRule(webhook({}))).toBe(0);
    expect(everythingRule(webhook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, { operations: ['CREATE', 'UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }))).toBe(1);
    // CREATE in one entry, UPDATE in another: together, every write.
    expect(everythingRule(webhook({ rules: [{ operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }, { operations: ['UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }))).toBe(0);
    expect(everythingRule(webhook({ rules: [{ operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }, { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['*'], resources: ['*'] }] }))).toBeUndefined();
    expect(everythingRule(webhook({ failurePolicy: 'Ignore' }))).toBeUndefined();
    expect(everythingRule(webhook({ objectSelector: { matchLabels: { managed: 'true' } } }))).toBeUndefined();
    expect(everythingRule(webhook({ namespaceSelector: { matchLabels: { team: 'a' } } }))).toBeUndefined();
    expect(everythingRule(webhook({ matchConditions: [{ name: 'c', expression: 'true' }] }))).toBeUndefined();
    expect(everythingRule(webhook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Namespaced' }] }))).toBeUndefined();
    expect(everythingRule(webhook({ rules: [{ operations: ['*'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['*'] }] }))).toBeUndefined();
  });
});
