/**
 * Admission policies: the policy request matcher (src/match/policy.ts: matchConstraints and a
 * binding's matchResources together, excludeResourceRules, resourceNames) and the
 * matches-kube-system rule on policies (matchConditions are evaluated whether or not the run
 * has a webhook with matchConditions). The fixtures cover positions and messages.
 */
import { describe, expect, it } from 'vitest';
import { Discovery } from '../src/kube/discovery/discovery.js';
import type { GroupVersionEntry } from '../src/kube/discovery/types.js';
import { matchPolicy, matchResources, type PolicyRequest } from '../src/match/policy.js';
import type { MatchResources } from '../src/model/types.js';
import { lintText, podsPolicy } from './helpers.js';

const DATA: GroupVersionEntry[] = [
  {
    group: '',
    version: 'v1',
    since: '1.0',
    resources: [
      { name: 'pods', kind: 'Pod', namespaced: true, subresources: ['status'] },
      { name: 'nodes', kind: 'Node', namespaced: false },
    ],
  },
  { group: 'autoscaling', version: 'v1', since: '1.0', resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true }] },
  { group: 'autoscaling', version: 'v2', since: '1.23', resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true }] },
];
const discovery = new Discovery({ major: 1, minor: 35 }, DATA);

const podCreate: PolicyRequest = {
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

const pods = { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' };
const constraints = (overrides: Partial<MatchResources> = {}): MatchResources => ({ resourceRules: [pods], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent', ...overrides });

describe('matchResources', () => {
  it('matches like a webhook', () => {
    expect(matchResources(constraints(), podCreate, discovery, false)).toMatchObject({ called: true, rule: 0 });
    expect(matchResources(constraints(), { ...podCreate, subresource: 'status' }, discovery, false)).toMatchObject({ called: false, reason: 'no-rule' });
  });

  it('excludes what an excludeResourceRules entry matches, whatever the resourceRules say', () => {
    const match = constraints({ excludeResourceRules: [{ ...pods, operations: ['*'] }] });
    expect(matchResources(match, podCreate, discovery, false)).toEqual({ called: false, reason: 'excluded' });
  });

  it('applies matchPolicy Equivalent to exclusions too', () => {
    const hpa = { operations: ['*'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] };
    const request: PolicyRequest = { ...podCreate, group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
    const all = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
    expect(matchResources(constraints({ resourceRules: [all], excludeResourceRules: [hpa] }), request, discovery, false)).toEqual({ called: false, reason: 'excluded' });
    expect(matchResources(constraints({ resourceRules: [all], excludeResourceRules: [hpa], matchPolicy: 'Exact' }), request, discovery, false)).toMatchObject({ called: true });
  });

  it('matches a rule with resourceNames only for those names', () => {
    const named = constraints({ resourceRules: [{ ...pods, resourceNames: ['web-0'] }] });
    expect(matchResources(named, { ...podCreate, name: 'web-0' }, discovery, false)).toMatchObject({ called: true, rule: 0 });
    expect(matchResources(named, { ...podCreate, name: 'web-1' }, discovery, false)).toMatchObject({ called: false });
    // Unknown name: the rule cannot be said to match.
    expect(matchResources(named, podCreate, discovery, false)).toMatchObject({ called: false });
  });

  it('excludes by name only the named objects', () => {
    const match = constraints({ excludeResourceRules: [{ ...pods, resourceNames: ['web-0'] }] });
    expect(matchResources(match, { ...podCreate, name: 'web-0' }, discovery, false)).toEqual({ called: false, reason: 'excluded' });
    expect(matchResources(match, { ...podCreate, name: 'web-1' }, discovery, false)).toMatchObject({ called: true });
    expect(matchResources(match, podCreate, discovery, false)).toMatchObject({ called: true });
  });

  it('keeps rule indexes when rules are skipped', () => {
    const match = constraints({ resourceRules: [{ ...pods, resourceNames: ['other'] }, pods] });
    expect(matchResources(match, podCreate, discovery, false)).toMatchObject({ called: true, rule: 1 });
  });

  it('a binding without resourceRules matches every resource; a policy without them matches none', () => {
    const node: PolicyRequest = { ...podCreate, resource: 'nodes', namespace: null };
    expect(matchResources({}, node, discovery, true)).toMatchObject({ called: true, rule: 0 });
    expect(matchResources({}, node, discovery, false)).toMatchObject({ called: false });
  });

  it('evaluates the selectors', () => {
    const other = constraints({ namespaceSelector: { matchLabels: { team: 'b' } } });
    expect(matchResources(other, podCreate, discovery, false)).toEqual({ called: false, reason: 'namespace-selector' });
    const unknown = constraints({ namespaceSelector: { matchLabels: { team: 'a' } } });
    const { namespaceLabels: _, ...withoutLabels } = podCreate;
    expect(matchResources(unknown, withoutLabels, discovery, false)).toMatchObject({ called: 'unknown', unknown: 'namespace-labels' });
  });
});

describe('matchPolicy (policy and binding together)', () => {
  const policy = { matchConstraints: constraints() };

  it('a binding without matchResources adds no restriction', () => {
    expect(matchPolicy(policy, {}, podCreate, discovery)).toMatchObject({ called: true, rule: 0, dependsOnMatchConditions: false });
    expect(matchPolicy(policy, undefined, podCreate, discovery)).toMatchObject({ called: true });
  });

  it("a binding's matchResources restrict the policy's matchConstraints", () => {
    const elsewhere = { matchResources: { namespaceSelector: { matchLabels: { team: 'b' } } } };
    expect(matchPolicy(policy, elsewhere, podCreate, discovery)).toEqual({ called: false, reason: 'namespace-selector' });
    const onlyUpdates = { matchResources: { resourceRules: [{ ...pods, operations: ['UPDATE'] }] } };
    expect(matchPolicy(policy, onlyUpdates, podCreate, discovery)).toEqual({ called: false, reason: 'no-rule' });
    const excluding = { matchResources: { excludeResourceRules: [pods] } };
    expect(matchPolicy(policy, excluding, podCreate, discovery)).toEqual({ called: false, reason: 'excluded' });
  });

  it('a binding cannot widen the policy', () => {
    const everything = { matchResources: { resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] } };
    expect(matchPolicy(policy, everything, { ...podCreate, subresource: 'status' }, discovery)).toMatchObject({ called: false });
  });

  it("reports the policy's matchConditions and the policy's rule index", () => {
    const withConditions = { matchConstraints: constraints({ resourceRules: [{ ...pods, apiGroups: ['apps'] }, pods] }), matchConditions: [{ name: 'a', expression: 'true' }] };
    expect(matchPolicy(withConditions, { matchResources: {} }, podCreate, discovery)).toMatchObject({ called: true, rule: 1, dependsOnMatchConditions: true });
  });
});

const POLICY = (conditions: string, validation = "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"): string => podsPolicy(validation, conditions);

describe('matches-kube-system on policies', () => {
  const run = async (text: string) => (await lintText(text, { only: ['matches-kube-system'] })).map((f) => `${f.fieldPath} ${f.severity}`);

  it('reports a bound pod policy without a namespace selector, by what its validations show for the system\'s requests', async () => {
    // They read the pod (not known here): neither a rejection nor a pass can be shown.
    expect(await run(POLICY(''))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // False for the controllers' requests: evidence that it rejects them.
    expect(await run(POLICY('', "request.userInfo.username.startsWith('team-')"))).toEqual(['spec.matchConstraints.resourceRules[0] error']);
    // True for every one of them (also through a variable), or always: it rejects none of the system's writes.
    expect(await run(POLICY('', 'true'))).toEqual([]);
    const variable = POLICY('', "variables.system || object.spec.hostNetwork == false").replace('  validations:', "  variables:\n    - name: system\n      expression: \"request.userInfo.username.startsWith('system:')\"\n  validations:");
    expect(await run(variable)).toEqual([]);
    // A variable that reads the pod is not known: the validation that needs it is not either.
    expect(await run(variable.replace("request.userInfo.username.startsWith('system:')", 'has(object.metadata.labels)'))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('reads a key prefix of the policy\'s own domain, reserved for its controller, as likely no system object\'s (info)', async () => {
    // No system label key starts with it, and no system annotation is of that domain: the
    // validation passes unless the project put its own objects into kube-system (info).
    const labels = "request.userInfo.username == 'system:serviceaccount:ops:ctl' || !has(object.metadata.labels) || object.metadata.labels.all(k, !k.startsWith('ops.example.io/') || k in oldObject.metadata.labels)";
    expect(await run(POLICY('', labels))).toEqual(['spec.matchConstraints.resourceRules[0] info']);
    const annotations = labels.replaceAll('labels', 'annotations');
    expect(await run(POLICY('', annotations))).toEqual(['spec.matchConstraints.resourceRules[0] info']);
    // A domain whose annotations the system's objects carry (kubeadm's static pods), or a test without the map's presence test: not known.
    expect(await run(POLICY('', annotations.replace('ops.example.io/', 'kubeadm.kubernetes.io/')))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    expect(await run(POLICY('', labels.replace('!has(object.metadata.labels) || ', '')))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('evaluates matchConditions even when no webhook in the run has any', async () => {
    const system = `  matchConditions:\n    - name: not-system\n      expression: "!request.userInfo.username.startsWith('system:')"\n`;
    expect(await run(POLICY(system))).toEqual([]);
    const everyone = `  matchConditions:\n    - name: everyone\n      expression: "request.userInfo.username != ''"\n`;
    expect(await run(POLICY(everyone))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('says at info where its matchConditions cannot be decided for the system (neither where it applies nor what it rejects is known)', async () => {
    const params = `  matchConditions:\n    - name: controller\n      expression: "request.userInfo.username == params.data.user"\n`;
    expect(await run(POLICY(params).replace('  failurePolicy: Fail\n', '  failurePolicy: Fail\n  paramKind:\n    apiVersion: v1\n    kind: ConfigMap\n'))).toEqual(['spec.matchConstraints.resourceRules[0] info']);
  });

  it('decides around a presence test of what is not known, as CEL\'s || and && do', async () => {
    // True for the system's requesters whatever the pod holds: silent. A presence test alone: not known.
    expect(await run(POLICY('', "request.userInfo.username.startsWith('system:') || has(object.spec.initContainers)"))).toEqual([]);
    expect(await run(POLICY('', 'has(object.metadata.labels)'))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // A condition false for the system's requesters whatever the labels: the policy is skipped for them.
    const people = `  matchConditions:\n    - name: people\n      expression: "!request.userInfo.username.startsWith('system:') && has(object.metadata.labels)"\n`;
    expect(await run(POLICY(people))).toEqual([]);
  });

  it('does not know what a subresource write\'s kind is, nor what the client asked for (an equivalent resource)', async () => {
    const tokens = POLICY('', "request.kind.group != 'authentication.k8s.io' || request.userInfo.username.startsWith('system:node:')").replace('resources: ["pods"]', 'resources: ["serviceaccounts/token"]');
    expect(await run(tokens)).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    expect(await run(POLICY('', "request.requestResource.group == ''"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('does not take a validation as passing where the linter cannot know it does', async () => {
    // True for the five requesters it models, false for the controllers' own service accounts (kubeadm).
    const five = "request.userInfo.username in ['system:node:node-1', 'system:kube-scheduler', 'system:kube-controller-manager', 'system:serviceaccount:kube-system:replicaset-controller', 'system:apiserver']";
    expect(await run(POLICY('', five))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // A conversion that overflows in the API server's CEL (an error, under Fail a rejection).
    expect(await run(POLICY('', "request.userInfo.username.startsWith('system:') && int(9223372036854775807.0) > 0"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // Params: a binding's paramRef may find none in kube-system (parameterNotFoundAction: Deny).
    const withParams = POLICY('', "request.userInfo.username.startsWith('system:') || params.data.allow == 'true'").replace('  failurePolicy: Fail\n', '  failurePolicy: Fail\n  paramKind:\n    apiVersion: v1\n    kind: ConfigMap\n');
    expect(await run(withParams)).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // auditAnnotations are evaluated too, and one that errors rejects under Fail.
    const audited = POLICY('', "request.userInfo.username.startsWith('system:')").replace('  validations:', "  auditAnnotations:\n    - key: team\n      valueExpression: \"'team-' + object.metadata.labels['team']\"\n  validations:");
    expect(await run(audited)).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // An optional read of a variable the linter does not evaluate: its default is not the answer.
    const optional = POLICY('', 'variables.?allowed.orValue(true)').replace('  validations:', '  variables:\n    - name: allowed\n      expression: "object.spec.hostNetwork == false"\n  validations:');
    expect(await run(optional)).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // Timestamp arithmetic overflows in the API server's CEL.
    expect(await run(POLICY('', "request.userInfo.username.startsWith('system:') && timestamp('9999-12-31T23:59:59Z') + duration('720h') > timestamp('2020-01-01T00:00:00Z')"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    // Two variables of one name (the API server keeps the last): neither is taken as the answer.
    const twice = POLICY('', 'variables.allowed').replace('  validations:', '  variables:\n    - name: allowed\n      expression: "true"\n    - name: allowed\n      expression: "object.spec.hostNetwork == false"\n  validations:');
    expect(await run(twice)).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    expect(await run(twice.replace('object.spec.hostNetwork == false', 'true'))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('does not know a system requester\'s userInfo.extra (certificates carry a credential-id from 1.32; other authenticators any key)', async () => {
    expect(await run(POLICY('', "!has(request.userInfo.extra) || request.userInfo.username.startsWith('system:serviceaccount:')"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    expect(await run(POLICY('', "!has(request.userInfo.extra) || !('sessionName' in request.userInfo.extra)"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
  });

  it('does not take the kubeadm groups for all of a requester\'s groups (a managed cluster maps its kubelets to system:bootstrappers too)', async () => {
    expect(await run(POLICY('', "!('system:bootstrappers' in request.userInfo.groups)"))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    const bootstrappers = `  matchConditions:\n    - name: bootstrappers\n      expression: "'system:bootstrappers' in request.userInfo.groups"\n`;
    expect(await run(POLICY(bootstrappers, 'false'))).not.toEqual([]);
  });

  it('does not take the system: prefix for every writer (EKS binds Fargate pods as eks:fargate-scheduler)', async () => {
    const binding = (text: string): string => text.replace('resources: ["pods"]', 'resources: ["pods/binding"]').replace('operations: ["CREATE", "UPDATE"]', 'operations: ["CREATE"]');
    expect(await run(binding(POLICY('', "request.userInfo.username.startsWith('system:')")))).toEqual(['spec.matchConstraints.resourceRules[0] warning']);
    expect(await run(binding(POLICY('', "request.userInfo.username.startsWith('system:') || request.userInfo.username.startsWith('eks:')")))).toEqual([]);
    // Pods themselves: the Fargate scheduler is not known to write them.
    expect(await run(POLICY('', "request.userInfo.username.startsWith('system:')"))).toEqual([]);
  });

  it('does not evaluate a policy without bindings in the run, nor a binding without its policy', async () => {
    const [policy, binding] = POLICY('').split('---\n');
    expect(await run(policy!)).toEqual([]);
    expect(await run(binding!)).toEqual([]);
  });

  it('does not count bindings that only warn or audit', async () => {
    expect(await run(POLICY('').replace('validationActions: [Deny]', 'validationActions: [Warn, Audit]'))).toEqual([]);
  });
});
