/**
 * match-condition-missing-field: the reads of optional fields (src/cel/missing-fields.ts over
 * src/cel/optional-fields.ts) and the rule around them (which resources, which variable, which
 * expressions guard which).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseExpression } from '../src/cel/check/index.js';
import { prepareCel } from '../src/cel/library.js';
import { fieldsRequiredThroughOptionals, pathsWritten, presenceTests, unguardedPatchTargets, unguardedReads } from '../src/cel/missing-fields.js';
import { OptionalFields } from '../src/cel/optional-fields.js';
import { Discovery } from '../src/kube/discovery/discovery.js';
import { lintText, podsPolicy } from './helpers.js';

beforeAll(async () => {
  await prepareCel();
});

const discovery = new Discovery({ major: 1, minor: 35 });
const builtin = (group: string): boolean => discovery.isKnownBuiltinGroup(group);
const target = (group: string, resource: string, subresource = '') => ({ info: discovery.resource(group, 'v1', resource)!, subresource });
const PODS = new OptionalFields([target('', 'pods')], builtin);

/** The paths read without a guard, `missing` appended. */
function reads(expression: string, fields = PODS, guardedBy: readonly string[] = []): string[] {
  const expr = parseExpression(expression, 'webhook.matchCondition', { major: 1, minor: 35 });
  if (expr === undefined) throw new Error(`does not parse: ${expression}`);
  const guards = presenceTests([expr, ...guardedBy.map((g) => parseExpression(g, 'webhook.matchCondition', { major: 1, minor: 35 })!)]);
  return unguardedReads(expr, fields, guards).map((read) => `${read.access} (${read.missing})`);
}

