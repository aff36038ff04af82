/** The request matcher, case by case against facts §5 (ShouldCallHook and its predicates). */
import { describe, expect, it } from 'vitest';
import { Discovery } from '../src/kube/discovery/discovery.js';
import type { GroupVersionEntry } from '../src/kube/discovery/types.js';
import { matchWebhook, ruleMatches, type AdmissionRequest } from '../src/match/request.js';
import type { Webhook } from '../src/model/types.js';

const DATA: GroupVersionEntry[] = [
  {
    group: '',
    version: 'v1',
    since: '1.0',
    resources: [
      { name: 'pods', kind: 'Pod', namespaced: true, subresources: ['status', 'exec'], connect: ['exec'] },
      { name: 'namespaces', kind: 'Namespace', namespaced: false, subresources: ['status', 'finalize'] },
      { name: 'nodes', kind: 'Node', namespaced: false, subresources: ['status'] },
    ],
  },
  { group: 'autoscaling', version: 'v1', since: '1.0', resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true }] },
  { group: 'autoscaling', version: 'v2', since: '1.23', resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true }] },
];
const discovery = new Discovery({ major: 1, minor: 35 }, DATA);

const podCreate: AdmissionRequest = {
  operation: 'CREATE',
  group: '',
  version: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'team-a',
  namespaceLabels: { 'kubernetes.io/metadata.name': 'team-a', team: 'a' },
  objectLabels: { app: 'web' },
  oldObjectLabels: null,
};

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  name: 'w.example.com',
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  ...overrides,
});

const rule = (overrides: Record<string, unknown>) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], ...overrides });

describe('rules (facts §5 step 3)', () => {
  it.each([
    ['exact group, version, resource, operation', rule({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }), podCreate, true],
    ['operation is case-sensitive', rule({ operations: ['create'] }), podCreate, false],
    ['another operation', rule({ operations: ['UPDATE'] }), podCreate, false],
    ['"" is the core group only', rule({ apiGroups: [''] }), { ...podCreate, group: 'apps', resource: 'deployments' }, false],
    ['"pods" does not match a subresource', rule({ resources: ['pods'] }), { ...podCreate, subresource: 'status' }, false],
    ['"*" matches main resources only', rule({ resources: ['*'] }), { ...podCreate, subresource: 'status' }, false],
    ['"*" matches a main resource', rule({ resources: ['*'] }), podCreate, true],
    ['"pods/*" matches pods subresources', rule({ resources: ['pods/*'] }), { ...podCreate, subresource: 'exec' }, true],
    // rules.go compares each part with "*" or equality, so sub "*" also matches the main resource's "".
    ['"pods/*" also matches the main resource', rule({ resources: ['pods/*'] }), podCreate, true],
    ['"*/status" matches any status', rule({ resources: ['*/status'] }), { ...podCreate, subresource: 'status' }, true],
    ['"*/*" matches everything', rule({}), { ...podCreate, subresource: 'exec', operation: 'CONNECT' as const }, true],
    ['scope Namespaced matches a namespaced request', rule({ scope: 'Namespaced' }), podCreate, true],
    ['scope Namespaced does not match a Namespace object', rule({ scope: 'Namespaced' }), { ...podCreate, resource: 'namespaces', namespace: 'team-a' }, false],
    ['scope Cluster does not match a namespaced request', rule({ scope: 'Cluster' }), podCreate, false],
    ['scope Cluster matches a cluster-scoped request', rule({ scope: 'Cluster' }), { ...podCreate, resource: 'nodes', namespace: null }, true],
    ['scope Cluster matches a Namespace object (which carries its own name)', rule({ scope: 'Cluster' }), { ...podCreate, resource: 'namespaces', namespace: 'team-a' }, true],
  ] as const)('%s', (_name, r, request, expected) => {
    expect(ruleMatches(r, request as AdmissionRequest)).toBe(expected);
  });
});

