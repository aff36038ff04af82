/** The built CLI as users run it: spawned, with its stdout, stderr and exit code. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from './spawn-cli.js';

const ROOT = join(import.meta.dirname, '..');

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}) => spawnCli(args, options);

const VALID = readFileSync(join(ROOT, 'fixtures/removed-api-version/valid/v1.yaml'), 'utf8');
/** A manifest whose only finding is a warning (implicit-failure-policy). */
const WARNING_ONLY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 5
    clientConfig:
      url: https://widgets.example.com/validate
    namespaceSelector:
      matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}
`;

describe('exit codes', () => {
  it('exits 1 on the bundled examples, which have errors', () => {
    const { code, stdout, stderr } = cli(['fixtures/examples']);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(stdout).toContain('fixtures/examples/policy-webhook.yaml');
    expect(stdout).toMatch(/\d+ problems \(\d+ errors?, \d+ warnings?, \d+ infos?\)/);
  });

  it('exits 0 on a clean file and says so', () => {
    const { code, stdout } = cli(['fixtures/removed-api-version/valid/v1.yaml']);
    expect(code).toBe(0);
    expect(stdout).toContain('no problems');
  });

  it('honours --fail-on', () => {
    expect(cli(['-'], { input: WARNING_ONLY }).code).toBe(0);
    expect(cli(['--fail-on', 'warning', '-'], { input: WARNING_ONLY }).code).toBe(1);
    expect(cli(['--fail-on', 'never', 'fixtures/examples']).code).toBe(0);
  });

  it('exits 2 with one line and no stack for a path that does not exist', () => {
    const { code, stdout, stderr } = cli(['fixtures/examples', 'no/such/file.yaml']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('admission-lint: no such file or folder: no/such/file.yaml\n');
  });

  it('exits 2 on a bad flag, a bad flag value and an unknown rule', () => {
    expect(cli(['--no-such-flag']).code).toBe(2);
    expect(cli(['--format', 'xml', 'fixtures/examples']).code).toBe(2);
    const unknownRule = cli(['--rule', 'no-such-rule=off', 'fixtures/examples']);
    expect(unknownRule.code).toBe(2);
    expect(unknownRule.stderr).toContain('unknown rule "no-such-rule"');
    expect(cli(['--kube-version', 'latest', 'fixtures/examples']).code).toBe(2);
  });

  it('exits 0 for --help and --version', () => {
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: admission-lint');
    const version = cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('inputs', () => {
  it('reads stdin as "-" and names it <stdin>', () => {
    const { code, stdout } = cli(['--format', 'json', '-'], { input: WARNING_ONLY });
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.findings.map((f: { file: string }) => f.file)).toEqual(['<stdin>']);
  });

  it('walks folders as kubectl apply -R does: .yaml, .yml and .json (case-sensitive), dot-folders and node_modules too, not .git', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    mkdirSync(join(dir, 'deploy', 'nested'), { recursive: true });
    mkdirSync(join(dir, 'deploy', 'node_modules', 'pkg'), { recursive: true });
    mkdirSync(join(dir, 'deploy', '.hidden', '.deeper'), { recursive: true });
    mkdirSync(join(dir, 'deploy', '.git'), { recursive: true });
    writeFileSync(join(dir, 'deploy', 'a.yaml'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'nested', 'b.yml'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'c.json'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
    writeFileSync(join(dir, 'deploy', 'notes.txt'), 'not a manifest');
    writeFileSync(join(dir, 'deploy', 'upper.YAML'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'upper.Yml'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'node_modules', 'pkg', 'x.yaml'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', '.hidden', '.deeper', '.dot.yaml'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', '.git', 'x.yaml'), WARNING_ONLY);
    const { code, stdout } = cli(['--format', 'json', 'deploy'], { cwd: dir });
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect([...new Set(report.findings.map((f: { file: string }) => f.file))].sort()).toEqual(['deploy/.hidden/.deeper/.dot.yaml', 'deploy/a.yaml', 'deploy/nested/b.yml', 'deploy/node_modules/pkg/x.yaml']);
    expect(report.summary).toMatchObject({ files: 5, documents: 5, objects: 4 });
  });

  it('reads the files a kustomization names, whatever their extension, but never outside the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    mkdirSync(join(dir, 'deploy', 'overlay'), { recursive: true });
    writeFileSync(join(dir, 'outside.txt'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'kustomization.yaml'), 'resources:\n- webhook.txt\n- ./extra/../policy.manifest\n- ../outside.txt\n- https://example.com/x.txt\n- missing.txt\n- overlay\n');
    writeFileSync(join(dir, 'deploy', 'webhook.txt'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'policy.manifest'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'notes.txt'), WARNING_ONLY);
    writeFileSync(join(dir, 'deploy', 'overlay', 'Kustomization'), 'resources: [more.conf]\n');
    writeFileSync(join(dir, 'deploy', 'overlay', 'more.conf'), WARNING_ONLY);
    const { code, stdout } = cli(['--format', 'json', 'deploy'], { cwd: dir });
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect([...new Set(report.findings.map((f: { file: string }) => f.file))].sort()).toEqual(['deploy/overlay/more.conf', 'deploy/policy.manifest', 'deploy/webhook.txt']);
  });

  it('names the objects that the patches of a kustomization in the run change (kustomize-patched), from patch files too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    mkdirSync(join(dir, 'base'), { recursive: true });
    mkdirSync(join(dir, 'overlay'), { recursive: true });
    writeFileSync(join(dir, 'base', 'webhooks.yaml'), [WARNING_ONLY, WARNING_ONLY.replace(/widgets/g, 'gadgets')].join('---\n'));
    writeFileSync(join(dir, 'overlay', 'kustomization.yaml'), 'resources: [../base]\npatches:\n  - path: fail.yaml\n');
    // A strategic-merge patch file: it names its target by kind and name.
    writeFileSync(join(dir, 'overlay', 'fail.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: gadgets}\nwebhooks: [{name: gadgets.example.com, failurePolicy: Fail}]\n');
    const { stdout } = cli(['--format', 'json', '--rule', 'kustomize-patched=info', '.'], { cwd: dir });
    const report = JSON.parse(stdout);
    expect(report.findings.filter((f: { ruleId: string }) => f.ruleId === 'kustomize-patched').map((f: { file: string; message: string }) => `${f.file} ${f.message}`)).toEqual([
      'base/webhooks.yaml ValidatingWebhookConfiguration "gadgets" is changed by the kustomize patch at overlay/kustomization.yaml:3: findings here judge it unpatched',
    ]);
  });

  it('does not lint the files a kustomization lists as patches (they are partial objects)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [manifests.yaml]\npatches:\n  - path: selector_patch.yaml\npatchesStrategicMerge:\n  - legacy_patch.yaml\n');
    writeFileSync(join(dir, 'manifests.yaml'), WARNING_ONLY);
    const partial = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: widgets}\nwebhooks:\n  - name: implicit.widgets.example.com\n    namespaceSelector: {matchLabels: {team: a}}\n';
    writeFileSync(join(dir, 'selector_patch.yaml'), partial);
    writeFileSync(join(dir, 'legacy_patch.yaml'), partial);
    writeFileSync(join(dir, 'not_a_patch.yaml'), partial);
    const report = JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout);
    const files = [...new Set(report.findings.map((f: { file: string }) => f.file))];
    // A partial object in a file the kustomization lists nowhere is no part of its build either (counted, not linted).
    expect(files).toEqual(['manifests.yaml']);
    expect(report.summary).toMatchObject({ files: 5, objects: 1 });
    // Listed as a resource, it is built as written, and linted (a fragment: api-validation's info).
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [manifests.yaml, not_a_patch.yaml]\npatches:\n  - path: selector_patch.yaml\npatchesStrategicMerge:\n  - legacy_patch.yaml\n');
    const listed = JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout);
    expect([...new Set(listed.findings.map((f: { file: string }) => f.file))]).toEqual(['manifests.yaml', 'not_a_patch.yaml']);
  });

  it('does not lint a patch in another folder than its kustomization (patches/), even one the walk reaches first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    mkdirSync(join(dir, 'overlay', 'a-patches'), { recursive: true });
    mkdirSync(join(dir, 'overlay', 'patches'), { recursive: true });
    writeFileSync(join(dir, 'overlay', 'kustomization.yaml'), 'resources: []\npatches:\n  - path: patches/delete.yaml\n  - path: a-patches/selector.yaml\n');
    // A delete directive: a strategic-merge patch that removes the object from the build.
    writeFileSync(join(dir, 'overlay', 'patches', 'delete.yaml'), '$patch: delete\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: widgets\n');
    writeFileSync(join(dir, 'overlay', 'a-patches', 'selector.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: widgets}\nwebhooks:\n  - name: w.example.com\n    namespaceSelector: {matchLabels: {team: a}}\n');
    const report = JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout);
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ objects: 0 });
  });

  it('reads an overlay whose folder holds only a file named Kustomization (its patch of the selectors counts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    mkdirSync(join(dir, 'webhook'), { recursive: true });
    mkdirSync(join(dir, 'prod'), { recursive: true });
    writeFileSync(join(dir, 'webhook', 'manifests.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: hooks}\nwebhooks:\n  - name: mpod.example.com\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    failurePolicy: Fail\n    clientConfig: {service: {name: hooks, namespace: system}}\n    rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\n');
    writeFileSync(join(dir, 'webhook', 'kustomization.yaml'), 'resources: [manifests.yaml]\npatches:\n  - path: opt-in.yaml\n');
    writeFileSync(join(dir, 'webhook', 'opt-in.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: hooks}\nwebhooks:\n  - name: mpod.example.com\n    objectSelector: {matchLabels: {inject: enabled}}\n');
    // Alone, the webhook folder is built by its own kustomization: judged as patched.
    expect(JSON.parse(cli(['--format', 'json', 'webhook'], { cwd: dir }).stdout).summary).toMatchObject({ errors: 0 });
    // An overlay (a Kustomization with no manifest beside it) builds on the folder: judged as written.
    writeFileSync(join(dir, 'prod', 'Kustomization'), 'resources: [../webhook]\npatches:\n  - target: {kind: MutatingWebhookConfiguration, name: hooks}\n    patch: \'[{"op": "remove", "path": "/webhooks/0/objectSelector"}]\'\n');
    expect(JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout).summary).toMatchObject({ errors: 2 });
  });

  it('lints a complete admission object in a file a kustomization lists as a patch (anyone applying the file applies it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\npatches:\n  - path: patch.yaml\n');
    writeFileSync(join(dir, 'patch.yaml'), WARNING_ONLY);
    const report = JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout);
    expect(report.findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`)).toEqual(['patch.yaml implicit-failure-policy']);
    expect(report.summary).toMatchObject({ objects: 1 });
  });

  it('reads a partial admission object beside a kustomization that lists its file nowhere as a patch: no part of a build (hold-out 18: a scaffold\'s patch commented out of the list)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    // kubebuilder's old scaffold: a CA-injection patch of v1beta1 objects, left out of config/default.
    const fragment = 'apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: mutating-webhook-configuration\n  annotations:\n    cert-manager.io/inject-ca-from: $(CERTIFICATE_NAMESPACE)/$(CERTIFICATE_NAME)\n';
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\n#patches:\n#  - path: webhookcainjection_patch.yaml\n');
    writeFileSync(join(dir, 'webhookcainjection_patch.yaml'), fragment);
    writeFileSync(join(dir, 'complete.yaml'), WARNING_ONLY);
    const lintedFiles = (): string[] => JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout).findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`);
    // The complete object beside it is linted (anyone applying the file applies it); the fragment is counted, not linted.
    expect(lintedFiles()).toEqual(['complete.yaml implicit-failure-policy']);
    // Listed as a resource, it is built as written: kustomize sends the v1beta1 object.
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [webhookcainjection_patch.yaml]\n');
    expect(lintedFiles()).toEqual(['complete.yaml implicit-failure-policy', 'webhookcainjection_patch.yaml removed-api-version']);
    // A kustomization in a folder above may list it (kustomize lets one list files under its own folder): built, linted (s40 H2).
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'kustomization.yaml'), 'resources: []\n');
    writeFileSync(join(dir, 'sub', 'webhookcainjection_patch.yaml'), fragment);
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [sub/webhookcainjection_patch.yaml]\n');
    const inSub = JSON.parse(cli(['--format', 'json', 'sub'], { cwd: dir }).stdout).findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`);
    expect(inSub).toEqual(['sub/webhookcainjection_patch.yaml removed-api-version']);
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [sub]\n');
    expect(JSON.parse(cli(['--format', 'json', 'sub'], { cwd: dir }).stdout).findings).toEqual([]);
    // An object that may intercept a request is linted wherever it lies: a webhook with rules and a
    // clientConfig beside one without rules, a policy with auditAnnotations only (s40 H2, H3).
    const mixed = WARNING_ONLY.replace('webhooks:\n', 'webhooks:\n  - name: placeholder.example.com\n    clientConfig: {service: {name: s, namespace: n}}\n    sideEffects: None\n    admissionReviewVersions: [v1]\n');
    writeFileSync(join(dir, 'sub', 'webhookcainjection_patch.yaml'), mixed);
    expect(JSON.parse(cli(['--format', 'json', 'sub'], { cwd: dir }).stdout).summary).toMatchObject({ objects: 1 });
    writeFileSync(join(dir, 'sub', 'webhookcainjection_patch.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: audit}\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\n  auditAnnotations: [{key: team, valueExpression: "\'x\'"}]\n');
    expect(JSON.parse(cli(['--format', 'json', 'sub'], { cwd: dir }).stdout).summary).toMatchObject({ objects: 1 });
    rmSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [webhookcainjection_patch.yaml]\n');
    // Without a kustomization beside it, it is a file someone applies.
    rmSync(join(dir, 'kustomization.yaml'));
    expect(lintedFiles()).toEqual(['complete.yaml implicit-failure-policy', 'webhookcainjection_patch.yaml removed-api-version']);
  });

  it('lints a file listed as a patch when an object in it stands alone, and not a patch that restates a webhook (s44a H1, s44b 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    const ruleIds = (path: string): string[] => JSON.parse(cli(['--format', 'json', path], { cwd: dir }).stdout).findings.map((f: { ruleId: string }) => f.ruleId);
    // A complete webhook beside one without rules (rules are optional): applied by anyone who
    // applies the file, whatever a kustomization elsewhere lists it as.
    const complete = WARNING_ONLY.replace('webhooks:\n', 'webhooks:\n  - name: norules.example.com\n    clientConfig: {url: "https://norules.example.com"}\n    sideEffects: None\n    admissionReviewVersions: [v1]\n');
    mkdirSync(join(dir, 'deploy'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'deploy', 'webhook.yaml'), complete);
    writeFileSync(join(dir, 'other', 'kustomization.yaml'), 'resources: []\npatches:\n  - path: ../deploy/webhook.yaml\n');
    expect(ruleIds('.')).toContain('implicit-failure-policy');
    // A strategic-merge patch that restates one webhook's clientConfig and rules takes
    // sideEffects and admissionReviewVersions from its base: a partial object, not linted.
    const restated = 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: widgets}\nwebhooks:\n  - name: widgets.example.com\n    clientConfig: {service: {name: s, namespace: n, path: /v2}}\n    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]\n';
    writeFileSync(join(dir, 'deploy', 'webhook.yaml'), restated);
    writeFileSync(join(dir, 'deploy', 'kustomization.yaml'), 'resources: []\npatches:\n  - path: webhook.yaml\n');
    expect(ruleIds('deploy').filter((id) => id !== 'kustomize-patched')).toEqual([]);
    // So does a policy patch that restates its validations without the required matchConstraints (s44c 3).
    writeFileSync(join(dir, 'deploy', 'webhook.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: check}\nspec:\n  validations: [{expression: "object.spec.replicas < 10"}]\n');
    expect(ruleIds('deploy').filter((id) => id !== 'kustomize-patched')).toEqual([]);
  });

  it('reads names as kustomize builds them: a Namespace its kustomization renames, a legacy JSON 6902 target after the prefix (hold-out 28)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    const ruleIds = (): string[] => JSON.parse(cli(['--format', 'json', '--show-info', '.'], { cwd: dir }).stdout).findings.map((f: { ruleId: string; file: string }) => `${f.file} ${f.ruleId}`);
    writeFileSync(join(dir, 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: _\n');
    expect(ruleIds()).toEqual(['ns.yaml api-validation']);
    // The namespace transformer renames the Namespaces it builds: `_` is a placeholder.
    writeFileSync(join(dir, 'kustomization.yaml'), 'namespace: rook-ceph\nresources: [ns.yaml]\n');
    expect(ruleIds()).toEqual([]);
    // patchesJson6902 runs after the kustomization's namePrefix: its target names the object prefixed.
    rmSync(join(dir, 'ns.yaml'));
    writeFileSync(join(dir, 'webhook.yaml'), WARNING_ONLY);
    writeFileSync(join(dir, 'kustomization.yaml'), "namePrefix: app-\nresources: [webhook.yaml]\npatchesJson6902:\n  - target: {group: admissionregistration.k8s.io, version: v1, kind: ValidatingWebhookConfiguration, name: app-widgets}\n    patch: '[{\"op\": \"replace\", \"path\": \"/webhooks/0/timeoutSeconds\", \"value\": 3}]'\n");
    expect(ruleIds()).toContain('webhook.yaml kustomize-patched');
  });

  it('reads a test fixture in a hidden folder below a kustomization, listed by none, as no part of a build (hold-out 25: `.chainsaw-test/`; s43b 4)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [webhook.yaml]\n');
    writeFileSync(join(dir, 'webhook.yaml'), WARNING_ONLY);
    mkdirSync(join(dir, '.chainsaw-test', 'resources'), { recursive: true });
    // An assertion: the policy as the test expects to find it, partial.
    writeFileSync(join(dir, '.chainsaw-test', 'assert-policy.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: restrict\nspec:\n  failurePolicy: Fail\n');
    // A Namespace the test creates, named by a binding of the test tool.
    writeFileSync(join(dir, '.chainsaw-test', 'resources', 'tenant-namespace.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ($namespace)\n  labels: {tenant: "true"}\n');
    const findings = (): string[] => JSON.parse(cli(['--format', 'json', '.'], { cwd: dir }).stdout).findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`);
    expect(findings()).toEqual(['webhook.yaml implicit-failure-policy']);
    // A plain subfolder may be applied by other means (kubectl apply -R, a GitOps directory source): linted (s43b 4).
    mkdirSync(join(dir, 'deploy'));
    writeFileSync(join(dir, 'deploy', 'binding.yaml'), 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: restrict\nspec:\n  validationActions: [Deny]\n');
    expect(findings()).toEqual(['deploy/binding.yaml api-validation', 'webhook.yaml implicit-failure-policy']);
    rmSync(join(dir, 'deploy'), { recursive: true });
    // Without the kustomization above, they are files someone applies: the partial policy and the placeholder name are reported.
    rmSync(join(dir, 'kustomization.yaml'));
    expect(findings()).toEqual(expect.arrayContaining(['.chainsaw-test/assert-policy.yaml api-validation', '.chainsaw-test/resources/tenant-namespace.yaml api-validation', 'webhook.yaml implicit-failure-policy']));
  });

  it('reports a YAML syntax error in one file and still lints the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-'));
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [ValidatingWebhookConfiguration\n');
    writeFileSync(join(dir, 'webhook.yaml'), WARNING_ONLY);
    const { code, stdout } = cli(['--format', 'json', '.'], { cwd: dir });
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.findings.map((f: { file: string; ruleId: string }) => `${f.file} ${f.ruleId}`)).toEqual(['broken.yaml yaml-syntax', 'webhook.yaml implicit-failure-policy']);
    expect(report.findings[0]).toMatchObject({ line: 2, object: null, fieldPath: null, webhook: null });
  });
});

describe('output', () => {
  it('writes the JSON contract of design.md §4', () => {
    const { stdout } = cli(['--format', 'json', 'fixtures/timeout-out-of-range/invalid/too-long.yaml']);
    const report = JSON.parse(stdout);
    // The contract's fields first; `gate` (what the configuration changed) is an addition after them.
    expect(Object.keys(report)).toEqual(['tool', 'findings', 'summary', 'gate']);
    expect(report.gate).toEqual({ config: null, filesIgnored: 0, rulesOff: [], failOn: 'error', inlineConfig: true, severitiesLowered: [], optionsMatchingAll: [], optionsLoosened: [], optionsExempting: [], kubeVersion: '1.35', kubeVersionUnreleased: null, trustedNamespaceLabels: [] });
    expect(report.tool.name).toBe('admission-lint');
    expect(report.findings[0]).toEqual({
      ruleId: 'timeout-out-of-range',
      severity: 'error',
      message: 'webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 and 30 seconds',
      file: 'fixtures/timeout-out-of-range/invalid/too-long.yaml',
      line: 8,
      column: 5,
      endLine: 8,
      endColumn: 23,
      documentIndex: 0,
      fieldPath: 'webhooks[0].timeoutSeconds',
      object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'widgets' },
      webhook: 'widgets.example.com',
      help: 'The API server rejects the configuration. Set timeoutSeconds between 1 and 30; keep it small (a few seconds).',
    });
    expect(report.summary).toMatchObject({ files: 1, documents: 1, objects: 1, errors: 2, warnings: 0, infos: 0 });
  });

  it('has no colour when stdout is not a terminal or NO_COLOR is set, and colour with FORCE_COLOR', () => {
    const plain = cli(['fixtures/examples']);
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    expect(cli(['fixtures/examples'], { env: { FORCE_COLOR: '1' } }).stdout).toMatch(/\x1b\[/);
    expect(cli(['fixtures/examples'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toMatch(/\x1b\[/);
    expect(cli(['--no-color', 'fixtures/examples'], { env: { FORCE_COLOR: '1' } }).stdout).not.toMatch(/\x1b\[/);
  });

  it('--quiet shows errors only; --output writes the report to a file', () => {
    const quiet = cli(['--quiet', '--format', 'json', 'fixtures/examples']);
    const severities = new Set(JSON.parse(quiet.stdout).findings.map((f: { severity: string }) => f.severity));
    expect([...severities]).toEqual(['error']);
    const out = join(mkdtempSync(join(tmpdir(), 'admission-lint-')), 'report.json');
    const written = cli(['--format', 'json', '--output', out, 'fixtures/examples']);
    expect(written.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).findings.length).toBeGreaterThan(0);
  });

  it('--rule turns a rule off or changes its severity', () => {
    const off = JSON.parse(cli(['--format', 'json', '--rule', 'implicit-failure-policy=off', '-'], { input: WARNING_ONLY }).stdout);
    expect(off.findings).toEqual([]);
    const raised = cli(['--rule', 'implicit-failure-policy=error', '-'], { input: WARNING_ONLY });
    expect(raised.code).toBe(1);
  });
});

describe('subcommands', () => {
  it('defaults prints the object with every defaulted field marked', () => {
    const { code, stdout } = cli(['defaults', '-'], { input: VALID });
    expect(code).toBe(0);
    expect(stdout).toContain('matchPolicy: Equivalent # default');
    expect(stdout).toContain('timeoutSeconds: 10 # default');
    expect(stdout).toContain('scope: "*" # default');
    expect(stdout).toContain('failurePolicy: Fail\n');
    expect(stdout).not.toContain('failurePolicy: Fail # default');
  });

  it('defaults also prints admission policies with their defaults', () => {
    const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
    - expression: "object.spec.replicas <= 5"
`;
    const { code, stdout } = cli(['defaults', '-'], { input: policy });
    expect(code).toBe(0);
    expect(stdout).toContain('failurePolicy: Fail # default');
    expect(stdout).toContain('matchPolicy: Equivalent # default');
    expect(stdout).toContain('scope: "*" # default');
  });

  it('rules lists every rule; explain prints its documentation or fails for an unknown id', () => {
    const list = cli(['rules']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^implicit-failure-policy\s+warning\s+/m);
    const explain = cli(['explain', 'implicit-failure-policy']);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('Why is this bad?');
    expect(explain.stdout).not.toContain('## ');
    expect(explain.stdout).not.toContain('---\nid:');
    const unknown = cli(['explain', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown rule "nope"');
    const typo = cli(['explain', 'implicit-failure-polcy']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe('admission-lint: unknown rule "implicit-failure-polcy"; did you mean "implicit-failure-policy"?');
    const json = JSON.parse(cli(['rules', '--format', 'json']).stdout);
    expect(json.find((r: { id: string }) => r.id === 'side-effects')).toMatchObject({ severity: 'error', kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] });
  });
});