describe('unguarded reads of optional fields', () => {
  it.each([
    ["object.spec.initContainers.exists(c, c.name == 'x')", ['object.spec.initContainers (field)']],
    ['object.spec.hostNetwork == true', ['object.spec.hostNetwork (field)']],
    ["object.metadata.labels['team'] == 'a'", ["object.metadata.labels['team'] (field-or-key)"]],
    ["object.metadata.annotations.team == 'a'", ['object.metadata.annotations (field)']],
    ['object.spec.containers.all(c, c.securityContext.privileged == false)', ['c.securityContext (field)']],
    ['object.spec.containers[0].securityContext.runAsNonRoot == true', ['object.spec.containers[0].securityContext (field)']],
    ['object.spec.containers.all(c, has(c.securityContext) && c.securityContext.runAsUser > 0)', ['c.securityContext.runAsUser (field)']],
    ['object.spec.containers.exists(i, c, c.ports.size() > 0)', ['c.ports (field)']],
    ["has(object.metadata.labels) && object.metadata.labels['team'] == 'a'", ["object.metadata.labels['team'] (key)"]],
    ['oldObject.spec.nodeSelector.size() > 0 && size(oldObject.spec.nodeSelector) > 1', ['oldObject.spec.nodeSelector (field)']],
    // `in` reads the map, which can be missing.
    ["'team' in object.metadata.labels", ['object.metadata.labels (field)']],
    // A computed key is not followed; the map itself is.
    ['object.metadata.labels[object.metadata.name] == "x"', ['object.metadata.labels (field)']],
  ])('%s', (expression, expected) => {
    expect(reads(expression)).toEqual(expected);
  });

  it.each([
    ['has() in the same expression', "has(object.spec.initContainers) && object.spec.initContainers.exists(c, c.name == 'x')"],
    ['has() after the read (&& absorbs the error either way)', "object.spec.initContainers.size() > 0 && has(object.spec.initContainers)"],
    ['a negated has() in ||', "!has(object.spec.nodeSelector) || 'gpu' in object.spec.nodeSelector"],
    ['a ternary on has()', "has(object.metadata.labels) && 'team' in object.metadata.labels ? object.metadata.labels['team'] == 'a' : false"],
    ['optional selection', "object.spec.?initContainers.orValue([]).exists(c, c.name == 'x')"],
    ['optional selection of a parent', "object.?spec.initContainers.hasValue()"],
    ['optional indexing', "object.metadata.?labels[?'team'].orValue('') == 'a'"],
    ['a key tested through a macro over the map', "has(object.metadata.annotations) && object.metadata.annotations.exists(k, k == 'a/b') && object.metadata.annotations['a/b'] == 'x'"],
    ['`in` guards the key', "has(object.metadata.labels) && 'team' in object.metadata.labels && object.metadata.labels['team'] == 'a'"],
    ['required and defaulted fields', "object.spec.containers.all(c, c.name != '' && c.image != '') && object.spec.securityContext != null && object.spec.restartPolicy == 'Always'"],
    ['a macro variable that shadows object', "[{'spec': {}}].all(object, object.spec.hostNetwork == true)"],
    ['fields of unknown kinds of objects', 'object.spec.template.spec.initContainers.size() > 0'],
  ])('not reported: %s', (_name, expression) => {
    expect(reads(expression)).toEqual([]);
  });

  it('is guarded by a presence test in another expression that decides whether this one runs', () => {
    expect(reads("object.spec.initContainers.exists(c, c.name == 'x')", PODS, ['has(object.spec.initContainers)'])).toEqual([]);
  });

  it('knows a field only where every matched kind agrees', () => {
    const podsAndDeployments = new OptionalFields([target('', 'pods'), { info: discovery.resource('apps', 'v1', 'deployments')!, subresource: '' }], builtin);
    expect(reads('object.spec.initContainers.size() > 0', podsAndDeployments)).toEqual([]);
    expect(reads("object.metadata.labels['a'] == 'b'", podsAndDeployments)).toEqual(["object.metadata.labels['a'] (field-or-key)"]);
    // A Namespace always has labels (the name label), but any other key may be missing.
    const namespaces = new OptionalFields([target('', 'namespaces')], builtin);
    expect(reads("object.metadata.labels['a'] == 'b'", namespaces)).toEqual(["object.metadata.labels['a'] (key)"]);
    expect(reads("object.metadata.labels['kubernetes.io/metadata.name'] != 'kube-system'", namespaces)).toEqual([]);
    expect(reads("has(object.metadata.labels) && object.metadata.labels.size() > 1", namespaces)).toEqual([]);
    // An ExternalName Service has no ports and no selector; type is defaulted.
    const services = new OptionalFields([target('', 'services')], builtin);
    expect(reads("object.spec.ports.all(p, p.port != 22)", services)).toEqual(['object.spec.ports (field)']);
    expect(reads("object.spec.type != 'NodePort' && object.spec.selector['app'] == 'x'", services)).toEqual(["object.spec.selector['app'] (field-or-key)"]);
    expect(reads("!has(object.spec.ports) || object.spec.ports.all(p, p.protocol == 'TCP')", services)).toEqual([]);
    // A ConfigMap's data is defaulted to {}, but an empty map under omitempty is left out of what
    // CEL reads (s37a 1-I): the map can be missing, as a Secret's can.
    expect(reads("object.data['config.yaml'] != ''", new OptionalFields([target('', 'configmaps')], builtin))).toEqual(["object.data['config.yaml'] (field-or-key)"]);
    expect(reads("object.data.size() > 0", new OptionalFields([target('', 'secrets')], builtin))).toEqual(['object.data (field)']);
    expect(new OptionalFields([target('', 'pods', 'exec')], builtin).known).toBe(false);
  });
});

const webhook = (operations: string, expression: string, extra = ''): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: demo
webhooks:
  - name: pods.demo.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    clientConfig:
      url: https://webhook.example.com/validate
    rules:
      - operations: [${operations}]
        apiGroups: [""]
        apiVersions: ["v1"]
        resources: ["pods"]
${extra}    matchConditions:
      - name: c
        expression: ${JSON.stringify(expression)}
