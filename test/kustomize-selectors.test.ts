/**
 * Webhooks judged with the selectors their kustomization's patches give them, where the build is
 * certain (src/match/kustomize-selectors.ts): the kubebuilder layout, controller-gen's webhooks
 * without selectors and a patch beside them that adds one.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('kustomize-selectors-test');

const ONLY = ['matches-kube-system', 'self-deadlock', 'kustomize-patched'];

async function findings(paths: string[]): Promise<string[]> {
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => !ONLY.includes(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
  const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' });
  return report.findings.map((f) => `${f.ruleId} ${f.severity}: ${f.message.replace(/ at \/[^\s:]+:\d+/, ' at …')}`);
}

/**
 * controller-gen's output as generated: a pod mutator with Fail and no selector, served from
 * namespace `system`, with no CA bundle (self-deadlock: an info until a build moves it).
 */
const GENERATED = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /mutate-pods}
  failurePolicy: Fail
  name: sidecar-injector.example.com
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  sideEffects: None
`;
/**
 * The same with a CA bundle written in (as a project that commits its injected bundle has it): no
 * longer as generated, so the tests of which patches are certain see it judged as written.
 */
const MANIFESTS = GENERATED.replace('  clientConfig:\n', '  clientConfig:\n    caBundle: Cg==\n');
const OPT_IN = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
  - name: sidecar-injector.example.com
    objectSelector:
      matchLabels:
        example.com/inject: enabled
`;
const kustomization = (patches: string, resources = '- manifests.yaml'): string => `resources:\n${resources}\npatches:\n${patches}`;
/** The webhook folder with its opt-in patch. */
const withOptIn = (): Record<string, string> => ({ 'webhook/manifests.yaml': MANIFESTS, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'), 'webhook/opt-in.yaml': OPT_IN });

describe('webhook selectors set by a kustomize patch', () => {
  it('judges the webhook as built when a strategic-merge patch beside it adds an opt-in selector', async () => {
    const unpatched = folder({ 'config/webhook/manifests.yaml': MANIFESTS });
    expect(await findings([join(unpatched, 'config/webhook/manifests.yaml')])).toEqual([
      'matches-kube-system error: webhook "sidecar-injector.example.com" intercepts pods (core) in kube-system with failurePolicy Fail',
      'self-deadlock error: webhook "sidecar-injector.example.com" intercepts CREATE of pods in its own Service\'s namespace system with failurePolicy Fail',
    ]);
    const dir = folder({ 'config/webhook/manifests.yaml': MANIFESTS, 'config/webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'), 'config/webhook/opt-in.yaml': OPT_IN });
    // The file alone (its folder's kustomization is read) and the folder give the same verdict.
    for (const path of ['config/webhook/manifests.yaml', 'config/webhook']) {
      expect(await findings([join(dir, path)])).toEqual([
        'kustomize-patched info: MutatingWebhookConfiguration "mutating-webhook-configuration" is changed by the kustomize patch at …: findings here judge it unpatched, but for the webhook selectors it sets',
      ]);
    }
  });

  it('reads a patch that repeats the webhook\'s clientConfig (a controller-gen copy): same Service namespace, patched; another, as written', async () => {
    const repeating = (namespace: string) => OPT_IN.replace('  - name: sidecar-injector.example.com\n', `  - name: sidecar-injector.example.com\n    clientConfig:\n      service: {name: webhook-service, namespace: ${namespace}, path: /mutate-pods}\n`);
    const tree = (namespace: string) => folder({ 'config/webhook/manifests.yaml': MANIFESTS, 'config/webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'), 'config/webhook/opt-in.yaml': repeating(namespace) });
    expect(await findings([join(tree('system'), 'config/webhook')])).toEqual([
      'kustomize-patched info: MutatingWebhookConfiguration "mutating-webhook-configuration" is changed by the kustomize patch at …: findings here judge it unpatched, but for the webhook selectors it sets',
    ]);
    const moved = await findings([join(tree('elsewhere'), 'config/webhook')]);
    expect(moved.filter((line) => line.includes(' error: '))).toHaveLength(2);
  });

  it('reads a patch that repeats settings the webhook has, and a Service patch that leaves the Service in place (hold-out 18: marin3r)', async () => {
    const patchedInfo = ['kustomize-patched info: MutatingWebhookConfiguration "mutating-webhook-configuration" is changed by the kustomize patch at …: findings here judge it unpatched, but for the webhook selectors it sets'];
    const repeating = (settings: string) => OPT_IN.replace('  - name: sidecar-injector.example.com\n', `  - name: sidecar-injector.example.com\n${settings}`);
    const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}], selector: {app: old}}\n';
    const tree = (settings: string, servicePatch = ''): string =>
      folder({
        'config/webhook/manifests.yaml': MANIFESTS,
        'config/webhook/service.yaml': service,
        'config/webhook/kustomization.yaml': kustomization(`- path: opt-in.yaml${servicePatch}`, '- manifests.yaml\n- service.yaml'),
        'config/webhook/opt-in.yaml': repeating(settings),
      });
    const errors = async (dir: string): Promise<number> => (await findings([join(dir, 'config/webhook')])).filter((line) => line.includes(' error: ')).length;
    // The API's defaults (matchPolicy Equivalent, reinvocationPolicy Never) and the written Fail, repeated: patched.
    expect(await findings([join(tree('    matchPolicy: Equivalent\n    reinvocationPolicy: Never\n    failurePolicy: Fail\n'), 'config/webhook')])).toEqual(patchedInfo);
    // A setting that differs from the webhook's changes what it does: judged as written.
    expect(await errors(tree('    matchPolicy: Exact\n'))).toBe(2);
    expect(await errors(tree('    failurePolicy: Ignore\n'))).toBe(2);
    // A strategic merge of the Service keeps its name and namespace (kustomize restores them, even
    // those a targeted patch writes; kubectl kustomize v1.32 checked): patched.
    const selectorPatch = "\n- patch: |-\n    apiVersion: v1\n    kind: Service\n    metadata: {name: webhook-service, namespace: system}\n    spec: {selector: {app: new}}";
    expect(await findings([join(tree('', selectorPatch), 'config/webhook')])).toEqual(patchedInfo);
    const targeted = "\n- target: {kind: Service, name: webhook-service}\n  patch: |-\n    apiVersion: v1\n    kind: Service\n    metadata: {name: other, namespace: elsewhere}\n    spec: {selector: {app: new}}";
    expect(await findings([join(tree('', targeted), 'config/webhook')])).toEqual(patchedInfo);
    // A JSON 6902 patch that moves it, or a strategic merge allowed to rename it: as written.
    const moving = `\n- target: {kind: Service, name: webhook-service}\n  patch: '[{"op": "replace", "path": "/metadata/namespace", "value": "elsewhere"}]'`;
    expect(await errors(tree('', moving))).toBe(2);
    // kustomize's JSON patch drops a path's first segment whatever it says: `x/metadata/namespace` moves it (s40 H1).
    const sloppy = `\n- target: {kind: Service, name: webhook-service}\n  patch: '[{"op": "replace", "path": "x/metadata/namespace", "value": "elsewhere"}]'`;
    expect(await errors(tree('', sloppy))).toBe(2);
    const moveFrom = (from: string, path = '/spec/selector/n'): string => `\n- target: {kind: Service, name: webhook-service}\n  patch: '[{"op": "move", "from": "${from}", "path": "${path}"}]'`;
    expect(await errors(tree('', moveFrom('/metadata/namespace')))).toBe(2);
    // (A copy only reads its `from`; a move of another field leaves the Service where it is.)
    expect(await findings([join(tree('', moveFrom('/metadata/namespace').replace('"move"', '"copy"')), 'config/webhook')])).toEqual(patchedInfo);
    expect(await findings([join(tree('', moveFrom('/spec/selector/app')), 'config/webhook')])).toEqual(patchedInfo);
    const renaming = `\n- options: {allowNameChange: true}\n  patch: |-\n    apiVersion: v1\n    kind: Service\n    metadata: {name: webhook-service}\n    spec: {selector: {app: new}}`;
    expect(await errors(tree('', renaming))).toBe(2);
  });

  it('gives wildcard-rule and critical-resources the patched selectors too (hold-out 12: a */* webhook made opt-in by its patch)', async () => {
    const everything = MANIFESTS.replace('operations: [CREATE], resources: [pods]}', 'operations: [CREATE, UPDATE], resources: ["*"]}').replace('apiGroups: [""], apiVersions: [v1]', 'apiGroups: ["*"], apiVersions: ["*"]');
    const all = async (paths: string[]): Promise<string[]> => {
      const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      return report.findings.filter((f) => ['wildcard-rule', 'critical-resources', 'matches-kube-system', 'self-deadlock'].includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity}`);
    };
    const unpatched = folder({ 'manifests.yaml': everything });
    expect(await all([join(unpatched, 'manifests.yaml')])).toEqual(['wildcard-rule error']);
    const dir = folder({ 'manifests.yaml': everything, 'kustomization.yaml': kustomization('- path: opt-in.yaml'), 'opt-in.yaml': OPT_IN });
    expect(await all([dir])).toEqual([]);
  });

  it('still reports what the patched selectors leave in, saying they are patched', async () => {
    // A JSON 6902 replace of the namespaceSelector with a label kube-system lacks: it is still selected.
    const ops = `- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}
  patch: |-
    - op: add
      path: /webhooks/0/namespaceSelector
      value: {matchExpressions: [{key: control-plane, operator: DoesNotExist}]}
`;
    const dir = folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(ops) });
    const found = await findings([join(dir, 'manifests.yaml')]);
    expect(found.filter((f) => f.startsWith('matches-kube-system'))).toEqual([
      'matches-kube-system error: webhook "sidecar-injector.example.com" intercepts pods (core) in kube-system with failurePolicy Fail (selectors as patched at …)',
    ]);
  });

  it('judges the webhook as written where the build is not certain', async () => {
    const unpatched = ['matches-kube-system error', 'self-deadlock error'];
    const verdicts = async (files: Record<string, string>): Promise<string[]> => (await findings([join(folder(files), 'manifests.yaml')])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    // A kustomization that does not list the file among its resources.
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: opt-in.yaml', '- other.yaml'), 'opt-in.yaml': OPT_IN })).toEqual(unpatched);
    // A target by regular expression.
    const regex = '- target: {kind: MutatingWebhookConfiguration, name: "mutating-.*"}\n  path: opt-in.yaml\n';
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(regex), 'opt-in.yaml': OPT_IN })).toEqual(unpatched);
    // A path inside a selector, or the whole webhook.
    for (const path of ['/webhooks/0/objectSelector/matchLabels', '/webhooks/0']) {
      const inside = `- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: add\n      path: ${path}\n      value: {}\n`;
      expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(inside) })).toEqual(unpatched);
    }
    // A strategic merge with a directive, or naming a webhook the configuration lacks.
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: opt-in.yaml'), 'opt-in.yaml': OPT_IN.replace('    objectSelector:', '    $patch: replace\n    objectSelector:') })).toEqual(unpatched);
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: opt-in.yaml'), 'opt-in.yaml': OPT_IN.replace('name: sidecar-injector', 'name: other-injector') })).toEqual(unpatched);
    // An unreadable patch file.
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: missing.yaml') })).toEqual(unpatched);
    // A target that also names another version or group, or a namespace (kustomize matches those too).
    for (const extra of ['version: v1beta1', 'group: apps', 'namespace: system']) {
      const qualified = `- target: {${extra}, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  path: opt-in.yaml\n`;
      expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(qualified), 'opt-in.yaml': OPT_IN })).toEqual(unpatched);
    }
    // The object's own group and version select it alone, as kind and name do (hold-out 12).
    const own = '- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  path: opt-in.yaml\n';
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(own), 'opt-in.yaml': OPT_IN })).not.toEqual(unpatched);
    // A strategic-merge patch of another apiVersion.
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: opt-in.yaml'), 'opt-in.yaml': OPT_IN.replace('admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1') })).toEqual(unpatched);
    // Two patches (kustomize applies patchesStrategicMerge before patches: their order matters).
    const remove = '- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: remove\n      path: /webhooks/0/objectSelector\n';
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': `${kustomization(remove)}patchesStrategicMerge:\n- opt-in.yaml\n`, 'opt-in.yaml': OPT_IN })).toEqual(unpatched);
    // Replacements (or vars, transformers, components) run after the patches.
    expect(await verdicts({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\nreplacements:\n- path: r.yaml\n`, 'opt-in.yaml': OPT_IN })).toEqual(unpatched);
  });

  it('reads a rule\'s scope set by the patch, and a move that cannot change what the namespaceSelector answers (hold-out 12)', async () => {
    // kubebuilder's layout: a JSON 6902 patch by index gives a wildcard webhook a tenant
    // namespaceSelector and scope Namespaced; the default overlay moves and renames everything.
    const everything = MANIFESTS.replace('operations: [CREATE], resources: [pods]}', 'operations: [CREATE, UPDATE], resources: ["*"]}').replace('apiGroups: [""], apiVersions: [v1]', 'apiGroups: ["*"], apiVersions: ["*"]');
    const ops = (selector: string): string => `- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}
  patch: |-
    - op: add
      path: /webhooks/0/namespaceSelector
      value: ${selector}
    - op: add
      path: /webhooks/0/rules/0/scope
      value: Namespaced
`;
    const tree = (selector: string, extra: Record<string, string> = {}): string =>
      folder({
        'webhook/manifests.yaml': everything,
        'webhook/kustomization.yaml': `${kustomization(ops(selector))}configurations:\n- kustomizeconfig.yaml\n`,
        'webhook/kustomizeconfig.yaml': 'namespace:\n- kind: MutatingWebhookConfiguration\n  group: admissionregistration.k8s.io\n  path: webhooks/clientConfig/service/namespace\n  create: true\n',
        'manager/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: system\n  labels: {control-plane: controller-manager}\n',
        'manager/kustomization.yaml': 'resources:\n- namespace.yaml\n',
        'default/kustomization.yaml': 'namespace: widgets-system\nnamePrefix: widgets-\nresources:\n- ../manager\n- ../webhook\n',
        ...extra,
      });
    const all = async (paths: string[]): Promise<string[]> => {
      const report = await lint({ paths, rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      return report.findings.filter((f) => ['wildcard-rule', 'critical-resources', 'matches-kube-system', 'self-deadlock'].includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity}${f.message.includes('namespaced resource') ? ' namespaced' : ''}`);
    };
    // An opt-in label no Namespace of the run carries: it answers alike wherever the Service lands.
    expect(await all([tree('{matchExpressions: [{key: example.com/tenant, operator: Exists}]}')])).toEqual(['wildcard-rule warning namespaced']);
    expect((await findings([tree('{matchExpressions: [{key: example.com/tenant, operator: Exists}]}')])).filter((f) => f.startsWith('kustomize-patched'))).toEqual([
      'kustomize-patched info: MutatingWebhookConfiguration "mutating-webhook-configuration" is changed by the kustomize patch at …: findings here judge it unpatched, but for the webhook selectors and rule scopes it sets',
    ]);
    // A selector on the namespace's name answers by where the Service lands: judged as written.
    expect(await all([tree('{matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, system]}]}')])).toEqual(['wildcard-rule error']);
    // So does an opt-out: it selects a namespace without a manifest (labels unknown) apart from
    // one with (s37b A-3a).
    expect(await all([tree('{matchExpressions: [{key: example.com/skip, operator: DoesNotExist}]}')])).toEqual(['wildcard-rule error']);
    // Transformer configurations that write a label into the Namespace, spelled as Go reads them
    // whatever the case (`Path:`), may give it the opt-in label (s37b A-4a).
    const relabel = {
      'manager/kustomization.yaml': 'resources:\n- namespace.yaml\ncommonAnnotations: {example.com/tenant: "yes"}\nconfigurations:\n- kustomizeconfig.yaml\n',
      'manager/kustomizeconfig.yaml': 'commonAnnotations:\n- Path: metadata/labels\n  create: true\n',
    };
    expect(await all([tree('{matchExpressions: [{key: example.com/tenant, operator: Exists}]}', relabel)])).toEqual(['wildcard-rule error']);
    // A path whose later segment holds an escaped '/' (kubeflow's getambassador.io\/config) is read
    // as kustomize splits it: annotations, not labels (s37d 3-A).
    const escaped = { ...relabel, 'manager/kustomizeconfig.yaml': 'commonAnnotations:\n- path: metadata/annotations/getambassador.io\\/config\n  create: true\n' };
    expect(await all([tree('{matchExpressions: [{key: example.com/tenant, operator: Exists}]}', escaped)])).toEqual(['wildcard-rule warning namespaced']);
    // ... in kustomize's path forms too: a list marker after a name, a leading slash (s37c 5-A).
    for (const path of ['metadata/labels[]', '/metadata[]/labels']) {
      const marked = { ...relabel, 'manager/kustomizeconfig.yaml': `commonAnnotations:\n- path: ${path}\n  create: true\n` };
      expect(await all([tree('{matchExpressions: [{key: example.com/tenant, operator: Exists}]}', marked)])).toEqual(['wildcard-rule error']);
    }
  });

  it('names no patch of an admission object\'s annotations alone: no finding depends on them (hold-out 13)', async () => {
    const annotation = 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: mutating-webhook-configuration\n  annotations:\n    cert-manager.io/inject-ca-from: system/serving-cert\n';
    const dir = folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: ca.yaml'), 'ca.yaml': annotation });
    expect((await findings([dir])).filter((f) => f.startsWith('kustomize-patched'))).toEqual([]);
    // A delete of the annotation, or a patch of admission-lint's own, is named (s37d 1-B).
    const removal = '- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: remove\n      path: /metadata/annotations/cert-manager.io~1inject-ca-from\n';
    expect((await findings([folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization(removal) })])).filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
    const suppression = annotation.replace('cert-manager.io/inject-ca-from: system/serving-cert', 'admission-lint.dev/ignore: self-deadlock');
    expect((await findings([folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: s.yaml'), 's.yaml': suppression })])).filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
    // ... however the YAML spells it (an escape in a double-quoted key is read as kustomize reads it).
    const escaped = annotation.replace('cert-manager.io/inject-ca-from: system/serving-cert', '"admission\\x2Dlint.dev/ignore": self-deadlock');
    expect((await findings([folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- path: s.yaml'), 's.yaml': escaped })])).filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
    // A replacement that writes kustomize's local-config annotation takes the object out of the build: named (s37d 1-A).
    const localConfig = 'resources:\n- manifests.yaml\nreplacements:\n- source: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration, fieldPath: metadata.name}\n  targets:\n  - select: {kind: MutatingWebhookConfiguration}\n    fieldPaths: ["metadata.annotations.[config.kubernetes.io/local-config]"]\n    options: {create: true}\n';
    expect((await findings([folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': localConfig })])).filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
    // One that renames the object is named.
    const renamed = folder({ 'manifests.yaml': MANIFESTS, 'kustomization.yaml': kustomization('- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: replace\n      path: /metadata/name\n      value: other\n') });
    expect((await findings([renamed])).filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
  });

  it('has long-timeout ask critical-resources about the patched webhook, as it judges it (s37b A-5a)', async () => {
    const slow = MANIFESTS.replace('failurePolicy: Fail', 'failurePolicy: Ignore\n  timeoutSeconds: 30').replace('operations: [CREATE], resources: [pods]}', 'operations: [CREATE, UPDATE], resources: [pods]}');
    const dir = folder({ 'manifests.yaml': slow, 'kustomization.yaml': kustomization('- path: opt-in.yaml'), 'opt-in.yaml': OPT_IN });
    const report = await lint({ paths: [dir], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
    expect(report.findings.filter((f) => ['long-timeout', 'critical-resources', 'matches-kube-system'].includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['long-timeout warning']);
  });

  it('makes infos of what only the unpatched build has when an overlay patches the base folder (kubebuilder\'s config/default, hold-out 14)', async () => {
    const opsPatch = (value: string, path = '/webhooks/0/objectSelector'): string =>
      `- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: add\n      path: ${path}\n      value: ${value}\n`;
    const tree = (overlayPatches: string, extra: Record<string, string> = {}): string =>
      folder({
        'config/webhook/manifests.yaml': MANIFESTS,
        'config/webhook/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}]}\n',
        'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n- service.yaml\n',
        'config/default/kustomization.yaml': `namespace: widgets-system\nnamePrefix: widgets-\nresources:\n- ../webhook\npatches:\n${overlayPatches}`,
        // The repository's root: every kustomization in it is read by a lint of the tree.
        '.git/HEAD': 'ref: refs/heads/main\n',
        ...extra,
      });
    const verdict = async (dir: string): Promise<string[]> => (await findings([dir])).filter((f) => !f.startsWith('kustomize-patched'));
    // The overlay's build sends only labelled pods: kube-system's and its own are not sent.
    const optIn = await verdict(tree(opsPatch('{matchLabels: {example.com/inject: enabled}}')));
    expect(optIn).toEqual([
      'matches-kube-system info: webhook "sidecar-injector.example.com" intercepts pods (core) in kube-system with failurePolicy Fail (unpatched: the kustomize patch at … changes its selectors in the build that applies it)',
      'self-deadlock info: webhook "sidecar-injector.example.com" intercepts CREATE of pods in its own Service\'s namespace system with failurePolicy Fail (unpatched: the kustomize patch at … changes its selectors in the build that applies it)',
    ]);
    // A patch that leaves kube-system in (an opt-out on a label it lacks): that error is true of every build.
    const optOut = await verdict(tree(opsPatch('{matchExpressions: [{key: example.com/skip, operator: DoesNotExist}]}', '/webhooks/0/namespaceSelector')));
    expect(optOut.map((f) => f.split(':')[0])).toContain('matches-kube-system error');
    // The fix the rule's help gives, excluding kube-system and the webhook's namespace by name: where
    // the overlay's `namespace:` moves the Service, self-deadlock cannot tell (as written), but
    // matches-kube-system judges kube-system by its name wherever the Service lands (s38c r3).
    const byName = await verdict(tree(opsPatch('{matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, widgets-system]}]}', '/webhooks/0/namespaceSelector')));
    expect(byName.map((f) => f.split(':')[0])).toEqual(['matches-kube-system info', 'self-deadlock error']);
    // ... but not when the tree writes kube-system's labels: the overlay's `namespace:` renames that
    // Namespace object, so the labels an opt-out patch relies on are not kube-system's (s38e 1).
    const kubeSystem = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n  labels: {example.com/skip: "true"}\n';
    const renamed = await verdict(tree(opsPatch('{matchExpressions: [{key: example.com/skip, operator: DoesNotExist}]}', '/webhooks/0/namespaceSelector'), { 'config/webhook/kube-system.yaml': kubeSystem, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n- service.yaml\n- kube-system.yaml\n' }));
    expect(renamed.map((f) => f.split(':')[0])).toContain('matches-kube-system error');
    // As written when: the base's own kustomization patches the object too; a second overlay
    // builds the base without the patch; the overlay also patches the kind by another name.
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    const severities = async (dir: string): Promise<string[]> => (await verdict(dir)).map((f) => f.split(':')[0]!);
    const patchedTwice = tree(opsPatch('{matchLabels: {example.com/inject: enabled}}'), {
      'config/webhook/kustomization.yaml': `resources:\n- manifests.yaml\n- service.yaml\npatches:\n${opsPatch('[]', '/webhooks/0/admissionReviewVersions')}`,
    });
    expect(await severities(patchedTwice)).toEqual(asWritten);
    expect(await severities(tree(opsPatch('{matchLabels: {example.com/inject: enabled}}'), { 'config/dev/kustomization.yaml': 'resources:\n- ../webhook\n' }))).toEqual(asWritten);
    const byPrefix = `${opsPatch('{matchLabels: {example.com/inject: enabled}}')}- target: {kind: MutatingWebhookConfiguration, name: widgets-mutating-webhook-configuration}\n  patch: '[{"op": "remove", "path": "/webhooks/0/objectSelector"}]'\n`;
    expect(await severities(tree(byPrefix))).toEqual(asWritten);
  });

  it('keeps the errors where the overlay is not the one build of the base, or its patch does not narrow the webhook (s38b)', async () => {
    const opsPatch = (op: string, value?: string, path = '/webhooks/0/objectSelector'): string =>
      `- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: ${op}\n      path: ${path}\n${value === undefined ? '' : `      value: ${value}\n`}`;
    const optIn = opsPatch('add', '{matchLabels: {example.com/inject: enabled}}');
    const base = (manifests = MANIFESTS): Record<string, string> => ({ '.git/HEAD': 'ref: refs/heads/main\n', 'config/webhook/manifests.yaml': manifests, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n' });
    const overlay = (patches: string): string => `namePrefix: widgets-\nresources:\n- ../webhook\npatches:\n${patches}`;
    const severities = async (dir: string, paths: string[] = [dir]): Promise<string[]> =>
      (await findings(paths)).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    // The control: the overlay alone builds the base, with an opt-in patch.
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn) }))).toEqual(['matches-kube-system info', 'self-deadlock info']);
    // 1: a later overlay lists the base's folder too (and the overlay): it builds the base unpatched.
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn), 'config/prod/kustomization.yaml': 'resources:\n- ../default\n- ../webhook\n' }))).toEqual(asWritten);
    // 2: a patch that removes a selector or a rule's scope widens the webhook.
    const scoped = MANIFESTS.replace('  failurePolicy: Fail\n', '  failurePolicy: Fail\n  namespaceSelector: {matchLabels: {example.com/team: a}}\n');
    const severitiesOfScoped = await severities(folder({ ...base(scoped), 'config/default/kustomization.yaml': overlay(opsPatch('remove', undefined, '/webhooks/0/namespaceSelector')) }));
    expect(severitiesOfScoped.every((f) => !f.endsWith('info'))).toBe(true);
    // 3: a namespaceSelector replaced by another that is not narrower (kube-system out, every other namespace in).
    const onlyKubeSystem = MANIFESTS.replace('  failurePolicy: Fail\n', '  failurePolicy: Fail\n  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [kube-system]}]}\n');
    const moved = await severities(folder({ ...base(onlyKubeSystem), 'config/default/kustomization.yaml': overlay(opsPatch('replace', '{matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}', '/webhooks/0/namespaceSelector')) }));
    expect(moved).toContain('matches-kube-system error');
    // 4: an opt-out objectSelector still sends unlabelled pods, the webhook's own among them.
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(opsPatch('add', '{matchExpressions: [{key: example.com/skip, operator: DoesNotExist}]}')) }))).toEqual(asWritten);
    // 5: a `kind: Kustomization` document in a file of another name is built by nothing; 6: two kustomization files, kustomize refuses.
    expect(await severities(folder({ ...base(), 'config/default/overlay.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${overlay(optIn)}` }))).toEqual(asWritten);
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn), 'config/default/Kustomization': overlay(optIn) }))).toEqual(asWritten);
    // 7: a sibling overlay the run did not read (only the two folders linted) may build the base unpatched.
    const partial = folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn), 'config/dev/kustomization.yaml': 'resources:\n- ../webhook\n' });
    expect(await severities(partial, [join(partial, 'config/webhook'), join(partial, 'config/default')])).toEqual(asWritten);
    const alone = folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn) });
    expect(await severities(alone, [join(alone, 'config/webhook'), join(alone, 'config/default')])).toEqual(['matches-kube-system info', 'self-deadlock info']);
    // s38c 1: an overlay elsewhere in the repository, not linted (deploy/prod), or no repository root to look in.
    const elsewhere = folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn), 'deploy/prod/kustomization.yaml': 'resources:\n- ../../config/webhook\n' });
    expect(await severities(elsewhere, [join(elsewhere, 'config')])).toEqual(asWritten);
    expect(await severities(elsewhere)).toEqual(asWritten);
    const { '.git/HEAD': _head, ...withoutRoot } = base();
    expect(await severities(folder({ ...withoutRoot, 'config/default/kustomization.yaml': overlay(optIn) }))).toEqual(asWritten);
    // s38c 2: an overlay kustomize refuses: a `test` operation (that may fail), a resource listed twice.
    const tested = `- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: test\n      path: /webhooks/0/name\n      value: other\n    - op: add\n      path: /webhooks/0/objectSelector\n      value: {matchLabels: {example.com/inject: enabled}}\n`;
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(tested) }))).toEqual(asWritten);
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(optIn).replace('- ../webhook\n', '- ../webhook\n- ../webhook\n') }))).toEqual(asWritten);
    // s38d 3: a `test` operation in another patch of the overlay.
    const otherTest = `${optIn}- target: {kind: Deployment, name: manager}\n  patch: |-\n    - op: test\n      path: /spec/replicas\n      value: 3\n`;
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(otherTest) }))).toEqual(asWritten);
    // s38d 1: a selector the API server rejects (`In` without values) narrows nothing that is built.
    expect(await severities(folder({ ...base(), 'config/default/kustomization.yaml': overlay(opsPatch('add', '{matchExpressions: [{key: example.com/inject, operator: In, values: []}]}')) }))).toEqual(asWritten);
  });

  it('keeps a finding the patched webhook has in another form (s38d 2: a scope patch turns pods into replicasets)', async () => {
    const twoRules = MANIFESTS.replace(
      '  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n',
      '  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n  - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [replicasets]}\n',
    );
    const scopePatch = `- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - op: add\n      path: /webhooks/0/rules/0/scope\n      value: Cluster\n`;
    const dir = folder({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'config/webhook/manifests.yaml': twoRules,
      'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n',
      'config/default/kustomization.yaml': `namePrefix: widgets-\nresources:\n- ../webhook\npatches:\n${scopePatch}`,
    });
    const found = (await findings([dir])).filter((f) => f.startsWith('self-deadlock'));
    expect(found.map((f) => f.split(':')[0])).toEqual(['self-deadlock error']);
  });

  it('judges the webhook as written when another kustomization lists its file, or the patch is an overlay of its folder', async () => {
    // Another kustomization lists the file itself, without the patch.
    const direct = folder({
      'webhook/manifests.yaml': MANIFESTS,
      'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'),
      'webhook/opt-in.yaml': OPT_IN,
      'all/kustomization.yaml': 'resources:\n- ../webhook/manifests.yaml\n',
    });
    const verdict = async (paths: string[]): Promise<string[]> => (await findings(paths)).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    expect(await verdict([direct])).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // An overlay that patches the base's folder: a second overlay of the same base may not.
    const overlays = folder({
      'base/manifests.yaml': MANIFESTS,
      'base/kustomization.yaml': 'resources:\n- manifests.yaml\n',
      'prod/kustomization.yaml': kustomization('- path: opt-in.yaml', '- ../base'),
      'prod/opt-in.yaml': OPT_IN,
      'dev/kustomization.yaml': 'resources:\n- ../base\n',
    });
    expect(await verdict([overlays])).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // A kustomization that builds on the folder's (an overlay) gets the patched webhook; one that
    // moves, renames or labels it (metadata only) keeps the patched objectSelector.
    const layered = (overlay: string, extra: Record<string, string> = {}): string =>
      folder({ 'webhook/manifests.yaml': MANIFESTS, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'), 'webhook/opt-in.yaml': OPT_IN, 'default/kustomization.yaml': overlay, ...extra });
    const moved = layered('namespace: widgets-system\nnamePrefix: widgets-\nresources:\n- ../webhook\n');
    expect(await verdict([moved])).toEqual([]);
    expect(await verdict([join(moved, 'webhook')])).toEqual([]);
    const helmLabels = 'apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: helm}\nlabels: {helm.sh/chart: x}\nfieldSpecs:\n- {path: metadata/labels, create: true}\n';
    expect(await verdict([layered('resources:\n- ../webhook\ntransformers:\n- labels.yaml\n', { 'default/labels.yaml': helmLabels })])).toEqual([]);
    expect(await verdict([layered('resources:\n- ../webhook\nvars:\n- {name: NS, objref: {kind: Service, version: v1, name: webhook-service}, fieldref: {fieldPath: metadata.namespace}}\n')])).toEqual([]);
    // kubebuilder's scaffold writes `fieldpath` (Go reads it as fieldPath): what vars hold is not read, only that they are there.
    expect(await verdict([layered('resources:\n- ../webhook\nvars:\n- {name: NS, objref: {kind: Service, version: v1, name: webhook-service}, fieldref: {fieldpath: metadata.namespace}}\n')])).toEqual([]);
    // An overlay that may change it after the base's patch: as written. A patch of the kind by any
    // name (the prefixed one, a pattern), a transformer that writes more than metadata, vars where
    // the file has `$(`, a namespace move under a namespaceSelector patch, an overlay of the overlay.
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    const byPrefixedName = `namePrefix: widgets-\nresources:\n- ../webhook\npatches:\n- target: {kind: MutatingWebhookConfiguration, name: widgets-mutating-webhook-configuration}\n  patch: '[{"op": "remove", "path": "/webhooks/0/objectSelector"}]'\n`;
    expect(await verdict([layered(byPrefixedName)])).toEqual(asWritten);
    expect(await verdict([layered(byPrefixedName.replace('{kind: MutatingWebhookConfiguration, name: widgets-mutating-webhook-configuration}', '{kind: ".*Configuration"}'))])).toEqual(asWritten);
    expect(await verdict([layered('resources:\n- ../webhook\ntransformers:\n- labels.yaml\n', { 'default/labels.yaml': helmLabels.replace('metadata/labels', 'webhooks/objectSelector/matchLabels') })])).toEqual(asWritten);
    expect(await verdict([layered('resources:\n- ../webhook\ntransformers:\n- labels.yaml\n', { 'default/labels.yaml': helmLabels.replace('fieldSpecs:\n- {path: metadata/labels, create: true}\n', '') })])).toEqual(asWritten);
    const varsOverlay = 'resources:\n- ../webhook\nvars:\n- {name: NS, objref: {kind: Service, version: v1, name: webhook-service}, fieldref: {fieldPath: metadata.namespace}}\n';
    expect(await verdict([layered(varsOverlay, { 'webhook/manifests.yaml': MANIFESTS.replace('path: /mutate-pods', 'path: /mutate-$(NS)') })])).toEqual(asWritten);
    // `vars` itself spelled in another case is still a field the linter would not read as such.
    expect(await verdict([layered(varsOverlay.replace('vars:', 'VARS:'), { 'webhook/manifests.yaml': MANIFESTS.replace('path: /mutate-pods', 'path: /mutate-$(NS)') })])).toEqual(asWritten);
    const byNamespace = OPT_IN.replace('objectSelector:', 'namespaceSelector:').replace('matchLabels:\n        example.com/inject: enabled', 'matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, system]}]');
    // (matches-kube-system judges kube-system by its name wherever the Service lands: an info, s38c r3.)
    expect(await verdict([layered('namespace: widgets-system\nresources:\n- ../webhook\n', { 'webhook/opt-in.yaml': byNamespace })])).toEqual(['matches-kube-system info', 'self-deadlock error']);
    expect(await verdict([layered('resources:\n- ../webhook\n', { 'prod/kustomization.yaml': `resources:\n- ../default\n${byPrefixedName.replace('namePrefix: widgets-\nresources:\n- ../webhook\n', '')}` })])).toEqual(asWritten);
    // An overlay of the overlay that patches a Service by its prefixed name; a component that
    // lists the base; the base itself a Component; an overlay the linter cannot parse; an overlay
    // behind a link out of the linted folder.
    expect(await verdict([layered('namePrefix: foo-\nresources:\n- ../webhook\n', { 'prod/kustomization.yaml': "resources:\n- ../default\npatches:\n- target: {kind: Service, name: foo-webhook-service}\n  patch: '[{\"op\": \"replace\", \"path\": \"/metadata/namespace\", \"value\": \"webhooks\"}]'\n" })])).toEqual(asWritten);
    expect(await verdict([layered('components:\n- ../comp\n', { 'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- ../webhook\n' })])).toEqual(asWritten);
    expect(await verdict([layered('namespace: webhooks\ncomponents:\n- ../webhook\n', { 'webhook/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n${kustomization('- path: opt-in.yaml')}` })])).toEqual(asWritten);
    expect(await verdict([layered('namespace: a\nnamespace: b\nresources:\n- ../webhook\n')])).toEqual(asWritten);
    const outside = folder({ 'ov/kustomization.yaml': 'resources:\n- ../../tree/webhook\n' });
    const linkedTree = layered('resources:\n- ../webhook\n');
    expect(await verdict([linkedTree])).toEqual([]);
    symlinkSync(join(outside, 'ov'), join(linkedTree, 'elsewhere'));
    expect(await verdict([linkedTree])).toEqual(asWritten);
    // ... also through `bases:`, and through a symbolic link to the folder.
    const viaBases = folder({ ...withOptIn(), 'all/kustomization.yaml': 'bases:\n- ../webhook/manifests.yaml\n' });
    expect(await verdict([viaBases])).toEqual(['matches-kube-system error', 'self-deadlock error']);
    const linked = folder({ ...withOptIn(), 'all/kustomization.yaml': 'resources:\n- ../link/manifests.yaml\n' });
    symlinkSync(join(linked, 'webhook'), join(linked, 'link'));
    expect(await verdict([join(linked, 'webhook'), join(linked, 'all')])).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // The patching kustomization moves (a selector may name the old namespace): as written. A
    // prefix or suffix of its own renames after its patches (kustomize runs `patches` before the
    // prefix, legacy patchesJson6902 after it, with targets read without it): patched.
    expect(await verdict([folder({ ...withOptIn(), 'webhook/kustomization.yaml': `namespace: foo-system\n${kustomization('- path: opt-in.yaml')}` })])).toEqual(['matches-kube-system error', 'self-deadlock error']);
    for (const field of ['namePrefix: foo-', 'nameSuffix: -foo']) {
      expect(await verdict([folder({ ...withOptIn(), 'webhook/kustomization.yaml': `${field}\n${kustomization('- path: opt-in.yaml')}` })])).toEqual([]);
    }
    // Replacements that write only metadata (cert-manager's annotation) or other kinds keep it certain; one that may write a webhook's spec does not.
    const replacements = (fieldPath: string, kind = 'MutatingWebhookConfiguration'): string =>
      `replacements:\n- source: {kind: Certificate, name: serving-cert, fieldPath: .metadata.namespace}\n  targets:\n  - select: {kind: ${kind}}\n    fieldPaths: [${fieldPath}]\n`;
    const withReplacements = (text: string): Record<string, string> => ({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\n${text}` });
    expect(await verdict([folder(withReplacements(replacements('".metadata.annotations.[cert-manager.io/inject-ca-from]"')))])).toEqual([]);
    expect(await verdict([folder(withReplacements(replacements('.spec.dnsNames.0', 'Certificate')))])).toEqual([]);
    expect(await verdict([folder(withReplacements(replacements('.webhooks.0.objectSelector.matchLabels.x')))])).toEqual(['matches-kube-system error', 'self-deadlock error']);
  });

  it('judges the webhook as written when its own kustomization may rewrite the selectors or move the Service after the patch', async () => {
    const verdict = async (files: Record<string, string>): Promise<string[]> =>
      (await findings([folder(files)])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const own = (extra: string, patches = '- path: opt-in.yaml'): Record<string, string> => ({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization(patches)}\n${extra}` });
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    // labels with fields of their own (they may write into the objectSelector): as written.
    expect(await verdict(own('labels:\n- pairs: {component: kube-apiserver}\n  fields:\n  - {path: webhooks/objectSelector/matchLabels, kind: MutatingWebhookConfiguration, create: true}\n'))).toEqual(asWritten);
    // configurations that name a selector, or cannot be read: as written; the scaffold's nameReference ones: patched.
    expect(await verdict({ ...own('configurations:\n- kc.yaml\n'), 'webhook/kc.yaml': 'images:\n- path: webhooks/objectSelector/matchExpressions/operator\n  kind: MutatingWebhookConfiguration\n' })).toEqual(asWritten);
    expect(await verdict(own('configurations:\n- missing.yaml\n'))).toEqual(asWritten);
    expect(await verdict({ ...own('configurations:\n- kc.yaml\n'), 'webhook/kc.yaml': 'nameReference:\n- kind: Service\n  version: v1\n  fieldSpecs:\n  - {kind: MutatingWebhookConfiguration, path: webhooks/clientConfig/service/name}\n' })).toEqual([]);
    // A namespaceSelector patch beside another patch that moves the Service: as written; beside a rename: patched.
    const byNamespace = OPT_IN.replace('objectSelector:', 'namespaceSelector:').replace('matchLabels:\n        example.com/inject: enabled', 'matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, system]}]');
    const moved = `- path: opt-in.yaml\n- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: '[{"op": "replace", "path": "/webhooks/0/clientConfig/service/namespace", "value": "prod"}]'`;
    const renamed = `- path: opt-in.yaml\n- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: '[{"op": "replace", "path": "/metadata/name", "value": "injector"}]'`;
    expect(await verdict({ ...own('', moved), 'webhook/opt-in.yaml': byNamespace })).toEqual(asWritten);
    expect(await verdict({ ...own('', renamed), 'webhook/opt-in.yaml': byNamespace })).toEqual([]);
    // Another patch that renames a webhook (the selector would land on a stub of the old name): as written.
    const webhookRenamed = `- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: '[{"op": "replace", "path": "/webhooks/0/name", "value": "renamed.example.com"}]'\n- path: opt-in.yaml`;
    expect(await verdict(own('', webhookRenamed))).toEqual(asWritten);
    // A configuration that spells a selector with an escape: read as YAML, as written.
    expect(await verdict({ ...own('configurations:\n- kc.yaml\n'), 'webhook/kc.yaml': 'commonLabels:\n- path: "webhooks/object\\x53elector/matchLabels"\n  kind: MutatingWebhookConfiguration\n' })).toEqual(asWritten);
  });

  it('judges the webhook as written when an overlay the run holds cannot be read, or sits alone in its folder as Kustomization', async () => {
    const verdict = async (files: Record<string, string>): Promise<string[]> =>
      (await findings([folder(files)])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    expect(await verdict({ ...withOptIn(), 'prod/Kustomization': 'resources:\n- ../webhook\npatches:\n- target: {kind: MutatingWebhookConfiguration}\n  patch: \'[{"op": "replace", "path": "/webhooks/0/failurePolicy", "value": "Fail"}]\'\n' })).toEqual(asWritten);
    expect(await verdict({ ...withOptIn(), 'prod/kustomization.yaml': `resources:\n- ../webhook\n${'# padding\n'.repeat(120_000)}` })).toEqual(asWritten);
    // kustomize reads its files with go-yaml, which merges `<<` keys: what a merge holds (an
    // overlay's resources and patches, the base's own patches) is not read here, so not certain.
    expect(await verdict({ ...withOptIn(), 'prod/kustomization.yaml': '<<: {resources: [../webhook], patches: [{target: {kind: MutatingWebhookConfiguration}, patch: "[]"}]}\n' })).toEqual(asWritten);
    expect(await verdict({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\n<<: {namePrefix: x-}\n` })).toEqual(asWritten);
  });

  it('judges the webhook as written for a JSON move or whole-object replace, openapi, crds, or a patch of its Service', async () => {
    const verdict = async (files: Record<string, string>): Promise<string[]> =>
      (await findings([folder(files)])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const verdict2 = async (paths: string[]): Promise<string[]> => (await findings(paths)).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    const jsonPatch = (operations: string): Record<string, string> => ({
      'webhook/manifests.yaml': MANIFESTS,
      'webhook/kustomization.yaml': kustomization('- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  path: json-patch.yaml'),
      'webhook/json-patch.yaml': `- {op: add, path: /webhooks/0/objectSelector, value: {matchLabels: {example.com/inject: enabled}}}\n${operations}`,
    });
    // The JSON patch alone: patched. Then a move out of the selector, and a replace of the whole object: as written.
    expect(await verdict(jsonPatch(''))).toEqual([]);
    expect(await verdict(jsonPatch('- {op: move, from: /webhooks/0/objectSelector, path: /metadata/annotations}\n'))).toEqual(asWritten);
    expect(await verdict(jsonPatch('- {op: replace, path: "", value: {apiVersion: admissionregistration.k8s.io/v1, kind: MutatingWebhookConfiguration}}\n'))).toEqual(asWritten);
    // A field spelled in another case (Go's JSON decoder folds it): kustomize reads it, so its effect is unknown.
    const overlay = (text: string, extra: Record<string, string> = {}): Record<string, string> => ({ ...withOptIn(), 'default/kustomization.yaml': text, ...extra });
    expect(await verdict(overlay('Namespace: tenant-system\nresources:\n- ../webhook\n', { 'webhook/opt-in.yaml': OPT_IN.replace('objectSelector:', 'namespaceSelector:').replace('matchLabels:\n        example.com/inject: enabled', 'matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, system]}]') }))).toEqual(asWritten);
    expect(await verdict(overlay("resources:\n- ../webhook\npatche\u017f:\n- target: {kind: MutatingWebhookConfiguration}\n  patch: '[{\"op\": \"remove\", \"path\": \"/webhooks/0/objectSelector\"}]'\n"))).toEqual(asWritten);
    // Transformer configurations that point into a webhook's clientConfig (not the scaffold's): as written.
    const imagesIntoService = 'images:\n- path: webhooks/clientConfig/service/namespace\n  kind: MutatingWebhookConfiguration\n';
    expect(await verdict({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\nconfigurations:\n- kc.yaml\n`, 'webhook/kc.yaml': imagesIntoService })).toEqual(asWritten);
    const scaffold = 'nameReference:\n- kind: Service\n  version: v1\n  fieldSpecs:\n  - {kind: MutatingWebhookConfiguration, group: admissionregistration.k8s.io, path: webhooks/clientConfig/service/name}\nnamespace:\n- {kind: MutatingWebhookConfiguration, group: admissionregistration.k8s.io, path: webhooks/clientConfig/service/namespace, create: true}\nvarReference:\n- path: metadata/annotations\n';
    expect(await verdict({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\nconfigurations:\n- kc.yaml\n`, 'webhook/kc.yaml': scaffold })).toEqual([]);
    expect(await verdict({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\nconfigurations:\n- kc.yaml\n`, 'webhook/kc.yaml': scaffold.replace('- kind: Service', '- kind: ConfigMap').replace('service/name', 'service/namespace') })).toEqual(asWritten);
    // A patch of a List kind (kustomize applies its items), a kustomization of several documents
    // (kustomize reads the first), an overlay under a chart's templates/, a link to a folder of overlays.
    const removal = "- target: {kind: MutatingWebhookConfiguration}\n  patch: '[{\"op\": \"remove\", \"path\": \"/webhooks/0/objectSelector\"}]'\n";
    const listPatch = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: admissionregistration.k8s.io/v1\n  kind: MutatingWebhookConfiguration\n  metadata: {name: mutating-webhook-configuration}\n  webhooks:\n  - {name: sidecar-injector.example.com, objectSelector: null}\n';
    expect(await verdict({ ...withOptIn(), 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml\n- path: list.yaml'), 'webhook/list.yaml': listPatch })).toEqual(asWritten);
    expect(await verdict({ 'webhook/manifests.yaml': MANIFESTS, 'webhook/opt-in.yaml': OPT_IN, 'webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n---\npatches:\n- path: opt-in.yaml\n' })).toEqual(asWritten);
    expect(await verdict({ ...withOptIn(), 'chart/Chart.yaml': 'name: c\n', 'chart/templates/ov/kustomization.yaml': `resources:\n- ../../../webhook\npatches:\n${removal}` })).toEqual(asWritten);
    const shared = folder({ 'overlays/prod/kustomization.yaml': `resources:\n- ../../../tree/webhook\npatches:\n${removal}` });
    const linking = folder(withOptIn());
    symlinkSync(join(shared, 'overlays'), join(linking, 'overlays'));
    expect(await verdict2([linking])).toEqual(asWritten);
    // A sibling folder that moves the Service under a namespaceSelector patch: as written.
    const byName = OPT_IN.replace('objectSelector:', 'namespaceSelector:').replace('matchLabels:\n        example.com/inject: enabled', 'matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, system]}]');
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': byName, 'service/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}]}\n', 'service/kustomization.yaml': 'namespace: tenant\nresources:\n- service.yaml\n', 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../service\n' })).toEqual(['matches-kube-system info', 'self-deadlock error']);
    // ... also when the sibling's patch names the Service by the name its own base gave it, and
    // when a building kustomization lists a folder the run did not read (outside the linted one).
    const sibling = { 'service/kustomization.yaml': "resources:\n- ../service-base\npatches:\n- target: {kind: Service, name: bar-webhook-service}\n  patch: '[{\"op\": \"replace\", \"path\": \"/metadata/namespace\", \"value\": \"app-ns\"}]'\n", 'service-base/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}]}\n', 'service-base/kustomization.yaml': 'namePrefix: bar-\nresources:\n- service.yaml\n' };
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': byName, ...sibling, 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../service\n' })).toEqual(['matches-kube-system info', 'self-deadlock error']);
    const outsideTree = folder({ ...withOptIn(), 'webhook/opt-in.yaml': byName, 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../../elsewhere/service\n' });
    expect(await verdict2([outsideTree])).toEqual(asWritten);
    // (round 13) ... also one that a sibling base of an overlay lists, a level down.
    const deeper = folder({ ...withOptIn(), 'webhook/opt-in.yaml': byName, 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../mid\n', 'mid/kustomization.yaml': 'resources:\n- ../../elsewhere/ext\n' });
    expect(await verdict2([deeper])).toEqual(asWritten);
    // (round 14) ... also under an objectSelector patch: a folder outside may be an overlay of the base that removes it.
    const outsideOverlay = folder({ ...withOptIn(), 'default/kustomization.yaml': 'resources:\n- ../../elsewhere/ext\n' });
    expect(await verdict2([outsideOverlay])).toEqual(asWritten);
    // ... and a patch that may change an object's kind (options: allowKindChange) into a Service.
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': byName, 'cm/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n', 'cm/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- target: {kind: ConfigMap, name: c}\n  options: {allowKindChange: true}\n  patch: |-\n    apiVersion: v1\n    kind: Service\n    metadata: {name: c}\n', 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../cm\n' })).toEqual(asWritten);
    // ... and when a kustomization of the run may change the Namespaces' labels it is judged against.
    const byTier = OPT_IN.replace('objectSelector:', 'namespaceSelector:').replace('matchLabels:\n        example.com/inject: enabled', 'matchExpressions: [{key: tier, operator: NotIn, values: [control]}]');
    const namespaces = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: system, labels: {tier: control}}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system, labels: {tier: control}}\n';
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': byTier, 'webhook/namespaces.yaml': namespaces, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml', '- manifests.yaml\n- namespaces.yaml'), 'default/kustomization.yaml': 'commonLabels: {tier: app}\nresources:\n- ../webhook\n' })).toEqual(asWritten);
    // (round 11) a LabelTransformer, configurations pointing commonAnnotations, images or a
    // nameReference at metadata/labels, helm charts, replacements into a Namespace.
    const tiered = { ...withOptIn(), 'webhook/opt-in.yaml': byTier, 'webhook/namespaces.yaml': namespaces, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml', '- manifests.yaml\n- namespaces.yaml') };
    const labelTransformer = 'apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: relabel}\nlabels: {tier: app}\nfieldSpecs:\n- {path: metadata/labels, create: true}\n';
    const annotationsAsLabels = 'commonAnnotations:\n- {path: metadata/labels, create: true, kind: Namespace}\n';
    const relabellers: Record<string, string>[] = [
      { 'default/relabel.yaml': labelTransformer, 'default/kustomization.yaml': 'resources:\n- ../webhook\ntransformers:\n- relabel.yaml\n' },
      { 'webhook/relabel.yaml': labelTransformer, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml', '- manifests.yaml\n- namespaces.yaml') + 'transformers:\n- relabel.yaml\n' },
      { 'default/config.yaml': annotationsAsLabels, 'default/kustomization.yaml': 'resources:\n- ../webhook\ncommonAnnotations: {tier: app}\nconfigurations:\n- config.yaml\n' },
      { 'default/kustomization.yaml': 'resources:\n- ../webhook\nhelmCharts:\n- {name: c, repo: https://example.com}\n' },
      { 'default/kustomization.yaml': 'resources:\n- ../webhook\nreplacements:\n- source: {kind: Service, fieldPath: metadata.name}\n  targets:\n  - select: {kind: Namespace}\n    fieldPaths: [metadata.labels.tier]\n' },
      { 'default/kustomization.yaml': 'resources:\n- ../webhook\nreplacements:\n- source: {kind: Service, fieldPath: metadata.name}\n  targets:\n  - select: {name: system}\n    fieldPaths: [metadata.labels.tier]\n' },
    ];
    // (round 12) buildMetadata's managedByLabel, and any field not known to leave labels alone.
    relabellers.push({ 'default/kustomization.yaml': 'resources:\n- ../webhook\nbuildMetadata: [managedByLabel]\n' }, { 'default/kustomization.yaml': 'resources:\n- ../webhook\nvalidators:\n- v.yaml\n' });
    for (const relabeller of relabellers) expect(await verdict({ ...tiered, ...relabeller })).toEqual(asWritten);
    // vars substitute `$(NAME)` into every object's metadata/labels: a Namespace that writes one
    // may be relabelled (as written); without one, the overlay's vars leave the labels (kubebuilder
    // v2's config/default, hold-out 17's skywalking-swck).
    const varsOverlay = 'resources:\n- ../webhook\nvars:\n- {name: TIER, objref: {kind: Service, version: v1, name: webhook-service}, fieldref: {fieldPath: metadata.name}}\n';
    expect(await verdict({ ...tiered, 'webhook/namespaces.yaml': namespaces.replace('name: system, labels: {tier: control}', 'name: system, labels: {tier: $(TIER)}'), 'default/kustomization.yaml': varsOverlay })).toEqual(asWritten);
    expect(await verdict({ ...tiered, 'default/kustomization.yaml': varsOverlay })).not.toEqual(asWritten);
    // A replacement that selects another kind by a plain name leaves the Namespaces as written: the patch applies.
    expect(await verdict({ ...tiered, 'default/kustomization.yaml': 'resources:\n- ../webhook\nreplacements:\n- source: {kind: Service, fieldPath: metadata.name}\n  targets:\n  - select: {kind: Deployment}\n    fieldPaths: [metadata.labels.tier]\n' })).not.toEqual(asWritten);
    expect(await verdict({ ...tiered, 'default/kustomization.yaml': 'resources:\n- ../webhook\n' })).not.toEqual(asWritten);
    // Fields whose default field specs never reach a Namespace's labels leave the patch applied.
    expect(await verdict({ ...tiered, 'default/kustomization.yaml': 'resources:\n- ../webhook\nimages: [{name: x, newTag: v2}]\ncommonAnnotations: {a: b}\nconfigMapGenerator:\n- {name: c, literals: [a=b]}\n' })).not.toEqual(asWritten);
    // The selector patch also changes what the webhook matches or calls (its rules, its Service): as written.
    expect(await verdict(jsonPatch('- {op: add, path: /webhooks/0/rules/-, value: {operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}}\n'))).toEqual(asWritten);
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': OPT_IN.replace('    objectSelector:', '    clientConfig:\n      service: {namespace: tenant, name: webhook-service}\n    objectSelector:') })).toEqual(asWritten);
    // openapi (another merge key for webhooks) and crds (name references into a selector) in the base: as written.
    const own = (extra: string, patches = '- path: opt-in.yaml'): Record<string, string> => ({ ...withOptIn(), 'webhook/kustomization.yaml': `${kustomization(patches)}\n${extra}` });
    expect(await verdict({ ...own('openapi:\n  path: schema.json\n'), 'webhook/schema.json': '{}' })).toEqual(asWritten);
    expect(await verdict({ ...own('crds:\n- crd.json\n'), 'webhook/crd.json': '{}' })).toEqual(asWritten);
    // A patch of the Service the webhook calls (its move reaches clientConfig.service): as written.
    const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}]}\n';
    const servicePatch = `- path: opt-in.yaml\n- target: {kind: Service, name: webhook-service}\n  patch: '[{"op": "replace", "path": "/metadata/namespace", "value": "webhooks"}]'`;
    expect(await verdict({ ...own('', servicePatch), 'webhook/manifests.yaml': `${MANIFESTS}---\n${service}` })).toEqual(asWritten);
    // Any Service, by any name: an overlay names the Service by its prefixed name.
    const otherService = servicePatch.replace('name: webhook-service', 'name: metrics-service');
    expect(await verdict({ ...own('', otherService), 'webhook/manifests.yaml': `${MANIFESTS}---\n${service}` })).toEqual(asWritten);
  });

  it('reads a legacy patchesJson6902 under the prefix, beside a write of the Service name, with a remote base and a generated manifest in the tree (hold-out 28: k8ssandra)', async () => {
    const verdict = async (files: Record<string, string>): Promise<string[]> =>
      (await findings([folder(files)])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    const legacy = (operations: string): string =>
      `namePrefix: op-\nresources:\n- manifests.yaml\npatchesJson6902:\n- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: op-mutating-webhook-configuration}\n  patch: |-\n    - {op: add, path: /webhooks/0/objectSelector, value: {matchLabels: {example.com/inject: enabled}}}\n${operations}`;
    const tree = (operations: string, extra: Record<string, string> = {}): Record<string, string> => ({ 'webhook/manifests.yaml': MANIFESTS, 'webhook/kustomization.yaml': legacy(operations), ...extra });
    expect(await verdict(tree(''))).toEqual([]);
    // The Service's name, path or port written beside the selector: patched; its namespace, or the whole clientConfig: as written.
    expect(await verdict(tree('    - {op: replace, path: /webhooks/0/clientConfig/service/name, value: op-webhook-service}\n    - {op: add, path: /webhooks/0/clientConfig/service/port, value: 9443}\n'))).toEqual([]);
    expect(await verdict(tree('    - {op: replace, path: /webhooks/0/clientConfig/service/namespace, value: op-system}\n'))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    expect(await verdict(tree('    - {op: replace, path: /webhooks/0/clientConfig, value: {url: "https://example.com"}}\n'))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    expect(await verdict(tree('    - {op: replace, path: /webhooks/0/clientConfig/service/name, value: {}}\n'))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // A sibling kustomization of a remote base (kustomize fetches it: it holds nothing of this
    // repository's) and of a manifest a build step writes: patched. A local folder missing: as written.
    const siblings = { 'operator/kustomization.yaml': 'resources:\n- github.com/example/operator/config/default?ref=v1.0.0\n- https://example.com/crds.yaml\n- generated/csv.yaml\n', 'default/kustomization.yaml': 'resources:\n- ../webhook\n- ../operator\n' };
    expect(await verdict(tree('', siblings))).toEqual([]);
    expect(await verdict(tree('', { ...siblings, 'operator/kustomization.yaml': 'resources:\n- ../overlays/prod\n' }))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // A patch elsewhere that may move a Service of the webhook's Service's name: kube-system is
    // judged by its name wherever the Service lands (an info naming the patch); self-deadlock, as written.
    const elsewhere = { 'other/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\nspec: {ports: [{port: 443}]}\n', 'other/kustomization.yaml': "resources:\n- service.yaml\npatches:\n- target: {kind: Service, name: webhook-service}\n  patch: '[{\"op\": \"replace\", \"path\": \"/metadata/namespace\", \"value\": \"elsewhere\"}]'\n" };
    expect(await verdict(tree('', elsewhere))).toEqual(['matches-kube-system info', 'self-deadlock error']);
    // A remote base spelled as a local folder that is not there (no scheme, another host), a
    // `file://` URL (this repository at another commit), or a `..` that kustomize builds as a
    // local folder: as written (s45a 4-5).
    for (const resource of ['file:///srv/repo//config/raw?ref=old', 'gh:x/../../overlays/prod', 'https://x/../../../overlays/prod']) {
      expect(await verdict(tree('', { ...siblings, 'operator/kustomization.yaml': `resources:\n- ${resource}\n` }))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    }
    // Under a namespaceSelector patch, a remote base or a generated manifest may hold kube-system
    // with other labels: as written (s45a 2-3).
    const byNamespace = legacy('').replace('objectSelector, value: {matchLabels: {example.com/inject: enabled}}', 'namespaceSelector, value: {matchLabels: {example.com/inject: enabled}}');
    expect(await verdict({ ...tree('', siblings), 'webhook/kustomization.yaml': byNamespace })).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // A Service port or name the API server rejects: the object is not built, so as written (s45a 6).
    for (const value of ['"443"', '70000', 'Web_Hook']) {
      const field = value === 'Web_Hook' ? 'name' : 'port';
      expect(await verdict(tree(`    - {op: replace, path: /webhooks/0/clientConfig/service/${field}, value: ${value}}\n`))).toEqual(['matches-kube-system error', 'self-deadlock error']);
    }
    // A legacy target names the object as written or as renamed: a webhook configuration whose
    // own name starts with the prefix is selected by it as written too (s45a 1).
    const prefixedToo = MANIFESTS.replace('name: mutating-webhook-configuration', 'name: op-mutating-webhook-configuration');
    const both = `namePrefix: op-\nresources:\n- manifests.yaml\npatches:\n- target: {kind: MutatingWebhookConfiguration, name: op-mutating-webhook-configuration}\n  patch: '[{"op": "add", "path": "/webhooks/0/objectSelector", "value": {"matchLabels": {"example.com/inject": "enabled"}}}]'\npatchesJson6902:\n- target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: op-mutating-webhook-configuration}\n  patch: '[{"op": "remove", "path": "/webhooks/0/objectSelector"}]'\n`;
    expect(await verdict({ 'webhook/manifests.yaml': prefixedToo, 'webhook/kustomization.yaml': both })).toEqual(['matches-kube-system error', 'self-deadlock error']);
    // A remote base spelled as a local folder that is not there (no scheme, another host): as written.
    expect(await verdict(tree('', { ...siblings, 'operator/kustomization.yaml': 'resources:\n- example.com/operator/config\n' }))).toEqual(['matches-kube-system error', 'self-deadlock error']);
  });

  it('judges the webhook as written when a kustomization comes from standard input, or a patch names the webhook twice', async () => {
    const asWritten = ['matches-kube-system error', 'self-deadlock error'];
    const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => !ONLY.includes(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
    const dir = folder(withOptIn());
    const withStdin = await lint({ paths: ['-', dir], readStdin: () => Buffer.from('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamePrefix: x-\n'), rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides, toolVersion: 'test' });
    expect(withStdin.findings.filter((f) => f.ruleId !== 'kustomize-patched').map((f) => `${f.ruleId} ${f.severity}`)).toEqual(asWritten);
    // kustomize merges the first entry of a webhook named twice; the linter would apply both.
    const twice = OPT_IN.replace('    objectSelector:', '    objectSelector: null\n  - name: sidecar-injector.example.com\n    objectSelector:');
    const verdict = async (files: Record<string, string>): Promise<string[]> => (await findings([folder(files)])).filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0]!);
    expect(await verdict({ ...withOptIn(), 'webhook/opt-in.yaml': twice })).toEqual(asWritten);
    // (round 16) go-yaml breaks lines at NEL, LS and PS: after a comment, one hides a field from a reader that does not.
    for (const separator of ['\u0085', '\u2028', '\u2029']) {
      expect(await verdict({ ...withOptIn(), 'default/kustomization.yaml': `resources:\n- ../webhook # c${separator}patches:${separator}- path: drop.yaml\n`, 'default/drop.yaml': '[{"op": "remove", "path": "/webhooks/0/objectSelector"}]\n' })).toEqual(asWritten);
    }
    // (round 17) A key spelled with a tag: go-yaml reads `!!merge "\x3c\x3c"` as a merge key and
    // `!!binary cGF0Y2hlcw==` as `patches`; a lookup by name finds neither.
    const drop = { 'default/drop.yaml': '[{"op": "remove", "path": "/webhooks/0/objectSelector"}]\n' };
    const hidden = ['!!merge "\\x3c\\x3c":\n  patches:\n  - path: drop.yaml\n', '!<tag:yaml.org,2002:merge> "\\x3c\\x3c":\n  patches:\n  - path: drop.yaml\n', '!!binary cGF0Y2hlcw==:\n- path: drop.yaml\n'];
    for (const field of hidden) {
      expect(await verdict({ ...withOptIn(), ...drop, 'default/kustomization.yaml': `resources:\n- ../webhook\n${field}` })).toEqual(asWritten);
      // In the kustomization beside the webhook too.
      expect(await verdict({ ...withOptIn(), 'webhook/drop.yaml': drop['default/drop.yaml'], 'webhook/kustomization.yaml': `${kustomization('- path: opt-in.yaml')}\n${field.replace('patches:\n  - path: drop.yaml', 'patchesJson6902:\n  - {target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}, path: drop.yaml}').replace('!!binary cGF0Y2hlcw==:\n- path: drop.yaml', '!!binary cGF0Y2hlc0pzb242OTAy:\n- {target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}, path: drop.yaml}')}` })).toEqual(asWritten);
    }
    // (s35a K-1) A field spelled in another case: kustomize decodes it as Go's JSON does (`Patches:`
    // is `patches`): the webhook as written, and said to be changed by a patch the linter cannot read.
    for (const field of ['Patches', 'PATCHES', 'patche\u017f']) {
      const files = { 'webhook/manifests.yaml': MANIFESTS, 'webhook/drop.yaml': drop['default/drop.yaml'], 'webhook/kustomization.yaml': `resources:\n- manifests.yaml\n${field}Json6902:\n- {target: {group: admissionregistration.k8s.io, version: v1, kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}, path: drop.yaml}\n` };
      const found = await findings([folder(files)]);
      expect(found.filter((f) => f.startsWith('kustomize-patched'))).toHaveLength(1);
    }
    // (s36a 3-A) A patch named through an alias (an item, or a `path:`) that undoes the opt-in:
    // the kustomization's patches are not known, the webhook as written.
    const undo = { 'webhook/undo.yaml': OPT_IN.replace('objectSelector:\n      matchLabels:\n        example.com/inject: enabled', 'objectSelector: null') };
    const vars = 'vars:\n- name: &undo undo.yaml\n  objref: {kind: Service, version: v1, name: webhook-service}\n  fieldref: {fieldpath: metadata.name}\n';
    expect(await verdict({ ...withOptIn(), ...undo, 'webhook/kustomization.yaml': `resources:\n- manifests.yaml\n${vars}patchesStrategicMerge:\n- opt-in.yaml\n- *undo\n` })).toEqual(asWritten);
    expect(await verdict({ ...withOptIn(), ...undo, 'webhook/kustomization.yaml': `resources:\n- manifests.yaml\n${vars}patches:\n- path: opt-in.yaml\n- path: *undo\n` })).toEqual(asWritten);
    // A merge of an alias the yaml library refuses (not a map): no internal error, the webhook as written.
    expect(await verdict({ ...withOptIn(), ...drop, 'default/kustomization.yaml': 'resources:\n- ../webhook\npatches:\n- &p drop.yaml\n- !!merge "\\x3c\\x3c": *p\n' })).toEqual(asWritten);
  });

  it('judges the webhook as written when two kustomizations patch it', async () => {
    const dir = folder({
      'base/manifests.yaml': MANIFESTS,
      'base/kustomization.yaml': kustomization('- path: opt-in.yaml'),
      'base/opt-in.yaml': OPT_IN,
      'overlay/kustomization.yaml': kustomization('- path: other.yaml', '- ../base'),
      'overlay/other.yaml': OPT_IN.replace('enabled', 'yes'),
    });
    const found = await findings([join(dir, 'base'), join(dir, 'overlay')]);
    expect(found.filter((f) => !f.startsWith('kustomize-patched')).map((f) => f.split(':')[0])).toEqual(['matches-kube-system error', 'self-deadlock error']);
  });
});

describe("controller-gen's output as generated (src/match/generated-webhooks.ts)", () => {
  // matches-kube-system judges kube-system as written; self-deadlock's own namespace is the scaffold's placeholder.
  const asGenerated = ['matches-kube-system error', 'self-deadlock info'];
  const asWritten = ['matches-kube-system error', 'self-deadlock error'];
  const SYSTEM_NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: system\n';
  const verdicts = async (files: Record<string, string>, path = ''): Promise<string[]> => (await findings([join(folder(files), path)])).map((line) => line.split(':')[0]!);

  it('makes an info of self-deadlock while no build of the run moves it (hold-outs 17, 18, 29: appuio, marin3r, fluid)', async () => {
    expect(await verdicts({ 'manifests.yaml': GENERATED })).toEqual(asGenerated);
    // Its folder's own build sets no namespace: still in `system`.
    expect(await verdicts({ 'config/webhook/manifests.yaml': GENERATED, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n' })).toEqual(asGenerated);
    // An overlay that builds it without moving it (a prefix only).
    expect(await verdicts({ 'config/webhook/manifests.yaml': GENERATED, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n', 'config/default/kustomization.yaml': 'namePrefix: app-\nresources:\n- ../webhook\n' })).toEqual(asGenerated);
    // The scaffold's Namespace `system` in a build that moves it (renamed there) while another build holds the webhooks.
    expect(await verdicts({ 'config/webhook/manifests.yaml': GENERATED, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n', 'config/manager/manager.yaml': SYSTEM_NAMESPACE, 'config/manager/kustomization.yaml': 'resources:\n- manager.yaml\n', 'config/default/kustomization.yaml': 'namespace: app-system\nresources:\n- ../manager\n' })).toEqual(asGenerated);
  });

  it('judges it as written where the run may install it in `system` or elsewhere (s46a 1-3)', async () => {
    const webhookFolder = { 'config/webhook/manifests.yaml': GENERATED, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n' };
    // 1. The run creates the namespace `system` (the scaffold's manager.yaml applied as written): the webhooks run there.
    expect(await verdicts({ 'install.yaml': `${SYSTEM_NAMESPACE}---\n${GENERATED}` })).toEqual(asWritten);
    expect(await verdicts({ ...webhookFolder, 'config/manager/manager.yaml': SYSTEM_NAMESPACE, 'config/manager/kustomization.yaml': 'resources:\n- manager.yaml\n', 'config/default/kustomization.yaml': 'namePrefix: app-\nresources:\n- ../manager\n- ../webhook\n' })).toEqual(asWritten);
    // 2. A patch that writes the webhook's Service namespace moves it as `namespace:` would.
    const move = '- target: {kind: MutatingWebhookConfiguration, name: mutating-webhook-configuration}\n  patch: |-\n    - {op: replace, path: /webhooks/0/clientConfig/service/namespace, value: real-ns}\n';
    expect(await verdicts({ ...webhookFolder, 'config/default/kustomization.yaml': `resources:\n- ../webhook\npatches:\n${move}` })).toEqual(['kustomize-patched info', ...asWritten]);
    // 3. A build past what is followed (a component may set the namespace): where it lands is not known.
    expect(await verdicts({ ...webhookFolder, 'config/default/kustomization.yaml': 'resources:\n- ../webhook\ncomponents:\n- ../extra\n', 'config/extra/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamespace: real-ns\n' })).toEqual(asWritten);
  });

  it('judges it as the build that moves it gives it: the errors stay where no patch adds a selector (hold-out 15: kubeslice)', async () => {
    const tree = { 'config/webhook/manifests.yaml': GENERATED, 'config/webhook/kustomization.yaml': 'resources:\n- manifests.yaml\n', 'config/default/kustomization.yaml': 'namespace: app-system\nnamePrefix: app-\nresources:\n- ../webhook\n' };
    expect(await verdicts(tree)).toEqual(asWritten);
    // The build, as `kubectl kustomize config/default` prints it: the Service moved, the CA left to its injector.
    const built = GENERATED.replace('name: mutating-webhook-configuration', 'name: app-mutating-webhook-configuration').replace('name: webhook-service, namespace: system', 'name: app-webhook-service, namespace: app-system');
    expect(await verdicts({ 'install.yaml': built })).toEqual(asWritten);
  });

  it('judges as written what controller-gen does not write: another name, a CA bundle, a URL, another Service', async () => {
    expect(await verdicts({ 'manifests.yaml': GENERATED.replace('name: mutating-webhook-configuration', 'name: sidecar-injector') })).toEqual(asWritten);
    expect(await verdicts({ 'manifests.yaml': GENERATED.replace('    service:', '    caBundle: Cg==\n    service:') })).toEqual(asWritten);
    expect(await verdicts({ 'manifests.yaml': GENERATED.replace('name: webhook-service,', 'name: injector,') })).toEqual(asWritten);
    // A second webhook served from elsewhere: the configuration is not all generated.
    const second = GENERATED + '- admissionReviewVersions: [v1]\n  clientConfig: {url: "https://injector.example.com/mutate"}\n  failurePolicy: Ignore\n  name: other.example.com\n  rules:\n  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}\n  sideEffects: None\n';
    expect((await verdicts({ 'manifests.yaml': second })).filter((verdict) => !verdict.endsWith(' info'))).toEqual(asWritten);
  });

  it('still judges it with a patch beside it that sets its selectors', async () => {
    const found = await findings([folder({ 'webhook/manifests.yaml': GENERATED, 'webhook/kustomization.yaml': kustomization('- path: opt-in.yaml'), 'webhook/opt-in.yaml': OPT_IN })]);
    expect(found.map((line) => line.split(':')[0])).toEqual(['kustomize-patched info']);
  });
});
