/** What a kustomization's patches change, read from its text (src/parse/kustomize-patches.ts). */
import { describe, expect, it } from 'vitest';
import { kustomizePatches, mayMoveWebhooks, patchesChanging, targets, type NameAffixes } from '../src/parse/kustomize-patches.js';
import { patchesOf } from '../src/match/patched.js';
import { RunMemo } from '../src/run-scope.js';

const read = (text: string, files: Record<string, string> = {}) => kustomizePatches('k.yaml', text, true, (path) => files[path]);
const changed = (text: string, kind: string, name: string, files: Record<string, string> = {}): number[] =>
  patchesChanging(read(text, files), { kind, name, file: '<stdin>' }, () => []).map((patch) => patch.line);

describe('kustomize patches', () => {
  it('reads targets from selectors, from the patch text, and from patch files', () => {
    const text = [
      'patches:',
      '  - target: {kind: ValidatingWebhookConfiguration, name: a}',
      '    patch: "[]"',
      '  - path: smp.yaml',
      '  - path: missing.yaml',
      'patchesStrategicMerge:',
      '  - other.yaml',
      'patchesJson6902:',
      '  - target: {kind: Namespace, name: "team-.*"}',
      '    path: ops.json',
      '',
    ].join('\n');
    const files = { 'smp.yaml': 'kind: ValidatingWebhookConfiguration\nmetadata: {name: b}\n', 'other.yaml': 'kind: MutatingWebhookConfiguration\nmetadata: {name: c}\n' };
    expect(changed(text, 'ValidatingWebhookConfiguration', 'a', files)).toEqual([2, 5]);
    expect(changed(text, 'ValidatingWebhookConfiguration', 'b', files)).toEqual([4, 5]);
    expect(changed(text, 'MutatingWebhookConfiguration', 'c', files)).toEqual([5, 7]);
    // A name that is a regular expression may match: named, never run.
    expect(changed(text, 'Namespace', 'team-a', files)).toEqual([5, 9]);
    // An unreadable patch file may change anything; without it nothing targets this one.
    expect(changed(text, 'MutatingWebhookConfiguration', 'z', files)).toEqual([5]);
    expect(changed(text.replace('  - path: missing.yaml\n', ''), 'MutatingWebhookConfiguration', 'z', files)).toEqual([]);
  });

  it('judges each document of a patch file without a target by what it does to its own object (hold-out 19)', () => {
    const text = 'patches:\n  - path: patch.yaml\n';
    const files = {
      'patch.yaml': 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: hooks\n  annotations: {service.beta.openshift.io/inject-cabundle: "true"}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: hooks\n  annotations: {service.beta.openshift.io/serving-cert-secret-name: hooks-cert}\nspec:\n  ports: [{port: 443}]\n',
    };
    const [webhooks, service] = read(text, files);
    expect(webhooks).toMatchObject({ target: { kind: 'ValidatingWebhookConfiguration', name: 'hooks' }, metadataOnly: true, setsLabelsOrAnnotationsOnly: true });
    expect(service).toMatchObject({ target: { kind: 'Service', name: 'hooks' }, keepsPlace: true });
    expect(service!.metadataOnly).toBeUndefined();
    // With a target, every document applies to every object it selects: judged together.
    const targeted = read('patches:\n  - path: patch.yaml\n    target: {kind: ValidatingWebhookConfiguration}\n', files);
    expect(targeted).toHaveLength(1);
    expect(targeted[0]!.metadataOnly).toBeUndefined();
  });

  it('reads the patches of a kustomization that spells another field otherwise, not of one that spells a patch field so (hold-out 18)', () => {
    const files = { 'crd.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n' };
    // `commonlabels` is commonLabels to kustomize: labels on its own resources, no patch of a webhook configuration.
    expect(changed('commonlabels: {a: b}\npatchesStrategicMerge:\n  - crd.yaml\n', 'ValidatingWebhookConfiguration', 'hooks', files)).toEqual([]);
    expect(changed('commonlabels: {a: b}\npatchesStrategicMerge:\n  - crd.yaml\n', 'CustomResourceDefinition', 'widgets.example.com', files)).toEqual([3]);
    // A patch list, or a key in one, spelled otherwise: what it patches is not known.
    expect(changed('Patches:\n  - path: crd.yaml\n', 'ValidatingWebhookConfiguration', 'hooks', files)).toEqual([1]);
    expect(changed('patches:\n  - Path: crd.yaml\n', 'ValidatingWebhookConfiguration', 'hooks', files)).toEqual([1]);
    expect(changed('replacements:\n  - source: {kind: Service}\n    Targets: [{select: {kind: Service}}]\n', 'ValidatingWebhookConfiguration', 'hooks', files)).toEqual([1]);
  });

  it('selects by group and version as kustomize does: a patch for v1beta1 objects leaves v1 ones as they are', () => {
    const text = [
      'patches:',
      '  - target: {group: admissionregistration.k8s.io, version: v1beta1, kind: ValidatingAdmissionPolicy}',
      '    patch: "[]"',
      '  - target: {group: apps, kind: ValidatingAdmissionPolicy}',
      '    patch: "[]"',
      '  - target: {version: "v1.*", kind: ValidatingAdmissionPolicy}',
      '    patch: "[]"',
      '  - path: smp.yaml',
      '',
    ].join('\n');
    const files = { 'smp.yaml': 'apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\n' };
    const at = (apiVersion: string | undefined): number[] =>
      patchesChanging(read(text, files), { kind: 'ValidatingAdmissionPolicy', name: 'p', file: '<stdin>', ...(apiVersion === undefined ? {} : { apiVersion }) }, () => []).map((patch) => patch.line);
    // The version is written whole for the first patch and the strategic-merge one; a pattern may match.
    expect(at('admissionregistration.k8s.io/v1')).toEqual([6]);
    expect(at('admissionregistration.k8s.io/v1beta1')).toEqual([2, 6, 8]);
    expect(at('apps/v1')).toEqual([4, 6]);
    // The object's apiVersion unknown: every patch of its kind and name may change it.
    expect(at(undefined)).toEqual([2, 4, 6, 8]);
  });

  it('reads inline replacements as patches of the objects their targets select', () => {
    const text = [
      'replacements:',
      '  - source: {kind: Certificate, name: serving-cert, fieldPath: .metadata.name}',
      '    targets:',
      '      - select: {kind: MutatingWebhookConfiguration}',
      '        fieldPaths: [".metadata.annotations.[cert-manager.io/inject-ca-from]"]',
      '      - select: {kind: ValidatingWebhookConfiguration, name: v}',
      '        fieldPaths: [.webhooks.0.clientConfig.service.namespace]',
      '',
    ].join('\n');
    const patches = read(text);
    expect(patches.map((patch) => ({ line: patch.line, target: patch.target, replacement: patch.replacement, ca: patch.writesCaBundle, known: patch.selectors?.known }))).toEqual([
      { line: 2, target: { kind: 'MutatingWebhookConfiguration' }, replacement: true, ca: true, known: true },
      { line: 2, target: { kind: 'ValidatingWebhookConfiguration', name: 'v' }, replacement: true, ca: undefined, known: false },
    ]);
    expect(changed(text, 'ValidatingWebhookConfiguration', 'w')).toEqual([]);
  });

  it('reads a replacement whose source spells fieldPath otherwise (the scaffolds\' `fieldpath`: what is copied, not where), but not targets spelled so (hold-out 15)', () => {
    const text = (source: string, target = 'fieldPaths') => [
      'replacements:',
      `  - source: {kind: Certificate, name: serving-cert, ${source}: metadata.namespace}`,
      '    targets:',
      '      - select: {kind: ValidatingWebhookConfiguration}',
      `        ${target}: ["metadata.annotations.[cert-manager.io/inject-ca-from]"]`,
      '',
    ].join('\n');
    expect(read(text('fieldpath')).map((patch) => patch.target)).toEqual([{ kind: 'ValidatingWebhookConfiguration' }]);
    expect(read(text('fieldPath')).map((patch) => patch.target)).toEqual([{ kind: 'ValidatingWebhookConfiguration' }]);
    // A target's field spelled otherwise is read by kustomize and not here: the kustomization's patches are unknown.
    expect(read(text('fieldPath', 'fieldpaths')).map((patch) => [patch.target, patch.selectors?.known])).toEqual([[{}, false]]);
  });

  it('evaluates a replacement\'s annotation selector on what the object writes, unless a patch or the kustomization may add it', () => {
    const replacement = (extra = ''): string =>
      `${extra}replacements:\n  - source: {kind: Certificate, name: c, fieldPath: .metadata.namespace}\n    targets:\n      - select: {annotationSelector: cert-manager.io/inject-ca-from}\n        fieldPaths: [".metadata.annotations.[cert-manager.io/inject-ca-from]"]\n`;
    const on = (text: string, written: unknown, kind = 'Namespace'): number[] => patchesOf({ memo: new RunMemo(), kustomizations: [], kustomizePatches: read(text) }, { kind, name: 'system', file: '<stdin>', written }, '<stdin>').map((patch) => patch.line);
    const annotated = { metadata: { annotations: { 'cert-manager.io/inject-ca-from': 'x/y' } } };
    expect(on(replacement(), { metadata: { name: 'system' } })).toEqual([]);
    expect(on(replacement(), annotated)).toEqual([2]);
    // The kustomization adds annotations itself: the selector may match anything.
    expect(on(replacement('commonAnnotations: {team: a}\n'), { metadata: {} })).toEqual([3]);
    // A patch changes the object too (it may add the annotation): named with it.
    const patched = `patches:\n  - target: {kind: Namespace, name: system}\n    patch: "[]"\n${replacement()}`;
    expect(on(patched, {})).toEqual([2, 5]);
  });

  it('takes a label or annotation selector to match every object of its kind', () => {
    const text = 'patches:\n  - target: {kind: Namespace, labelSelector: "team=a"}\n    patch: "[]"\n';
    expect(changed(text, 'Namespace', 'anything', {})).toEqual([2]);
    expect(changed(text, 'ValidatingWebhookConfiguration', 'anything', {})).toEqual([]);
  });

  it('reads only the Kustomization documents of a stream', () => {
    const stream = 'kind: ConfigMap\npatches: [{target: {name: a}, patch: "[]"}]\n---\nkind: Kustomization\npatches: [{target: {name: b}, patch: "[]"}]\n';
    expect(kustomizePatches('s', stream, false, () => undefined).map((patch) => patch.target.name)).toEqual(['b']);
  });

  it('takes a kustomization that holds an alias as one whose patches are unknown, but not a Flux Kustomization (s36a 3-A)', () => {
    const aliased = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: {name: &n undo.yaml}\npatchesStrategicMerge:\n- *n\n';
    expect(kustomizePatches('s', aliased, false, () => undefined).map((patch) => [patch.target, patch.selectors?.known])).toEqual([[{}, false]]);
    expect(read(aliased.replace(/^apiVersion.*\nkind.*\n/, '')).map((patch) => patch.selectors?.known)).toEqual([false]);
    // A Flux Kustomization in a stream is an object of the cluster, not a kustomization of the run.
    const flux = aliased.replace('kustomize.config.k8s.io/v1beta1', 'kustomize.toolkit.fluxcd.io/v1');
    expect(kustomizePatches('s', flux, false, () => undefined)).toEqual([]);
    // (s36c 2) kustomize builds one with an empty apiVersion, and reads a folded `apiversion` key
    // written after a Flux apiVersion: both are kustomizations.
    expect(kustomizePatches('s', aliased.replace('kustomize.config.k8s.io/v1beta1', '""'), false, () => undefined)).toHaveLength(1);
    expect(kustomizePatches('s', flux.replace('kind: Kustomization', 'kind: Kustomization\napiversion: kustomize.config.k8s.io/v1beta1'), false, () => undefined)).toHaveLength(1);
  });
});