`;

const messages = async (text: string): Promise<string[]> => (await lintText(text, { only: ['match-condition-missing-field'] })).map((f) => f.message);

/** The fields a mutation's JSON Patch paths need and an object can lack: `op pointer -> path (missing)`. */
function patchTargets(expression: string, fields = PODS): string[] {
  const expr = parseExpression(expression, 'mutating.jsonPatch', { major: 1, minor: 35 });
  if (expr === undefined) throw new Error(`does not parse: ${expression}`);
  return unguardedPatchTargets(expr, fields, new Set([...presenceTests([expr]), ...pathsWritten(expr)])).map((read) => `${read.patch!.op} ${read.patch!.pointer} -> ${read.path} (${read.missing})`);
}

describe('JSON Patch paths that need an optional field', () => {
  it.each([
    ['[JSONPatch{op: "add", path: "/spec/initContainers/-", value: 1}]', ['add /spec/initContainers/- -> object.spec.initContainers (field)']],
    // An index is a list element, like `-`; the parent of the added field must exist, not the field.
    ['[JSONPatch{op: "add", path: "/spec/containers/1/env/0", value: 1}]', ['add /spec/containers/1/env/0 -> object.spec.containers[].env (field)']],
    ['[JSONPatch{op: "add", path: "/spec/containers/0/securityContext", value: 1}]', []],
    // ~1 is a "/" of a key; the parent (annotations) is what may be absent.
    ['[JSONPatch{op: "add", path: "/metadata/annotations/example.com~1owner", value: "a"}]', ['add /metadata/annotations/example.com~1owner -> object.metadata.annotations (field)']],
    // A concatenation fixes the segments before its literal's last "/".
    ['[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("a/b"), value: "a"}]', ['add /metadata/labels/… -> object.metadata.labels (field)']],
    ['[JSONPatch{op: "add", path: "/spec/" + "nodeSelector/zone", value: "a"}]', []],
    // json-patch.v4: replace and test need the parents (a replace of a missing key sets it, a
    // test of one fails only the test); remove and a move's from need the target; a copy's from
    // only its parents (a missing key copies null).
    ['[JSONPatch{op: "replace", path: "/spec/hostNetwork", value: true}]', []],
    ['[JSONPatch{op: "replace", path: "/spec/nodeSelector/zone", value: "a"}]', ['replace /spec/nodeSelector/zone -> object.spec.nodeSelector (field)']],
    ['[JSONPatch{op: "remove", path: "/spec/nodeSelector"}]', ['remove /spec/nodeSelector -> object.spec.nodeSelector (field)']],
    ['[JSONPatch{op: "test", path: "/spec/hostNetwork", value: true}]', []],
    ['[JSONPatch{op: "test", path: "/metadata/annotations/mode", value: "a"}]', ['test /metadata/annotations/mode -> object.metadata.annotations (field)']],
    ['[JSONPatch{op: "copy", from: "/spec/nodeName", path: "/metadata/labels/node"}]', ['copy /metadata/labels/node -> object.metadata.labels (field)']],
    ['[JSONPatch{op: "move", from: "/metadata/labels/a", path: "/spec/nodeSelector/a"}]', ['move /metadata/labels/a -> object.metadata.labels (field)', 'move /spec/nodeSelector/a -> object.spec.nodeSelector (field)']],
    // Written earlier in the same patch (one document for the whole list): there.
    ['[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]', []],
    // A test through optional steps guards what it names (s37a 1-D).
    ["object.metadata.?labels[?'legacy'].hasValue() ? [JSONPatch{op: \"remove\", path: \"/metadata/labels/legacy\"}] : []", []],
    // Tested for in the expression: guarded; a path computed otherwise is not followed.
    ['has(object.spec.initContainers) ? [JSONPatch{op: "add", path: "/spec/initContainers/-", value: 1}] : []', []],
    ['[JSONPatch{op: "add", path: string(object.metadata.name), value: 1}]', []],
    ['[JSONPatch{op: "add", path: "spec/initContainers/-", value: 1}]', []],
  ])('%s', (expression, expected) => {
    expect(patchTargets(expression)).toEqual(expected);
  });

  it('knows the fields of pod templates no admission plugin fills (s37a 1-H) and the empty map of a ConfigMap (1-I)', () => {
    const deployments = new OptionalFields([{ info: discovery.resource('apps', 'v1', 'deployments')!, subresource: '' }], builtin);
    expect(patchTargets('[JSONPatch{op: "add", path: "/spec/template/spec/volumes/-", value: 1}, JSONPatch{op: "add", path: "/spec/template/spec/containers/0/volumeMounts/-", value: 1}, JSONPatch{op: "add", path: "/spec/template/metadata/annotations/a", value: "b"}, JSONPatch{op: "add", path: "/spec/template/spec/tolerations/-", value: 1}, JSONPatch{op: "add", path: "/spec/template/metadata/labels/a", value: "b"}]', deployments)).toEqual([
      'add /spec/template/spec/volumes/- -> object.spec.template.spec.volumes (field)',
      'add /spec/template/spec/containers/0/volumeMounts/- -> object.spec.template.spec.containers[].volumeMounts (field)',
      'add /spec/template/metadata/annotations/a -> object.spec.template.metadata.annotations (field)',
      'add /spec/template/spec/tolerations/- -> object.spec.template.spec.tolerations (field)',
    ]);
    // A Pod's volumes and tolerations are set by the plugins that run first.
    expect(patchTargets('[JSONPatch{op: "add", path: "/spec/volumes/-", value: 1}, JSONPatch{op: "add", path: "/spec/tolerations/-", value: 1}]')).toEqual([]);
    const configMaps = new OptionalFields([target('', 'configmaps')], builtin);
    expect(patchTargets('[JSONPatch{op: "add", path: "/data/stamp", value: "1"}]', configMaps)).toEqual(['add /data/stamp -> object.data (field)']);
  });

  it('reads the fields a condition requires through optional values (s37a 1-B)', () => {
    const required = (expression: string): string[] => fieldsRequiredThroughOptionals(parseExpression(expression, 'mutating.matchCondition', { major: 1, minor: 35 })!).map((path) => path.join('.'));
    expect(required("object.metadata.?labels[?'inject'].orValue('') == 'true'")).toEqual(['object.metadata.labels.inject']);
    expect(required("object.metadata.?labels[?'inject'].orValue('') != ''")).toEqual(['object.metadata.labels.inject']);
    expect(required('object.spec.?initContainers.orValue([]).size() > 0 && object.spec.?initContainers.hasValue()')).toEqual(['object.spec.initContainers', 'object.spec.initContainers']);
    // Absence passes these: no requirement.
    expect(required("object.metadata.?labels[?'inject'].orValue('') != 'false'")).toEqual([]);
    expect(required("object.metadata.?labels[?'inject'].orValue('true') == 'true'")).toEqual([]);
    expect(required('!object.spec.?initContainers.hasValue() || true')).toEqual([]);
  });

  it('needs the key itself for a remove of a Namespace label (labels are always there)', () => {
    const namespaces = new OptionalFields([target('', 'namespaces')], builtin);
    expect(patchTargets('[JSONPatch{op: "remove", path: "/metadata/labels/team"}]', namespaces)).toEqual(["remove /metadata/labels/team -> object.metadata.labels.team (key)"]);
    expect(patchTargets('[JSONPatch{op: "add", path: "/metadata/labels/team", value: "a"}]', namespaces)).toEqual([]);
    expect(patchTargets('"team" in object.metadata.labels ? [JSONPatch{op: "remove", path: "/metadata/labels/team"}] : []', namespaces)).toEqual([]);
  });

  it('offers no has() guard as the fix of a mutation (its value is an object or a list, not a boolean)', async () => {
    const policy = (expression: string) => `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: p.example.com}