describe('matchWebhook', () => {
  it('calls a webhook whose rule, selectors and scope match', () => {
    expect(matchWebhook(webhook(), podCreate, discovery)).toEqual({ called: true, rule: 0, equivalent: null, dependsOnMatchConditions: false });
  });

  it('never calls webhooks for the admission configuration kinds (facts §7)', () => {
    const request = { ...podCreate, group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations', namespace: null };
    expect(matchWebhook(webhook({ rules: [rule({})] }), request, discovery)).toEqual({ called: false, reason: 'exempt-kind' });
  });

  it('namespaceSelector: matches on the namespace labels; empty matches all', () => {
    expect(matchWebhook(webhook({ namespaceSelector: { matchLabels: { team: 'a' } } }), podCreate, discovery).called).toBe(true);
    expect(matchWebhook(webhook({ namespaceSelector: { matchLabels: { team: 'b' } } }), podCreate, discovery)).toEqual({ called: false, reason: 'namespace-selector' });
  });

  it('namespaceSelector is ignored for cluster-scoped objects other than Namespaces', () => {
    const nodes = webhook({ rules: [rule({ resources: ['nodes'] })], namespaceSelector: { matchLabels: { team: 'b' } } });
    expect(matchWebhook(nodes, { ...podCreate, resource: 'nodes', namespace: null, namespaceLabels: undefined }, discovery).called).toBe(true);
  });

  it('namespaceSelector on a Namespace CREATE/UPDATE reads the incoming object, on DELETE the stored labels', () => {
    const ns = webhook({ rules: [rule({ resources: ['namespaces'] })], namespaceSelector: { matchLabels: { team: 'a' } } });
    const create: AdmissionRequest = { ...podCreate, resource: 'namespaces', namespace: 'x', objectLabels: { team: 'a' }, namespaceLabels: { team: 'b' } };
    expect(matchWebhook(ns, create, discovery).called).toBe(true);
    expect(matchWebhook(ns, { ...create, operation: 'DELETE', objectLabels: null, oldObjectLabels: { team: 'a' } }, discovery)).toEqual({ called: false, reason: 'namespace-selector' });
  });

  it('namespaceSelector with unknown namespace labels is undecided', () => {
    const selective = webhook({ namespaceSelector: { matchLabels: { team: 'a' } } });
    expect(matchWebhook(selective, { ...podCreate, namespaceLabels: undefined }, discovery)).toEqual({ called: 'unknown', rule: 0, unknown: 'namespace-labels' });
  });

  it('objectSelector matches the new or the old object', () => {
    const selective = webhook({ rules: [rule({})], objectSelector: { matchLabels: { app: 'web' } } });
    expect(matchWebhook(selective, podCreate, discovery).called).toBe(true);
    const update: AdmissionRequest = { ...podCreate, operation: 'UPDATE', objectLabels: {}, oldObjectLabels: { app: 'web' } };
    expect(matchWebhook(selective, update, discovery).called).toBe(true);
    expect(matchWebhook(selective, { ...update, oldObjectLabels: {} }, discovery)).toEqual({ called: false, reason: 'object-selector' });
  });

  it('a non-empty objectSelector never matches CONNECT (facts §5 step 2, §9.10)', () => {
    const selective = webhook({ rules: [rule({})], objectSelector: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] } });
    const exec: AdmissionRequest = { ...podCreate, operation: 'CONNECT', subresource: 'exec', objectLabels: null, oldObjectLabels: null };
    expect(matchWebhook(selective, exec, discovery)).toEqual({ called: false, reason: 'object-selector' });
    expect(matchWebhook(webhook({ rules: [rule({})] }), exec, discovery).called).toBe(true);
  });

  it('matchPolicy Equivalent matches another version of the resource; Exact does not', () => {
    const v1Only = { rules: [rule({ apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] })] };
    const request: AdmissionRequest = { ...podCreate, group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
    expect(matchWebhook(webhook(v1Only), request, discovery)).toEqual({
      called: true,
      rule: 0,
      equivalent: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
      dependsOnMatchConditions: false,
    });
    expect(matchWebhook(webhook({ ...v1Only, matchPolicy: 'Exact' }), request, discovery)).toEqual({ called: false, reason: 'no-rule' });
  });

  it('the first matching rule wins; matchConditions leave the call undecided', () => {
    const two = webhook({ rules: [rule({ resources: ['nodes'] }), rule({ resources: ['pods'] }), rule({})], matchConditions: [{ name: 'c', expression: 'true' }] });
    expect(matchWebhook(two, podCreate, discovery)).toEqual({ called: true, rule: 1, equivalent: null, dependsOnMatchConditions: true });
  });

  it('no matching rule means not called, even when a selector could not be decided', () => {
    expect(matchWebhook(webhook({ namespaceSelector: { matchLabels: { team: 'a' } } }), { ...podCreate, resource: 'secrets', namespaceLabels: undefined }, discovery)).toEqual({ called: false, reason: 'no-rule' });
  });
});

describe('Discovery', () => {
  it('knows versions, scope and equivalents; honours since', () => {
    expect(discovery.resource('', 'v1', 'pods')?.namespaced).toBe(true);
    expect(discovery.equivalents({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' }).map((r) => r.version)).toEqual(['v2']);
    const old = new Discovery({ major: 1, minor: 22 }, DATA);
    expect(old.versions('autoscaling')).toEqual(['v1']);
  });

  it('adds the run\'s CRDs but never overrides a built-in group', () => {
    const withCrd = new Discovery({ major: 1, minor: 35 }, DATA);
    withCrd.addCustomResource({ group: 'example.com', versions: ['v1', 'v2'], plural: 'widgets', kind: 'Widget', namespaced: true, subresources: ['status'] });
    withCrd.addCustomResource({ group: '', versions: ['v1'], plural: 'fakes', kind: 'Fake', namespaced: true, subresources: [] });
    expect(withCrd.resource('example.com', 'v2', 'widgets')?.custom).toBe(true);
    expect(withCrd.resource('', 'v1', 'fakes')).toBeUndefined();
    expect(withCrd.equivalents({ group: 'example.com', version: 'v1', resource: 'widgets' }).map((r) => r.version)).toEqual(['v2']);
  });
});
