/**
 * A document the linter cannot read must not produce findings elsewhere that assume it is absent
 * (issue 20 §3): a binding whose policy may sit in an unreadable document is not "a binding
 * without a policy", and so on for every analysis that concludes from absence. Each case is
 * checked three ways: the finding without the broken document (it is a real absence), silence
 * with a broken document that could be the missing object, and the finding again with a broken
 * document that could not be (it names another kind, or another group).
 */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const POLICY = (name: string): string =>
  `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: ${name}}\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules: [{apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}]\n  validations: [{expression: "true"}]\n`;
const BINDING = (name: string, policy: string): string =>
  `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: ${name}}\nspec:\n  policyName: ${policy}\n  validationActions: [Deny]\n`;
/** A document that does not parse (an unclosed flow mapping), of a kind and with a name. */
const BROKEN = (kind: string, name: string, extra = ''): string => `apiVersion: admissionregistration.k8s.io/v1\nkind: ${kind}\nmetadata: {name: ${name}\n${extra}spec: [\n`;
const stream = (...documents: string[]): string => documents.join('---\n');

async function ruleFindings(text: string, rule: string): Promise<string[]> {
  return (await lintText(text, { only: [rule, 'yaml-syntax'] })).filter((f) => f.ruleId === rule).map((f) => `${f.object?.kind}/${f.object?.name}`);
}

describe('no finding from the absence of what an unreadable document may hold', () => {
  it('binding-without-policy: the policy may be the document that does not parse', async () => {
    const base = [POLICY('a'), BINDING('a-binding', 'a'), BINDING('b-binding', 'b')];
    expect(await ruleFindings(stream(...base), 'binding-without-policy')).toEqual(['ValidatingAdmissionPolicyBinding/b-binding']);
    expect(await ruleFindings(stream(...base, BROKEN('ValidatingAdmissionPolicy', 'b')), 'binding-without-policy')).toEqual([]);
    // A broken document that cannot be a ValidatingAdmissionPolicy does not hide the absence.
    expect(await ruleFindings(stream(...base, BROKEN('MutatingAdmissionPolicy', 'b').replace('admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1')), 'binding-without-policy')).toEqual([
      'ValidatingAdmissionPolicyBinding/b-binding',
    ]);
  });

  it('binding-without-policy: also the binding of the wrong kind, whose own policy may be unreadable', async () => {
    const mutating = `apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  matchConstraints:\n    resourceRules: [{apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}]\n  mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: "Object{}"}}]\n`;
    const base = [POLICY('a'), mutating, BINDING('m-binding', 'm')];
    expect(await ruleFindings(stream(...base), 'binding-without-policy')).toEqual(['ValidatingAdmissionPolicyBinding/m-binding']);
    expect(await ruleFindings(stream(...base, BROKEN('ValidatingAdmissionPolicy', 'm')), 'binding-without-policy')).toEqual([]);
  });

  it('policy-without-binding: the binding may be the document that does not parse', async () => {
    const base = [POLICY('a'), BINDING('a-binding', 'a'), POLICY('b')];
    expect(await ruleFindings(stream(...base), 'policy-without-binding')).toEqual(['ValidatingAdmissionPolicy/b']);
    expect(await ruleFindings(stream(...base, BROKEN('ValidatingAdmissionPolicyBinding', 'b-binding')), 'policy-without-binding')).toEqual([]);
    expect(await ruleFindings(stream(...base, BROKEN('ValidatingWebhookConfiguration', 'w')), 'policy-without-binding')).toEqual(['ValidatingAdmissionPolicy/b']);
  });

  it('an object with an alias bomb, or spelled with escapes, counts as unreadable too', async () => {
    const base = [POLICY('a'), BINDING('a-binding', 'a'), BINDING('b-binding', 'b')];
    const escaped = `apiVersion: admissionregistration.k8s.io/v1\nkind: "ValidatingAdmission\\x50olicy"\nmetadata: {name: b\n`;
    expect(await ruleFindings(stream(...base, escaped), 'binding-without-policy')).toEqual([]);
    const bomb = `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: b}\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`;
    expect(await ruleFindings(stream(...base, bomb), 'binding-without-policy')).toEqual([]);
  });

  it('unknown-resource: a CRD of the group may be the document that does not parse (a near miss of a CRD name is not one then)', async () => {
    const crd = (plural: string, kind: string): string =>
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ${plural}.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: ${plural}, kind: ${kind}}\n  versions: [{name: v1, served: true, storage: true}]\n`;
    const webhook = `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: w}\nwebhooks:\n  - name: w.example.com\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    failurePolicy: Ignore\n    clientConfig: {url: "https://w.example.com"}\n    rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [gadget]}]\n`;
    const base = [crd('gadgets', 'Gadget'), webhook];
    expect(await ruleFindings(stream(...base), 'unknown-resource')).toEqual(['ValidatingWebhookConfiguration/w']);
    const brokenCrd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {plural: widgets\n`;
    expect(await ruleFindings(stream(...base, brokenCrd), 'unknown-resource')).toEqual([]);
    // A broken CRD of another group leaves this group's CRDs complete.
    expect(await ruleFindings(stream(...base, brokenCrd.replace(/example\.com/g, 'other.io')), 'unknown-resource')).toEqual(['ValidatingWebhookConfiguration/w']);
  });
});