spec:
  reinvocationPolicy: Never
  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"]}]}
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration: {expression: '${expression}'}
`;
    const found = await lintText(policy('Object{spec: Object.spec{hostNetwork: object.spec.hostNetwork}}'), { only: ['match-condition-missing-field'] });
    expect(found.map((f) => f.message)).toEqual([expect.stringContaining('object.spec.hostNetwork fails if absent')]);
    expect(found[0]!.fixHint).toBeUndefined();
  });
});

describe('the rule', () => {
  it('reads object on CREATE and UPDATE, oldObject on UPDATE and DELETE', async () => {
    expect(await messages(webhook('"DELETE"', 'object.spec.hostNetwork == true'))).toEqual([]);
    expect(await messages(webhook('"CREATE"', 'oldObject == null || oldObject.spec.hostNetwork == true'))).toEqual([]);
    expect(await messages(webhook('"DELETE"', 'oldObject.spec.hostNetwork == true'))).toEqual(['matchCondition "c" of webhook "pods.demo.example.com": oldObject.spec.hostNetwork fails if absent']);
  });

  it('names the map and the key of a label read, whatever the failurePolicy', async () => {
    expect(await messages(webhook('"CREATE"', "object.metadata.labels['team'] == 'a'", '    failurePolicy: Ignore\n'))).toEqual([
      `matchCondition "c" of webhook "pods.demo.example.com": object.metadata.labels['team'] fails if the map or key is absent`,
    ]);
    expect(await messages(webhook('"CREATE"', "has(object.metadata.labels) && object.metadata.labels['team'] == 'a'"))).toEqual([
      `matchCondition "c" of webhook "pods.demo.example.com": object.metadata.labels['team'] fails if the key is absent`,
    ]);
  });

  it('leaves expressions that do not compile to api-validation', async () => {
    expect(await messages(webhook('"CREATE"', 'object.spec.hostNetwork'))).toEqual([]);
    expect(await messages(webhook('"CREATE"', "object.spec.initContainers.exists(c, c.name.startWith('x'))"))).toEqual([]);
  });

  it('does not check variables (an && may absorb their errors), and takes their presence tests as guards', async () => {
    const policy = (variable: string, validation: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo.example.com
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["pods"]
  variables:
    - name: v
      expression: ${JSON.stringify(variable)}
  validations:
    - expression: ${JSON.stringify(validation)}
`;
    expect(await messages(policy('object.spec.initContainers', 'variables.v.size() < 3'))).toEqual([]);
    expect(await messages(policy('has(object.spec.initContainers)', '!variables.v || object.spec.initContainers.size() < 3'))).toEqual([]);
    expect(await messages(policy("object.metadata.name != ''", 'object.spec.initContainers.size() < 3'))).toEqual([
      'validations[0] of ValidatingAdmissionPolicy "demo.example.com": object.spec.initContainers fails if absent',
    ]);
  });
});

