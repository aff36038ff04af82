/**
 * A binding that names its policy as a kustomization of the run names it (src/match/kustomize-names.ts):
 * `policyName: app-check` for a policy written `check` under `namePrefix: app-`. kubectl kustomize
 * builds the two names alike (kustomize's name references also rewrite a policyName written
 * unprefixed); a build that holds only one of the files, or gives another prefix, does not.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import type { Finding } from '../src/engine/finding.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { KustomizeNames } from '../src/match/kustomize-names.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('kustomize-names-test');
const ONLY = ['binding-without-policy', 'policy-without-binding'];

/** The findings of a lint of `paths` with only the rules `only` on. */
async function lintOnly(paths: string[], only: readonly string[]): Promise<readonly Finding[]> {
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => !only.includes(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
  return (await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' })).findings;
}

async function findings(paths: string[]): Promise<string[]> {
  return (await lintOnly(paths, ONLY)).map((f) => `${f.ruleId} ${f.severity}`);
}

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: check}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
  validations: [{expression: "object.spec.size < 10"}]
`;
const binding = (policyName: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: check-binding}
spec: {policyName: ${policyName}, validationActions: [Deny]}
`;

describe('a binding that names its policy as the build names it', () => {
  it('binds the policy when a kustomization that builds both gives it that name', async () => {
    const tree = {
      'config/policy/policy.yaml': POLICY,
      'config/policy/binding.yaml': binding('app-check'),
      'config/policy/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n',
      'config/default/kustomization.yaml': 'namePrefix: app-\nnameSuffix: -v1\nresources:\n- ../policy\n',
    };
    expect(await findings([folder({ ...tree, 'config/policy/binding.yaml': binding('app-check-v1') })])).toEqual([]);
    // Another prefix than the build's, or the folder alone (no build gives the prefix): not bound.
    expect(await findings([folder({ ...tree, 'config/policy/binding.yaml': binding('other-check-v1') })])).toEqual(['binding-without-policy error', 'policy-without-binding warning']);
    const alone = folder({ ...tree, 'config/policy/binding.yaml': binding('app-check-v1') });
    expect(await findings([join(alone, 'config/policy')])).toEqual(['binding-without-policy error', 'policy-without-binding warning']);
  });

  it('does not bind across builds that never hold both files', async () => {
    const tree = {
      'policy/policy.yaml': POLICY,
      'policy/kustomization.yaml': 'namePrefix: app-\nresources:\n- policy.yaml\n',
      'bindings/binding.yaml': binding('app-check'),
      'bindings/kustomization.yaml': 'resources:\n- binding.yaml\n',
    };
    expect(await findings([folder(tree)])).toEqual(['binding-without-policy error', 'policy-without-binding warning']);
  });

  it('binds only when every top build that holds the binding names the policy so', async () => {
    // (The policy-without-binding warning is left out: 'a-check' is a near miss of 'check', one cause.)
    const base = { 'base/policy.yaml': POLICY, 'base/binding.yaml': binding('a-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n' };
    // One overlay with the prefix the binding writes: bound (the base is built only through it).
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n' })])).toEqual([]);
    // A second overlay with another prefix builds a binding that names no policy.
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n', 'b/kustomization.yaml': 'namePrefix: b-\nresources:\n- ../base\n' })])).toEqual(['binding-without-policy error']);
    // A policy written with the binding's name: kustomize rewrites the policyName to it, not to the prefixed other.
    const literal = POLICY.replace('name: check', 'name: a-check');
    expect(await findings([folder({ ...base, 'base/literal.yaml': literal, 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n- literal.yaml\n', 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n' })])).toEqual(['policy-without-binding warning']);
    // A kustomization kustomize never reads (another file name, a second document) gives no prefix.
    expect(await findings([folder({ ...base, 'a/staging-kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamePrefix: a-\nresources:\n- ../base\n' })])).toEqual(['binding-without-policy error']);
    expect(await findings([folder({ ...base, 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n---\nnamePrefix: a-\n' })])).toEqual(['binding-without-policy error']);
  });

  it('does not bind through what it does not follow: components, a folder kustomize refuses, an earlier name of another policy', async () => {
    const base = { 'base/policy.yaml': POLICY, 'base/binding.yaml': binding('a-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n' };
    // A component's own namePrefix renames what its parent builds.
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\ncomponents:\n- ../comp\n', 'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamePrefix: x-\n' })])).toEqual(['binding-without-policy error']);
    // Two kustomization files in one folder: kustomize builds neither.
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n', 'a/Kustomization': 'namePrefix: a-\nresources:\n- ../base\n' })])).toEqual(['binding-without-policy error']);
    // The binding's name is another policy's name on the way (x-check, then y-x-check): name references rewrite it to that one.
    const other = POLICY.replace('widgets', 'gadgets');
    expect(
      await findings([
        folder({
          'p1/policy.yaml': POLICY,
          'p1/kustomization.yaml': 'namePrefix: x-\nresources:\n- policy.yaml\n',
          'p2inner/policy.yaml': other,
          'p2inner/kustomization.yaml': 'namePrefix: x-\nresources:\n- policy.yaml\n',
          'p2outer/kustomization.yaml': 'namePrefix: y-\nresources:\n- ../p2inner\n',
          'T/binding.yaml': binding('x-check'),
          'T/kustomization.yaml': 'resources:\n- ../p1\n- ../p2outer\n- binding.yaml\n',
        }),
      ]),
    ).toEqual(['binding-without-policy error']);
  });

  it('does not bind when one build holds the files twice, or a build of the policy lacks the binding', async () => {
    const base = { 'base/policy.yaml': POLICY, 'base/binding.yaml': binding('x-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n' };
    // T builds the base through x- and y-: y-check is unbound in T's build.
    expect(await findings([folder({ ...base, 'x/kustomization.yaml': 'namePrefix: x-\nresources:\n- ../base\n', 'y/kustomization.yaml': 'namePrefix: y-\nresources:\n- ../base\n', 'T/kustomization.yaml': 'resources:\n- ../x\n- ../y\n' })])).toEqual(['binding-without-policy error']);
    // The policy is built by p (no binding there) too: p-check is unbound in p's build.
    const split = { 'pol/policy.yaml': POLICY, 'pol/kustomization.yaml': 'resources:\n- policy.yaml\n', 'x/binding.yaml': binding('x-check'), 'x/kustomization.yaml': 'namePrefix: x-\nresources:\n- ../pol\n- binding.yaml\n', 'p/kustomization.yaml': 'namePrefix: p-\nresources:\n- ../pol\n' };
    expect(await findings([folder(split)])).toEqual(['binding-without-policy error']);
  });

  it('does not follow a build whose patches may rename, delete or rebind a policy or a binding', async () => {
    const base = { 'base/policy.yaml': POLICY, 'base/binding.yaml': binding('a-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n' };
    const renamed = "namePrefix: a-\nresources:\n- ../base\npatches:\n- target: {kind: ValidatingAdmissionPolicy, name: check}\n  patch: '[{\"op\": \"replace\", \"path\": \"/metadata/name\", \"value\": \"strict\"}]'\n";
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': renamed })])).toEqual(['binding-without-policy error']);
    // A patch of their metadata that keeps the name (an annotation) changes no name: bound.
    const annotated = renamed.replace('"replace", \"path\": \"/metadata/name\", \"value\": \"strict\"', '"add", \"path\": \"/metadata/annotations\", \"value\": {\"a\": \"b\"}');
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': annotated })])).toEqual([]);
    // A strategic-merge patch renames (or re-kinds) with options.allowNameChange (allowKindChange).
    const allowed = "namePrefix: a-\nresources:\n- ../base\npatches:\n- target: {kind: ValidatingAdmissionPolicy, name: check}\n  options: {allowNameChange: true}\n  patch: |-\n    apiVersion: admissionregistration.k8s.io/v1\n    kind: ValidatingAdmissionPolicy\n    metadata:\n      name: renamed\n";
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': allowed })])).toEqual(['binding-without-policy error']);
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': allowed.replace('  options: {allowNameChange: true}\n', '') })])).toEqual([]);
  });

  it('leaves out a policy annotated local-config with any value but "false", as kustomize does', async () => {
    const tree = (annotation: string) => ({ 'base/policy.yaml': POLICY.replace('metadata: {name: check}', `metadata: {name: check, annotations: {config.kubernetes.io/local-config: ${annotation}}}`), 'base/binding.yaml': binding('a-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n', 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n' });
    for (const value of ['"true"', '"True"', '""']) expect(await findings([folder(tree(value))])).toEqual(['binding-without-policy error']);
    expect(await findings([folder(tree('"false"'))])).toEqual([]);
    // ... also when a patch of its metadata adds the annotation.
    const base = { 'base/policy.yaml': POLICY, 'base/binding.yaml': binding('a-check'), 'base/kustomization.yaml': 'resources:\n- policy.yaml\n- binding.yaml\n' };
    const dropped = "namePrefix: a-\nresources:\n- ../base\npatches:\n- target: {kind: ValidatingAdmissionPolicy, name: check}\n  patch: '[{\"op\": \"add\", \"path\": \"/metadata/annotations\", \"value\": {\"config.kubernetes.io/local-config\": \"true\"}}]'\n";
    expect(await findings([folder({ ...base, 'a/kustomization.yaml': dropped })])).toEqual(['binding-without-policy error']);
  });

  it('gives the names of each top build, a base\'s prefix inside its overlay\'s, and stops on cycles', () => {
    const listing = (file: string, resources: string[], namePrefix?: string, moves?: true) => ({ file, resources, transformsAfterPatches: false, renames: namePrefix !== undefined || moves === true, ...(namePrefix === undefined ? {} : { namePrefix }), ...(moves === undefined ? {} : { moves }) });
    const names = new KustomizeNames([
      listing('/t/base/kustomization.yaml', ['/t/base/p.yaml'], 'base-'),
      listing('/t/prod/kustomization.yaml', ['/t/base'], 'prod-', true),
      listing('/t/dev/kustomization.yaml', ['/t/base'], 'dev-'),
      listing('/t/loop/kustomization.yaml', ['/t/prod', '/t/loop']),
      listing('/t/x/kustomization.yaml', ['/t/y']),
      listing('/t/y/kustomization.yaml', ['/t/x', '/t/y/q.yaml']),
    ]);
    expect(names.buildsOf('/t/base/p.yaml')).toEqual([
      { root: '/t/loop/kustomization.yaml', prefix: 'prod-base-', suffix: '', moves: true },
      { root: '/t/dev/kustomization.yaml', prefix: 'dev-base-', suffix: '', moves: false },
    ]);
    // Folders that list each other: no top build.
    expect(names.buildsOf('/t/y/q.yaml')).toEqual([]);
    expect(names.topBuildsOf('/t/elsewhere.yaml')).toEqual([]);
  });

  it('says when the names of a build are not known (a component is on the way)', () => {
    const names = new KustomizeNames([
      { file: '/c/base/kustomization.yaml', resources: ['/c/base/w.yaml'], transformsAfterPatches: false, renames: false },
      { file: '/c/top/kustomization.yaml', resources: ['/c/base', '/c/component'], transformsAfterPatches: false, renames: false, hasComponents: true },
    ]);
    expect(names.topBuildsOf('/c/base/w.yaml')).toBeUndefined();
    expect(names.buildsOf('/c/base/w.yaml')).toEqual([]);
  });
});

describe('a patch selects an object by the name it has where the patch runs', () => {
  const webhook = (name: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: ${name}}
webhooks:
  - name: ${name}.example.com
    failurePolicy: Ignore
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig: {url: "https://webhook.example.com/validate"}
    namespaceSelector: {matchLabels: {team: a}}
    rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
`;
  const patched = async (paths: string[]): Promise<string[]> => {
    return (await lintOnly(paths, ['kustomize-patched'])).map((f) => `${f.file.replace(/^.*?config\//, '')}:${f.line} ${f.object?.name ?? ''}`);
  };
  const patch = (name: string): string => `resources:\n- ../base\npatches:\n- target: {kind: ValidatingWebhookConfiguration, name: '${name}'}\n  patch: '[{"op": "remove", "path": "/webhooks/0/namespaceSelector"}]'\n`;

  it("an overlay's patch of the name a base's namePrefix gives", async () => {
    const tree = {
      'config/base/webhooks.yaml': `${webhook('vwc')}---\n${webhook('other')}`,
      'config/base/kustomization.yaml': 'namePrefix: app-\nresources:\n- webhooks.yaml\n',
      'config/overlay/kustomization.yaml': patch('app-vwc'),
    };
    expect(await patched([folder(tree)])).toEqual(['base/webhooks.yaml:3 vwc']);
    // The name as written is not the one the overlay sees, nor is a prefix no build gives.
    expect(await patched([folder({ ...tree, 'config/overlay/kustomization.yaml': patch('dev-vwc') })])).toEqual([]);
  });

  it('a Namespace keeps its name under namePrefix: a patch of the prefixed name selects nothing (attack s47b C)', async () => {
    const tree = (name: string): Record<string, string> => ({
      'config/base/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: system}\n',
      'config/base/kustomization.yaml': 'namePrefix: b-\nresources:\n- ns.yaml\n',
      'config/overlay/kustomization.yaml': `resources:\n- ../base\npatches:\n- target: {kind: Namespace, name: ${name}}\n  patch: '[{"op": "add", "path": "/metadata/labels", "value": {"a": "b"}}]'\n`,
    });
    expect(await patched([folder(tree('b-system'))])).toEqual([]);
    expect(await patched([folder(tree('system'))])).toEqual(['base/ns.yaml:3 system']);
  });

  it('a pattern, anchored, on every name on the way: a DNS name selects itself, not its siblings', async () => {
    const tree = {
      'config/base/webhooks.yaml': `${webhook('a.example.io')}---\n${webhook('b.example.io')}`,
      'config/base/kustomization.yaml': 'resources:\n- webhooks.yaml\n',
      'config/overlay/kustomization.yaml': patch('a.example.io'),
    };
    expect(await patched([folder(tree)])).toEqual(['base/webhooks.yaml:3 a.example.io']);
    expect(await patched([folder({ ...tree, 'config/base/kustomization.yaml': 'namePrefix: x-\nresources:\n- webhooks.yaml\n', 'config/overlay/kustomization.yaml': patch('x-.*') })])).toEqual(['base/webhooks.yaml:3 a.example.io', 'base/webhooks.yaml:15 b.example.io']);
  });
});

describe('the names a patch sees are those the kustomizations below it give (attack s47a)', () => {
  const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-svc, namespace: webhook-system}\nspec:\n  selector: {app: webhook}\n  ports:\n  - port: 8443\n    targetPort: 9443\n';
  const CALLER = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: vwc}
webhooks:
  - name: vwc.example.com
    failurePolicy: Ignore
    admissionReviewVersions: [v1]
    sideEffects: None
    timeoutSeconds: 5
    clientConfig:
      service: {name: webhook-svc, namespace: webhook-system, path: /validate}
    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, webhook-system]}]}
    rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets], scope: Namespaced}]
`;
  const servicePatch = (name: string, field = 'patches'): string => `${field}:\n- target: {kind: Service, name: '${name}'}\n  patch: '[{"op": "replace", "path": "/spec/ports/0/port", "value": 443}]'\n`;
  const portErrors = async (paths: string[]): Promise<string[]> => {
    return (await lintOnly(paths, ['webhook-service-port'])).map((f) => `${f.ruleId} ${f.severity}`);
  };
  const PORT_ERROR = ['webhook-service-port error'];

  it("a patches target runs before its own kustomization's namePrefix; a legacy patchesJson6902 after it (H1)", async () => {
    const own = (patches: string): Record<string, string> => ({ 'k/all.yaml': `${SERVICE}---\n${CALLER}`, 'k/kustomization.yaml': `namePrefix: prod-\nresources:\n- all.yaml\n${patches}` });
    // kubectl kustomize leaves the port 8443: the target names the Service as the prefix makes it, after the patch ran.
    expect(await portErrors([folder(own(servicePatch('prod-webhook-svc')))])).toEqual(PORT_ERROR);
    expect(await portErrors([folder(own(servicePatch('webhook-svc')))])).toEqual([]);
    expect(await portErrors([folder(own(servicePatch('prod-webhook-svc', 'patchesJson6902')))])).toEqual([]);
  });

  it("an overlay's patch sees the base's names, not a sibling overlay's (H1)", async () => {
    const tree = {
      'base/all.yaml': `${SERVICE}---\n${CALLER}`,
      'base/kustomization.yaml': 'resources:\n- all.yaml\n',
      'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n',
      'b/kustomization.yaml': `resources:\n- ../base\n${servicePatch('a-webhook-svc')}`,
    };
    expect(await portErrors([folder(tree)])).toEqual(PORT_ERROR);
    expect(await portErrors([folder({ ...tree, 'b/kustomization.yaml': `resources:\n- ../a\n${servicePatch('a-webhook-svc')}` })])).toEqual([]);
  });

  it('a rendered stream is found by the path its kustomization lists (H2), and a folder the run was not given leaves the names unknown (H3)', async () => {
    const rendered = `---\n# Source: chart/templates/service.yaml\n${SERVICE}---\n# Source: chart/templates/webhook.yaml\n${CALLER}`;
    const helm = { 'base/rendered.yaml': rendered, 'base/kustomization.yaml': 'namePrefix: app-\nresources:\n- rendered.yaml\n', 'overlay/kustomization.yaml': `resources:\n- ../base\n${servicePatch('.*-webhook-svc')}` };
    expect(await portErrors([folder(helm)])).toEqual([]);
    const root = folder({
      'base/all.yaml': `${SERVICE}---\n${CALLER}`,
      'base/kustomization.yaml': 'resources:\n- all.yaml\n',
      'mid/kustomization.yaml': 'namePrefix: mid-\nresources:\n- ../base\n',
      'top/kustomization.yaml': `resources:\n- ../mid\n${servicePatch('mid-webhook-.*')}`,
    });
    expect(await portErrors([root])).toEqual([]);
    expect(await portErrors([join(root, 'top'), join(root, 'base')])).toEqual([]);
  });

  it('a legacy patchesJson6902 sees the name where it runs, not a base\'s; a replacement any name the object had; every copy must be patched (attack s47b A, B, D)', async () => {
    const base = { 'base/all.yaml': `${SERVICE}---\n${CALLER}`, 'base/kustomization.yaml': 'namePrefix: b-\nresources:\n- all.yaml\n' };
    // A: under overlay o-, the Service is o-b-webhook-svc when the legacy patch runs: b-webhook-svc selects nothing.
    expect(await portErrors([folder({ ...base, 'overlay/kustomization.yaml': `namePrefix: o-\nresources:\n- ../base\n${servicePatch('b-webhook-svc', 'patchesJson6902')}` })])).toEqual(PORT_ERROR);
    expect(await portErrors([folder({ ...base, 'overlay/kustomization.yaml': `namePrefix: o-\nresources:\n- ../base\n${servicePatch('o-b-webhook-svc', 'patchesJson6902')}` })])).toEqual([]);
    // B: a replacement two levels up selects by a name the object had on the way.
    const replaced = `resources:\n- ../mid\nreplacements:\n- source: {kind: ValidatingWebhookConfiguration, name: vwc, fieldPath: webhooks.0.clientConfig.service.port}\n  targets:\n  - select: {kind: Service, name: b-webhook-svc}\n    fieldPaths: [spec.ports.0.port]\n`;
    expect(await portErrors([folder({ ...base, 'mid/kustomization.yaml': 'namePrefix: m-\nresources:\n- ../base\n', 'top/kustomization.yaml': replaced })])).toEqual([]);
    // D: a base built as a- and b- copies, the patch of one copy leaves the other calling the wrong port.
    const twice = { 'base/all.yaml': `${SERVICE}---\n${CALLER}`, 'base/kustomization.yaml': 'resources:\n- all.yaml\n', 'a/kustomization.yaml': 'namePrefix: a-\nresources:\n- ../base\n', 'b/kustomization.yaml': 'namePrefix: b-\nresources:\n- ../base\n' };
    expect(await portErrors([folder({ ...twice, 'top/kustomization.yaml': `resources:\n- ../a\n- ../b\n${servicePatch('a-webhook-svc')}` })])).toEqual(PORT_ERROR);
    expect(await portErrors([folder({ ...twice, 'top/kustomization.yaml': `resources:\n- ../a\n- ../b\n${servicePatch('.-webhook-svc')}` })])).toEqual([]);
    // Patches of different texts change the copies differently: one moves a- to 443, the other only labels b- (attack s47d 4a).
    const labelB = `- target: {kind: Service, name: 'b-webhook-svc'}\n  patch: '[{"op": "add", "path": "/metadata/labels", "value": {"a": "b"}}]'\n`;
    expect(await portErrors([folder({ ...twice, 'top/kustomization.yaml': `resources:\n- ../a\n- ../b\n${servicePatch('a-webhook-svc')}${labelB}` })])).toEqual(PORT_ERROR);
    // One patch per copy (attack s47c 9): together they patch every copy.
    expect(await portErrors([folder({ ...twice, 'top/kustomization.yaml': `resources:\n- ../a\n- ../b\n${servicePatch('a-webhook-svc')}${servicePatch('b-webhook-svc').replace('patches:\n', '')}` })])).toEqual([]);
  });

  it('a prefixed literal name selects where the builds are not followed (a component: attack s47b F)', async () => {
    const tree = {
      'base/all.yaml': `${SERVICE}---\n${CALLER}`,
      'base/kustomization.yaml': 'namePrefix: app-\nresources:\n- all.yaml\n',
      'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
      'top/kustomization.yaml': `resources:\n- ../base\ncomponents:\n- ../comp\n${servicePatch('app-webhook-svc')}`,
    };
    expect(await portErrors([folder(tree)])).toEqual([]);
  });

  it('a replacement selects by whole values, not regular expressions (kustomize compares them)', async () => {
    const replacement = (name: string): string => `replacements:\n- source: {kind: Service, name: webhook-svc, fieldPath: metadata.name}\n  targets:\n  - select: {kind: Service, name: '${name}'}\n    fieldPaths: [spec.ports.0.port]\n`;
    const tree = (name: string): Record<string, string> => ({ 'k/all.yaml': `${SERVICE}---\n${CALLER}`, 'k/kustomization.yaml': `resources:\n- all.yaml\n${replacement(name)}` });
    expect(await portErrors([folder(tree('webhook-.*'))])).toEqual(PORT_ERROR);
    expect(await portErrors([folder(tree('webhook-svc'))])).toEqual([]);
  });
});