describe('selector fields as kustomize matches them: regular expressions over the whole value, on the names the builds give', () => {
  const vwc = 'ValidatingWebhookConfiguration';
  const written: NameAffixes = [];
  it('takes a DNS name as selecting itself, not every name its dots could match as wildcards (hold-out 32)', () => {
    expect(targets({ kind: vwc, name: 'inferenceservice.example.io' }, vwc, 'inferenceservice.example.io', undefined, written)).toBe(true);
    expect(targets({ kind: vwc, name: 'inferenceservice.example.io' }, vwc, 'capacityreservation.example.io', undefined, written)).toBe(false);
    // A dot matches any character, anchored at both ends.
    expect(targets({ kind: vwc, name: 'a.b' }, vwc, 'axb', undefined, written)).toBe(true);
    expect(targets({ kind: vwc, name: 'a.b' }, vwc, 'a.bc', undefined, written)).toBe(false);
    expect(targets({ kind: vwc, name: '.*-webhook' }, vwc, 'app-webhook', undefined, written)).toBe(true);
    expect(targets({ kind: vwc, name: 'app|other' }, vwc, 'other', undefined, written)).toBe(true);
    expect(targets({ kind: 'Validating.*', name: 'x' }, vwc, 'x', undefined, written)).toBe(true);
    expect(targets({ kind: 'Mutating.*' }, vwc, 'x', undefined, written)).toBe(false);
    expect(targets({ kind: vwc, group: 'admissionregistration\\.k8s\\.io', version: 'v1' }, vwc, 'x', 'admissionregistration.k8s.io/v1', written)).toBe(true);
    expect(targets({ kind: vwc, version: 'v1beta.*' }, vwc, 'x', 'admissionregistration.k8s.io/v1', written)).toBe(false);
  });
  it('tries the name each build gives on the way: a base prefix an overlay patches by, a legacy JSON 6902 patch after the prefix', () => {
    const prefixed: NameAffixes = [{ prefix: 'app-', suffix: '' }, { prefix: 'prod-app-', suffix: '-v2' }];
    expect(targets({ kind: vwc, name: 'app-vwc' }, vwc, 'vwc', undefined, written)).toBe(false);
    expect(targets({ kind: vwc, name: 'app-vwc' }, vwc, 'vwc', undefined, prefixed)).toBe(true);
    expect(targets({ kind: vwc, name: 'prod-app-vwc-v2' }, vwc, 'vwc', undefined, prefixed)).toBe(true);
    expect(targets({ kind: vwc, name: 'app-.*\\.example\\.io' }, vwc, 'vwc.example.io', undefined, prefixed)).toBe(true);
    expect(targets({ kind: vwc, name: 'app-.*\\.example\\.io' }, vwc, 'vwc.example.com', undefined, prefixed)).toBe(false);
  });
  it('takes any pattern as matching where the builds are not followed, and a pattern RE2 rejects as matching', () => {
    expect(targets({ kind: vwc, name: 'inferenceservice.example.io' }, vwc, 'capacityreservation.example.io', undefined, undefined)).toBe(true);
    expect(targets({ kind: vwc, name: 'other' }, vwc, 'vwc', undefined, undefined)).toBe(false);
    expect(targets({ kind: vwc, name: '(?<=a)b' }, vwc, 'anything', undefined, written)).toBe(true);
    // A backtracking matcher would not return on this input (the test would time out).
    expect(targets({ kind: vwc, name: '(a+)+$' }, vwc, `${'a'.repeat(5000)}!`, undefined, written)).toBe(false);
  });
});