describe('a validation denied either way', () => {
  const severities = async (expression: string): Promise<string[]> => (await lintText(podsPolicy(expression), { only: ['match-condition-missing-field'] })).map((f) => f.severity);

  it('reads `!=` the value an absent field stands for as false without it: null, or the zero value of a field omitted when zero', async () => {
    // hostNetwork is declared by value with omitempty: absent is false, and `!= false` is false, as the error denies.
    expect(await severities('object.spec.hostNetwork != false')).toEqual(['info']);
    expect(await severities('object.spec.hostNetwork != null')).toEqual(['info']);
    // A pointer field absent is unset: `!= false` holds without it, and the error denies what it would admit.
    expect(await severities('object.spec.containers.all(c, has(c.securityContext) && c.securityContext.allowPrivilegeEscalation != false)')).toEqual(['warning']);
    // `!=` another value holds without the field: the error denies what it would admit.
    expect(await severities("object.spec.hostNetwork != true")).toEqual(['warning']);
    expect(await severities("object.spec.nodeName != 'node-1'")).toEqual(['warning']);
  });

  it('reads an immutability check against the old object, which it tests for, as false without the new field', async () => {
    expect(await severities("oldObject == null || !has(oldObject.spec.nodeName) || object.spec.nodeName == oldObject.spec.nodeName")).toEqual(['info']);
    // Untested, the old object may lack it too: absent equals absent, and the error denies.
    expect(await severities("oldObject == null || object.spec.nodeName == oldObject.spec.nodeName")).not.toEqual(['info']);
  });
});

