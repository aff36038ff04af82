/**
 * The classes of false positives issue 11 names, each on a small manifest of our own: a cascade
 * of syntax errors from one template, placeholders read as values, opt-in selectors read as
 * matching the system's objects, and findings about calls on webhooks no request reaches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../src/engine/lint.js';
import type { Finding } from '../src/engine/finding.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { lintText, selectRules } from './helpers.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('precision-test');

const summary = async (text: string, only?: string[]): Promise<string[]> =>
  (await lintText(text, only ? { only } : {})).map((f) => `${f.ruleId} ${f.severity} ${f.fieldPath ?? '-'}`);

function webhook(fields: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: pods.widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
${fields}`;
}

describe('one finding per cause: syntax', () => {
  it('reports an unrendered template once per document, named as a template', async () => {
    const template = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: {{ include "chart.fullname" . }}
webhooks:
{{- range .Values.webhooks }}
  - name: {{ .name }}
    {{- if .failurePolicy }}
    failurePolicy: {{ .failurePolicy }}
    {{- end }}
{{- end }}
---
apiVersion: v1
kind: Namespace
metadata:
  name: fine
`;
    const findings = await lintText(template, { only: ['yaml-syntax'] });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(/^unrendered template \(\{\{ include "chart\.fullname" \. \}\}\): this document is not YAML until it is rendered \(and \d+ more problems in this document\)$/);
    // At the first error; the message names the first template construct of the document.
    expect(findings[0]!.line).toBe(6);
  });

  it('reports the first error of a broken document with the count of the rest', async () => {
    const broken = 'kind: Namespace\na: b: c\nd: e: f\n---\nkind: Namespace\nx: [\n';
    const findings = await lintText(broken, { only: ['yaml-syntax'] });
    expect(findings.map((f) => f.documentIndex)).toEqual([0, 1]);
    expect(findings[0]!.message).toMatch(/\(and \d+ more problems? in this document\)$/);
  });
});

describe('placeholders are unknown values', () => {
  it('self-deadlock does not reason about a namespace named ${NAMESPACE}', async () => {
    const text = webhook(`    clientConfig:
      service: {namespace: "\${NAMESPACE}", name: widgets, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`);
    expect(await summary(text, ['self-deadlock'])).toEqual([]);
    expect(await summary(text.replace('"${NAMESPACE}"', 'widgets'), ['self-deadlock'])).toEqual(['self-deadlock error webhooks[0].rules[0]']);
  });

  it('matches-kube-system does not guess what a selector with a placeholder selects', async () => {
    const text = webhook(`    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    namespaceSelector:
      matchExpressions:
        - {key: kubernetes.io/metadata.name, operator: NotIn, values: ["$(SYSTEM_NAMESPACES)"]}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`);
    expect(await summary(text, ['matches-kube-system'])).toEqual([]);
    expect(await summary(text.replace('$(SYSTEM_NAMESPACES)', 'widgets'), ['matches-kube-system'])).toEqual(['matches-kube-system error webhooks[0].rules[0]']);
  });

  it('schema and api-validation name a placeholder as one', async () => {
    const text = webhook(`    clientConfig:
      caBundle: "\${CA_BUNDLE}"
      service: {namespace: widgets, name: widgets, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}
`).replace('  name: widgets\n', '  name: "{{ .Values.name }}"\n');
    const findings = await lintText(text, { only: ['schema', 'api-validation'] });
    // One cause (an unrendered template), one finding per file: schema names it, api-validation defers.
    expect(findings.map((f) => `${f.ruleId} ${f.message}`)).toEqual([
      'schema webhooks[0].clientConfig.caBundle is the unrendered placeholder "${CA_BUNDLE}" (2 placeholders in this file: render it first)',
    ]);
  });
});

describe('placeholders in a url host', () => {
  const file = (caBundle: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: image-compliance
webhooks:
  - name: admission.image-compliance.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
      url: https://<YOUR_API_ID>.example.com/check${caBundle}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;

  it('are named by client-config-url when they are the file\'s only ones (the API server accepts the url)', async () => {
    expect((await summary(file(''), ['client-config-url', 'schema', 'api-validation'])).map((each) => each.split(' ').slice(0, 2).join(' '))).toEqual(['client-config-url warning']);
  });

  it('are named where no other finding names the file\'s placeholders: another configuration\'s, a token host with a port (attack s48c)', async () => {
    const two = `${file('')}---\n${file('').replace('name: image-compliance', 'name: other').replace('admission.image-compliance', 'admission.other')}`;
    expect((await summary(two, ['client-config-url', 'schema', 'api-validation'])).map((each) => each.split(' ')[0])).toEqual(['client-config-url', 'client-config-url']);
    const token = file('').replace('<YOUR_API_ID>.example.com', 'WEBHOOK_HOST:8443');
    expect((await lintText(token, { only: ['client-config-url'] })).map((f) => f.message)).toEqual([expect.stringContaining('holds the placeholder "WEBHOOK_HOST"')]);
    // A placeholder in the query: api-validation names the url (the API server rejects a query), once.
    const query = file('').replace('/check', '/check?stage=$STAGE');
    expect((await lintText(query, { only: ['client-config-url', 'schema', 'api-validation'] })).map((f) => f.ruleId)).toEqual(['api-validation']);
  });

  it('in a kustomize tree: a var the build fills is none, and a Namespace the build renames names nothing (attack s48d)', async () => {
    const lintTree = async (files: Record<string, string>): Promise<string[]> =>
      (await lint({ paths: [folder(files)], rules: selectRules(['client-config-url', 'schema', 'api-validation']), kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' })).findings.map((f) => f.ruleId);
    // The kustomization's namespace: renames the Namespace named <NS>: its error is not reported, so the host is named here.
    expect(await lintTree({ 'kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: real-ns
resources:
- wh.yaml
`, 'wh.yaml': `apiVersion: v1
kind: Namespace
metadata:
  name: <NS>
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: a
webhooks:
  - name: a.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    clientConfig:
      url: https://<YOUR_API_ID>.execute-api.example.com/check
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
` })).toEqual(['client-config-url']);
    // $(WEBHOOK_HOST) is a kustomize var the build fills in the url.
    expect(await lintTree({ 'kustomization.yaml': `resources: [wh.yaml, svc.yaml]
configurations: [params.yaml]
vars:
- name: WEBHOOK_HOST
  objref: {apiVersion: v1, kind: Service, name: hook}
  fieldref: {fieldPath: metadata.name}
`, 'params.yaml': `varReference:
- path: webhooks/clientConfig/url
  kind: ValidatingWebhookConfiguration
`, 'svc.yaml': `apiVersion: v1
kind: Service
metadata:
  name: hook
  namespace: x
spec:
  ports: [{port: 443}]
`, 'wh.yaml': `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: a
webhooks:
  - name: a.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    clientConfig:
      url: https://$(WEBHOOK_HOST)/check
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
` })).toEqual([]);
  });

  it('are counted in the one finding that names a file\'s placeholders, and not named again', async () => {
    const found = await lintText(file('\n      caBundle: ${CA_BUNDLE}'), { only: ['client-config-url', 'schema', 'api-validation'] });
    expect(found.map((f) => f.ruleId)).toEqual(['schema']);
    expect(found[0]!.message).toContain('(2 placeholders in this file: render it first)');
  });
});

describe("the system's objects and opt-in selectors", () => {
  const pods = (selector: string): string =>
    webhook(`    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    objectSelector:
${selector}
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`);

  it('an opt-in label under a k8s.io domain excludes kube-system pods', async () => {
    expect(await summary(pods('      matchExpressions: [{key: widgets.sigs.k8s.io/managed, operator: Exists}]'), ['matches-kube-system'])).toEqual([]);
    expect(await summary(pods('      matchLabels: {tier: frontend}'), ['matches-kube-system'])).toEqual([]);
  });

  it('a label kube-system pods carry keeps them selected', async () => {
    expect(await summary(pods('      matchExpressions: [{key: k8s-app, operator: Exists}]'), ['matches-kube-system'])).toEqual(['matches-kube-system error webhooks[0].rules[0]']);
    expect(await summary(pods('      matchLabels: {tier: control-plane}'), ['matches-kube-system'])).toEqual(['matches-kube-system error webhooks[0].rules[0]']);
    // An opt-out: kube-system's pods do not carry the label, so the webhook sees them.
    expect(await summary(pods('      matchExpressions: [{key: widgets.example.com/skip, operator: DoesNotExist}]'), ['matches-kube-system'])).toEqual(['matches-kube-system error webhooks[0].rules[0]']);
  });
});

describe('never-called webhooks', () => {
  it('a v1beta1 configuration past 1.22 gets removed-api-version, not findings about its calls', async () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: pods.widgets.example.com
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /mutate}
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
    expect((await summary(text)).filter((f) => !f.includes(' info '))).toEqual(['removed-api-version error apiVersion']);
    // Served before 1.22: then the calls matter.
    const before = (await lintText(text, { kubeVersion: '1.21' })).map((f) => f.ruleId);
    expect(before).toContain('admission-review-versions');
    expect(before).not.toContain('removed-api-version');
  });

  it('a webhook shipped without rules (filled in at run time) gets findings about its settings, none about what it intercepts', async () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: pods.widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    reinvocationPolicy: IfNeeded
    timeoutSeconds: 30
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /mutate}
`;
    // failurePolicy and timeoutSeconds apply to whatever rules the controller adds; reinvocation,
    // kube-system and the like depend on the rules, which the file does not show.
    expect(await summary(text)).toEqual(['implicit-failure-policy warning webhooks[0].failurePolicy', 'long-timeout info webhooks[0].timeoutSeconds']);
    // A written empty list is never called: nothing about its calls.
    expect(await summary(text.replace('      service: {namespace: widgets, name: widgets, path: /mutate}\n', '      service: {namespace: widgets, name: widgets, path: /mutate}\n    rules: []\n'), ['implicit-failure-policy', 'long-timeout', 'non-idempotent-mutator'])).toEqual([]);
  });
});

describe('one finding per cause: patch fragments', () => {
  it('a configuration whose webhooks have neither clientConfig nor rules is one api-validation finding', async () => {
    const fragment = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: pods.widgets.example.com
    namespaceSelector:
      matchExpressions: [{key: widgets.example.com/skip, operator: DoesNotExist}]
  - name: deployments.widgets.example.com
    objectSelector:
      matchLabels: {widgets.example.com/managed: "true"}
`;
    const findings = await lintText(fragment);
    // Never applied alone, so not an error: one info that says to lint the kustomize output.
    expect(findings.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId} ${f.fieldPath}`)).toEqual([]);
    expect(findings.filter((f) => f.ruleId === 'api-validation').map((f) => `${f.severity} ${f.fieldPath}`)).toEqual(['info webhooks']);
    expect(findings.find((f) => f.ruleId === 'api-validation')!.message).toMatch(/^no webhook has clientConfig or rules: a kustomize patch fragment/);
    // A patch that sets a Service (and rules on some): no webhook sets sideEffects or
    // admissionReviewVersions, which v1 requires and every generator writes: a fragment too, and
    // nothing about its calls is judged (its failurePolicy, timeout and the rest are the base's).
    const withService = fragment.replace(
      '  - name: deployments.widgets.example.com\n',
      '  - name: deployments.widgets.example.com\n    clientConfig: {service: {namespace: kube-system, name: widgets}}\n    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]\n',
    ).replace('  - name: pods.widgets.example.com\n', '  - name: pods.widgets.example.com\n    clientConfig: {service: {namespace: kube-system, name: widgets}}\n');
    const patched = await lintText(withService);
    expect(patched.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId} ${f.fieldPath}`)).toEqual([]);
    expect(patched.find((f) => f.ruleId === 'api-validation')!.message).toMatch(/^no webhook has sideEffects or admissionReviewVersions: a kustomize patch fragment/);
    // One complete webhook makes it a configuration: each missing field is its own error again.
    const complete = withService.replace('    rules: [{operations', '    sideEffects: None\n    admissionReviewVersions: [v1]\n    rules: [{operations');
    const completeErrors = (await lintText(complete)).filter((f) => f.severity === 'error').map((f) => f.ruleId);
    expect(completeErrors).toEqual(expect.arrayContaining(['api-validation', 'side-effects']));
    // Every webhook complete but for those two fields: a configuration the API server rejects, one error each.
    const unversioned = complete.replace('    sideEffects: None\n    admissionReviewVersions: [v1]\n', '').replace('  - name: pods.widgets.example.com\n', '  - name: pods.widgets.example.com\n    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]\n');
    const unversionedErrors = (await lintText(unversioned)).filter((f) => f.severity === 'error' && f.ruleId !== 'matches-kube-system').map((f) => f.ruleId);
    expect(unversionedErrors.sort()).toEqual(['api-validation', 'api-validation', 'side-effects', 'side-effects']);
  });
});

describe('one finding per cause: unrendered templates', () => {
  it('names the placeholders of a document once, in schema when it runs, else in api-validation', async () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: templated
webhooks:
  - name: pods.templated.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
      caBundle: "\${CA_BUNDLE}"
      service: {namespace: templated, name: templated-webhook, path: /mutate}
    namespaceSelector:
      matchLabels: {"\${SELECTOR_LABEL}": enabled}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
    const placeholders = (findings: readonly { ruleId: string; message: string }[]) => findings.filter((f) => / is the unrendered placeholder /.test(f.message)).map((f) => `${f.ruleId}: ${f.message}`);
    expect(placeholders(await lintText(text))).toEqual(['schema: webhooks[0].clientConfig.caBundle is the unrendered placeholder "${CA_BUNDLE}" (2 placeholders in this file: render it first)']);
    expect(placeholders(await lintText(text, { only: ['api-validation'] }))).toEqual(['api-validation: webhooks[0].namespaceSelector.matchLabels is the unrendered placeholder "${SELECTOR_LABEL}" (2 placeholders in this file: render it first)']);
  });

  it('names them once per file, however many documents one render fills in', async () => {
    const configuration = (name: string, extra = ''): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: ${name}
webhooks:
  - name: ${name}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    clientConfig:
      caBundle: CA_BUNDLE
      service: {namespace: tools, name: ${name}, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
${extra}`;
    const placeholders = (findings: readonly { ruleId: string; message: string; line: number }[]) => findings.filter((f) => / is the unrendered placeholder /.test(f.message)).map((f) => `${f.ruleId} ${f.line}: ${f.message}`);
    const text = [configuration('one'), configuration('two'), configuration('three')].join('---\n');
    expect(placeholders(await lintText(text))).toEqual(['schema 11: webhooks[0].clientConfig.caBundle is the unrendered placeholder "CA_BUNDLE" (3 placeholders in this file: render it first)']);
    // Another file is another render: each names its own.
    expect(placeholders(await lintText(configuration('one')))).toEqual(['schema 11: webhooks[0].clientConfig.caBundle is the unrendered placeholder "CA_BUNDLE"']);
    // Without schema, api-validation names the file's first, once, although a URL placeholder fails two of its tests.
    const url = configuration('one').replace('service: {namespace: tools, name: one, path: /validate}', 'url: "WEBHOOK_URL"').replace('caBundle: CA_BUNDLE', 'caBundle: ""');
    expect(placeholders(await lintText(`${url}---\n${url.replace(/one/g, 'two')}`, { only: ['api-validation'] }))).toEqual(['api-validation 12: webhooks[0].clientConfig.url is the unrendered placeholder "WEBHOOK_URL" (2 placeholders in this file: render it first)']);
    // A field that only holds a placeholder may fail for another reason, which a render keeps.
    const http = configuration('one').replace('service: {namespace: tools, name: one, path: /validate}', 'url: "http://$WEBHOOK_HOST/validate?x=1"').replace('caBundle: CA_BUNDLE', 'caBundle: ""');
    expect((await lintText(http, { only: ['api-validation'] })).map((f) => f.message).filter((m) => /only allowed URL scheme|query parameters/.test(m))).toHaveLength(2);
    // Other errors of a templated document are still reported: a render does not add a missing field.
    const missing = await lintText(configuration('one').replace('    admissionReviewVersions: ["v1"]\n', ''), { only: ['api-validation'] });
    expect(missing.map((f) => f.message).filter((m) => m.includes('admissionReviewVersions: Required value'))).toHaveLength(1);
  });
});

describe('entries with capitals', () => {
  it('match nothing in any group: unknown-resource says so, and no finding is made about calls that never come', async () => {
    const mutator = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: predictions
webhooks:
  - name: mprediction.example.com
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: predictions, name: webhook, path: /mutate}
    rules:
      - operations: ["CREATE", "UPDATE"]
        apiGroups: ["prediction.example.com"]
        apiVersions: ["v1alpha1"]
        resources: ["TimeSeriesPrediction"]
`;
    const findings = await lintText(mutator);
    expect(findings.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['unknown-resource warning']);
    // The plural, lowercase: called, and judged (the omitted failurePolicy, the mutation on UPDATE).
    const plural = await lintText(mutator.replace('TimeSeriesPrediction', 'timeseriespredictions'));
    expect(plural.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['implicit-failure-policy', 'non-idempotent-mutator']));
  });
});

describe('one finding per cause: a label key meant to name kube-system', () => {
  const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'editable-namespace-selector', 'invalid', 'name-key-for-kube-system.yaml'), 'utf8');

  it('is named by matches-kube-system, whose finding covers editable-namespace-selector\'s on that key (an info)', async () => {
    const findings = await lintText(text, { only: ['matches-kube-system', 'editable-namespace-selector'] });
    const editable = findings.filter((f) => f.ruleId === 'editable-namespace-selector').map((f) => `${f.severity}${f.coveredBy ? ` (was ${f.coveredBy.severity})` : ''} ${f.webhook} | ${f.message}`);
    expect(editable).toEqual([
      // The key meant to name kube-system is a finding of its own: the other opt-out stays a warning.
      'info (was warning) pods.image-gate.example.com | webhook "pods.image-gate.example.com" skips namespaces labelled "name": cluster-level users can opt one out',
      'warning pods.image-gate.example.com | webhook "pods.image-gate.example.com" skips namespaces labelled "image-gate.example.com/disable-filtering": cluster-level users can opt one out',
      'info (was warning) only-name.image-gate.example.com | webhook "only-name.image-gate.example.com" skips namespaces labelled "name": cluster-level users can opt one out',
      // Custom resources only: matches-kube-system has nothing to say, nothing covers it.
      'info widgets.image-gate.example.com | namespaceSelector of webhook "widgets.image-gate.example.com" reads the namespace label "name" (custom resources only)',
    ]);
    const kubeSystem = findings.filter((f) => f.ruleId === 'matches-kube-system');
    expect(kubeSystem.map((f) => f.webhook)).toEqual(['pods.image-gate.example.com', 'only-name.image-gate.example.com']);
    for (const finding of kubeSystem) expect(finding.message).toContain('kube-system has no label "name"');
  });

  it('stays a warning where the kube-system finding is suppressed, or is not an error (Ignore)', async () => {
    const suppressed = text.replace('    rules:\n      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}\n    namespaceSelector:\n      matchExpressions:\n        - {key: name, operator: NotIn, values: ["kube-system", "image-gate"]}', '    # admission-lint-disable-next-line matches-kube-system -- the cluster labels namespaces by name\n    rules:\n      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}\n    namespaceSelector:\n      matchExpressions:\n        - {key: name, operator: NotIn, values: ["kube-system", "image-gate"]}');
    expect(suppressed).not.toBe(text);
    const kept = await lintText(suppressed, { only: ['matches-kube-system', 'editable-namespace-selector'] });
    expect(kept.filter((f) => f.ruleId === 'editable-namespace-selector' && f.webhook === 'pods.image-gate.example.com').map((f) => f.severity)).toEqual(['warning', 'warning']);
    const ignore = text.replace('  - name: pods.image-gate.example.com\n', '  - name: pods.image-gate.example.com\n    failurePolicy: Ignore\n    timeoutSeconds: 30\n');
    const ignored = await lintText(ignore, { only: ['matches-kube-system', 'editable-namespace-selector', 'critical-resources'] });
    expect(ignored.filter((f) => f.ruleId === 'editable-namespace-selector' && f.webhook === 'pods.image-gate.example.com').map((f) => f.severity)).toEqual(['warning', 'warning']);
  });

  it('is editable-namespace-selector\'s when matches-kube-system is off', async () => {
    const findings = await lintText(text, { only: ['editable-namespace-selector'] });
    expect(findings.map((f) => f.message).filter((m) => m.includes('"name"'))).toHaveLength(3);
  });
});

describe('never-called webhooks: what the move to v1 exposes', () => {
  it('removed-api-version names the webhook that would fail closed in kube-system, in its help', async () => {
    const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'removed-api-version', 'invalid', 'v1beta1-kube-system.yaml'), 'utf8');
    const findings = await lintText(text);
    // Never called: no finding about its calls, only the version's.
    expect(findings.filter((f) => f.severity !== 'info').map((f) => f.ruleId)).toEqual(Array(5).fill('removed-api-version'));
    const [injector, images, audit, , disruptions] = findings.filter((f) => f.ruleId === 'removed-api-version');
    expect(injector!.help).toContain('On v1, webhook "inject.example.com" intercepts pods (core) in kube-system with failurePolicy Fail');
    expect(injector!.help).toContain('(see matches-kube-system)');
    expect(images!.help).toContain('webhook "images.example.com" intercepts pods (core) in kube-system');
    expect(audit!.help).not.toContain('On v1');
    expect(disruptions!.help).toContain('intercepts pods/eviction (core) in kube-system');
    for (const finding of findings) expect(finding.message.length).toBeLessThanOrEqual(160);
  });

  it('names wildcard-rule for a webhook of every resource (matches-kube-system leaves it to that rule)', async () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingWebhookConfiguration
metadata:
  name: everything
webhooks:
  - name: everything.example.com
    clientConfig:
      service: {namespace: everything, name: everything, path: /validate}
    rules:
      - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}
`;
    const [finding] = (await lintText(text)).filter((f) => f.ruleId === 'removed-api-version');
    expect(finding!.message).toMatch(/; v1 fails it closed in kube-system$/);
    expect(finding!.help).toContain('(see wildcard-rule)');
  });

  it('judges the selectors the kustomize patches give (a patch that excludes kube-system: no claim)', async () => {
    const base = `apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingWebhookConfiguration
metadata:
  name: trace
webhooks:
  - name: trace.example.com
    clientConfig:
      service: {namespace: trace, name: trace, path: /m}
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
    const patch = `resources: [webhook.yaml]
patches:
  - target: {kind: MutatingWebhookConfiguration, name: trace}
    patch: |-
      - op: add
        path: /webhooks/0/namespaceSelector
        value: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
`;
    const removed = async (files: Record<string, string>): Promise<Finding[]> => {
      const report = await lint({ paths: [folder(files)], rules: selectRules(['removed-api-version']), kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      return report.findings.filter((f) => f.ruleId === 'removed-api-version');
    };
    expect((await removed({ 'webhook.yaml': base, 'kustomization.yaml': patch }))[0]!.message).toMatch(/; v1 makes its failurePolicy Fail$/);
    expect((await removed({ 'webhook.yaml': base, 'kustomization.yaml': 'resources: [webhook.yaml]\n' }))[0]!.message).toMatch(/; v1 fails it closed in kube-system$/);
  });
});