describe('a hostile selector pattern (attack s47a H5)', () => {
  it('is not run when long or a counted repetition: taken to match, at once', () => {
    const vwc = 'ValidatingWebhookConfiguration';
    expect(targets({ kind: vwc, name: '((((a{1000}){1000}){1000}){1000})' }, vwc, 'x', undefined, [])).toBe(true);
    expect(targets({ kind: vwc, name: `(${'a|'.repeat(200)}b)` }, vwc, 'x', undefined, [])).toBe(true);
    expect(targets({ kind: vwc, name: '(a|b)' }, vwc, 'x', undefined, [])).toBe(false);
  });
});

describe('whether a patch may take a webhook out or change where it calls (mayMoveWebhooks, attack s47f)', () => {
  it.each([
    ['replace of the list, a comment after the path', '- op: replace\n  path: /webhooks   # all\n  value: []\n', true],
    ['JSON, an escaped slash', '[{"op": "replace", "path": "\\/webhooks", "value": []}]', true],
    ['a tagged remove of one webhook', '- op: !!str remove\n  path: /webhooks/1 # the second\n', true],
    ['a remove of the last webhook by -1', '- {op: remove, path: /webhooks/-1}\n', true],
    ['a clientConfig written', '- {op: replace, path: /webhooks/1/clientConfig, value: {url: "https://x.example.com"}}\n', true],
    ['a copy from a clientConfig', '- {op: copy, from: /webhooks/0/clientConfig, path: /webhooks/1/clientConfig}\n', true],
    ['a strategic merge of webhooks: null', 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: p}\nwebhooks: null\n', true],
    ['a strategic-merge directive', 'webhooks:\n- name: a\n  $patch: delete\n', true],
    ['a remove of a selector', '- {op: remove, path: /webhooks/1/namespaceSelector}\n', false],
    ['a copy of a setting', '- {op: copy, from: /webhooks/0/sideEffects, path: /webhooks/1/sideEffects}\n', false],
    ['a timeout, with a comment naming clientConfig and $patch', '# not clientConfig, not $patch\n- {op: replace, path: /webhooks/1/timeoutSeconds, value: 5}\n', false],
    ['a strategic merge of a setting', 'webhooks:\n- name: a\n  failurePolicy: Ignore\n', false],
    // Attack s47g:
    ['an index with a plus sign, as Go reads it', '- {op: remove, path: /webhooks/+1}\n', true],
    ['a timeout, with << in a comment', '# timeout << 10s\n- {op: replace, path: /webhooks/1/timeoutSeconds, value: 5}\n', false],
    ['a document of another kind that empties its webhooks', 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: other}\nwebhooks: null\n', false],
    ['a primitive-list directive', 'webhooks:\n- name: a\n  $deleteFromPrimitiveList/admissionReviewVersions: [v1beta1]\n', false],
    ['a test of the clientConfig', '- {op: test, path: /webhooks/1/clientConfig/service/name, value: svc}\n', false],
    ['an appended webhook', '- {op: add, path: /webhooks/-, value: {name: new}}\n', false],
    ['the service path', '- {op: add, path: /webhooks/1/clientConfig/service/path, value: /v}\n', false],
    ['the root replaced', '- {op: replace, path: "", value: {webhooks: []}}\n', true],
    ['a webhooks list item without a name (the list is replaced)', 'webhooks:\n- failurePolicy: Ignore\n', true],
    ['a second JSON 6902 document, which kustomize does not read', '- {op: replace, path: /webhooks/1/timeoutSeconds, value: 5}\n---\n- {op: remove, path: /webhooks/1}\n', false],
  ])('%s', (_what, text, moves) => {
    expect(mayMoveWebhooks(text, 'ValidatingWebhookConfiguration')).toBe(moves);
  });
});