describe('the message', () => {
  it('elides the middle of a long webhook name, so that the expression keeps its place in 160 characters', async () => {
    const long = webhook('"CREATE"', "object.metadata.labels['color'] == 'red'").replace('pods.demo.example.com', 'gpol.validate.example.svc-ignore-finegrained-zk-kafka-address');
    const findings = await lintText(long, { only: ['match-condition-missing-field'] });
    expect(findings.map((f) => f.message)).toEqual([`matchCondition "c" of webhook "gpol.validate.example.svc-igno…-zk-kafka-address": object.metadata.labels['color'] fails if the map or key is absent`]);
    expect(findings[0]!.webhook).toBe('gpol.validate.example.svc-ignore-finegrained-zk-kafka-address');
  });
});

describe('a policy whose bindings never deny', () => {
  const severities = async (text: string): Promise<string[]> => (await lintText(text, { only: ['match-condition-missing-field'] })).map((f) => f.severity);
  const read = "object.spec.nodeName != 'node-1'";

  it('is an info when every binding of the run warns or audits: the error becomes a warning to the requester (hold-out 31)', async () => {
    expect(await severities(podsPolicy(read))).toEqual(['warning']);
    expect(await severities(podsPolicy(read).replace('validationActions: [Deny]', 'validationActions: [Warn, Audit]'))).toEqual(['info']);
    // One binding that denies is enough for the warning; without a binding in the run its actions are not known.
    const denying = '---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: pods-deny}\nspec: {policyName: pods, validationActions: [Deny]}\n';
    expect(await severities(`${podsPolicy(read).replace('validationActions: [Deny]', 'validationActions: [Warn]')}${denying}`)).toEqual(['warning']);
    expect(await severities(podsPolicy(read).split('---')[0]!)).toEqual(['warning']);
  });

  it('stays a warning where the bindings may deny after all (attack s46c)', async () => {
    const warnOnly = (text: string): string => text.replace('validationActions: [Deny]', 'validationActions: [Warn]');
    // An auditAnnotation that errs under Fail rejects, whatever the actions.
    const audited = warnOnly(podsPolicy(read)).replace('  validations:', "  auditAnnotations:\n    - {key: node, valueExpression: \"object.spec.nodeName\"}\n  validations:");
    expect(await severities(audited)).toEqual(['warning']);
    // Actions the API server rejects, or not yet rendered.
    for (const actions of ['[]', '[deny]', '["${ACTION}"]']) expect(await severities(podsPolicy(read).replace('[Deny]', actions))).toEqual(['warning']);
    // Another policy of the same name (another folder's): whose bindings these are is not known.
    expect(await severities(`${warnOnly(podsPolicy(read))}---\n${podsPolicy(read).split('---')[0]!}`)).toEqual(['warning', 'warning']);
    // A binding whose policyName is a placeholder, or a document the run cannot read (an unrendered template), may bind it with Deny.
    const templated = '---\n{{- if .Values.enforce }}\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: pods-deny}\nspec: {policyName: pods, validationActions: [Deny]}\n{{- end }}\n';
    expect(await severities(`${warnOnly(podsPolicy(read))}${templated}`)).toEqual(['warning']);
    const placeholder = '---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: pods-deny}\nspec: {policyName: "${POLICY}", validationActions: [Deny]}\n';
    expect(await severities(`${warnOnly(podsPolicy(read))}${placeholder}`)).toEqual(['warning']);
    // Under Ignore this does not lower: a validation its absence would fail is a way past the policy there.
    expect(await severities(warnOnly(podsPolicy('object.spec.hostNetwork != false')).replace('failurePolicy: Fail', 'failurePolicy: Ignore'))).toEqual(['warning']);
  });
});
