/** `lint --fix` and `--fix-dry-run` from the command line (docs/fixes.md). */
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRun } from '../src/engine/lint.js';
import { canonical } from '../src/fix/objects.js';
import { runCli } from './run-cli.js';
import { tempFolders } from './temp-folders.js';

const IMPLICIT = `# gate for widgets
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.example.com   # the only one
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 5
    clientConfig:
      service: {namespace: widgets, name: widgets, path: /validate}
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other}
data: {a: 'b'}
`;

const V1BETA1 = `apiVersion: "admissionregistration.k8s.io/v1beta1"
kind: MutatingWebhookConfiguration
metadata: {name: legacy}
webhooks:
- name: legacy.example.com
  sideEffects: NoneOnDryRun
  clientConfig: {url: "https://legacy.example.com/mutate"}
  rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}]
`;

const folder = tempFolders('admission-lint-fix-cli');

describe('lint --fix', () => {
  it('writes the default explicitly, keeps every other byte, reports what is left, and a second run changes nothing', async () => {
    const dir = folder({ 'hooks.yaml': IMPLICIT });
    const first = await runCli(['lint', '--fix', '--no-color', join(dir, 'hooks.yaml')], '');
    const fixed = readFileSync(join(dir, 'hooks.yaml'), 'utf8');
    expect(fixed).toBe(IMPLICIT.replace('# the only one\n', '# the only one\n    failurePolicy: Fail\n    matchPolicy: Equivalent\n'));
    expect(first.stderr).toContain('--fix: 1 fix in 1 file');
    expect(first.stdout).not.toContain('implicit-failure-policy');
    const second = await runCli(['lint', '--fix', '--no-color', join(dir, 'hooks.yaml')], '');
    expect(readFileSync(join(dir, 'hooks.yaml'), 'utf8')).toBe(fixed);
    expect(second.stderr).toContain('--fix: 0 fixes in 0 files');
  });

  it('writes an implicit failurePolicy with the other implicit defaults of each webhook and policy, the same effective configuration', async () => {
    const mutating = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: inject}
webhooks:
  - name: a.inject.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    clientConfig: {url: "https://inject.example.com/a"}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
  - name: b.inject.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    matchPolicy: Exact
    clientConfig: {url: "https://inject.example.com/b"}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;
    const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}]
  validations:
    - expression: "object.spec.replicas <= 5"
`;
    const dir = folder({ 'mutating.yaml': mutating, 'policy.yaml': policy });
    // What `defaults` prints, as data (key order aside).
    const effective = () => {
      const run = loadRun([dir]);
      return [...run.webhookConfigurations, ...run.policies].map((object) => canonical(object.effective));
    };
    const before = effective();
    const result = await runCli(['lint', '--fix', '--show-info', '--no-color', dir], '');
    expect(readFileSync(join(dir, 'mutating.yaml'), 'utf8')).toBe(
      mutating
        .replace('  - name: a.inject.example.com\n', '  - name: a.inject.example.com\n    failurePolicy: Fail\n    matchPolicy: Equivalent\n    timeoutSeconds: 10\n    reinvocationPolicy: Never\n')
        .replace('  - name: b.inject.example.com\n', '  - name: b.inject.example.com\n    failurePolicy: Fail\n    timeoutSeconds: 10\n    reinvocationPolicy: Never\n'),
    );
    expect(readFileSync(join(dir, 'policy.yaml'), 'utf8')).toBe(policy.replace('  matchConstraints:\n', '  failurePolicy: Fail\n  matchConstraints:\n    matchPolicy: Equivalent\n'));
    expect(result.stdout).not.toContain('implicit-failure-policy');
    // The effective configuration is the same, and nothing of it is defaulted any more but selectors and scopes.
    expect(effective()).toEqual(before);
    const after = await runCli(['defaults', dir], '');
    expect(after.stdout).toContain('namespaceSelector: {} # default');
    expect(after.stdout).not.toMatch(/(failurePolicy|matchPolicy|timeoutSeconds|reinvocationPolicy): .*# default/);
  });

  it('keeps CRLF line endings', async () => {
    const dir = folder({ 'crlf.yaml': IMPLICIT.replace(/\n/g, '\r\n') });
    await runCli(['lint', '--fix', join(dir, 'crlf.yaml')], '');
    const fixed = readFileSync(join(dir, 'crlf.yaml'), 'utf8');
    expect(fixed).toContain('    failurePolicy: Fail\r\n');
    expect(/(?<!\r)\n/.test(fixed)).toBe(false);
  });

  it('moves v1beta1 to v1 keeping what it did, and the quoting of apiVersion', async () => {
    const dir = folder({ 'legacy.yaml': V1BETA1 });
    await runCli(['lint', '--fix', dir], '');
    const fixed = readFileSync(join(dir, 'legacy.yaml'), 'utf8');
    expect(fixed).toBe(
      V1BETA1.replace('"admissionregistration.k8s.io/v1beta1"', '"admissionregistration.k8s.io/v1"').replace(
        '- name: legacy.example.com\n',
        '- name: legacy.example.com\n  failurePolicy: Ignore\n  matchPolicy: Exact\n  timeoutSeconds: 30\n  admissionReviewVersions: [v1beta1]\n',
      ),
    );
    const defaults = await runCli(['defaults', join(dir, 'legacy.yaml')], '');
    expect(defaults.code).toBe(0);
  });

  it('offers v1beta1 to v1 as a suggestion only when sideEffects needs a decision', async () => {
    const text = V1BETA1.replace('  sideEffects: NoneOnDryRun\n', '');
    const dir = folder({ 'legacy.yaml': text });
    const dry = await runCli(['lint', '--fix-dry-run', dir], '');
    expect(dry.stdout).toContain('# suggestion (removed-api-version');
    expect(dry.stdout).toContain('sideEffects: None');
    await runCli(['lint', '--fix', dir], '');
    expect(readFileSync(join(dir, 'legacy.yaml'), 'utf8')).not.toContain('/v1"');
  });

  it('--fix-dry-run writes nothing and prints a diff that git apply takes', async () => {
    const dir = folder({ 'hooks.yaml': IMPLICIT, 'legacy.yaml': V1BETA1 });
    const dry = await runCli(['lint', '--fix-dry-run', dir], '');
    expect(readFileSync(join(dir, 'hooks.yaml'), 'utf8')).toBe(IMPLICIT);
    expect(dry.stdout).toContain('+    failurePolicy: Fail\n');
    expect(dry.stdout).toContain('# suggestion (implicit-failure-policy');
    // The paths are as given (absolute here): name the files from the folder, as in a repository.
    const patch = dry.stdout.replace(/^(---|\+\+\+) ([ab])\/.*\/([^/\n]+)$/gm, '$1 $2/$3');
    const git = spawnSync('git', ['apply', '-p1', '-'], { input: patch, cwd: dir, encoding: 'utf8' });
    expect(git.stderr).toBe('');
    expect(git.status).toBe(0);
    const fixedByFix = folder({ 'hooks.yaml': IMPLICIT, 'legacy.yaml': V1BETA1 });
    await runCli(['lint', '--fix', fixedByFix], '');
    for (const name of ['hooks.yaml', 'legacy.yaml']) expect(readFileSync(join(dir, name), 'utf8')).toBe(readFileSync(join(fixedByFix, name), 'utf8'));
  });

  it('prints the fixed document for standard input, and rewrites no file', async () => {
    const result = await runCli(['lint', '--fix', '-'], IMPLICIT);
    expect(result.stdout).toBe(IMPLICIT.replace('# the only one\n', '# the only one\n    failurePolicy: Fail\n    matchPolicy: Equivalent\n'));
  });

  it('does not write through a symbolic link, and leaves unrendered templates alone', async () => {
    const dir = folder({ 'outside/hooks.yaml': IMPLICIT, 'lint/real.yaml': IMPLICIT, 'lint/templated.yaml': IMPLICIT.replace('name: widgets\n', 'name: {{ .Release.Name }}\n') });
    symlinkSync(join(dir, 'lint/real.yaml'), join(dir, 'lint/link.yaml'));
    symlinkSync(join(dir, 'outside/hooks.yaml'), join(dir, 'lint/out.yaml'));
    const result = await runCli(['lint', '--fix', join(dir, 'lint')], '');
    expect(lstatSync(join(dir, 'lint/link.yaml')).isSymbolicLink()).toBe(true);
    expect(result.stderr).toMatch(/link\.yaml as it was: is a symbolic link/);
    expect(readFileSync(join(dir, 'lint/real.yaml'), 'utf8')).toContain('failurePolicy: Fail');
    expect(readFileSync(join(dir, 'outside/hooks.yaml'), 'utf8')).toBe(IMPLICIT);
    expect(readFileSync(join(dir, 'lint/templated.yaml'), 'utf8')).toContain('{{ .Release.Name }}');
    expect(readFileSync(join(dir, 'lint/templated.yaml'), 'utf8')).not.toContain('failurePolicy');
  });

  it('suggests a has() guard for an unguarded field read in a one-line matchCondition, and does not apply it', async () => {
    const text = IMPLICIT.replace('    rules:\n', "    failurePolicy: Fail\n    matchConditions:\n      - name: no-init\n        expression: 'object.spec.initContainers.size() == 0'\n    rules:\n").replace('resources: ["widgets"]', 'resources: ["pods"]').replace('apiGroups: ["example.com"]', 'apiGroups: [""]');
    const dir = folder({ 'guard.yaml': text });
    const dry = await runCli(['lint', '--fix-dry-run', dir], '');
    expect(dry.stdout).toContain("#   +        expression: 'has(object.spec.initContainers) && (object.spec.initContainers.size() == 0)'\n");
    await runCli(['lint', '--fix', dir], '');
    expect(readFileSync(join(dir, 'guard.yaml'), 'utf8')).toBe(text);
  });

  it('quotes a plain YAML 1.1 boolean where the API wants a string (the schema finding)', async () => {
    const text = IMPLICIT.replace('    timeoutSeconds: 5\n', '    timeoutSeconds: 5\n    failurePolicy: Fail\n    objectSelector:\n      matchLabels: {inject: on, mode: yes}\n');
    const dir = folder({ 'bool.yaml': text });
    const result = await runCli(['lint', '--fix', '--no-color', dir], '');
    expect(readFileSync(join(dir, 'bool.yaml'), 'utf8')).toBe(text.replace('{inject: on, mode: yes}', '{inject: "on", mode: "yes"}'));
    expect(result.stdout).not.toContain('schema');
  });

  it('quotes the boolean in every webhook one schema finding counts', async () => {
    const webhook = (name: string, value: string) => `  - name: ${name}.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    objectSelector:
      matchLabels: {inject: ${value}}
    clientConfig: {url: "https://${name}.example.com/v"}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
`;
    const text = `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: widgets}\nwebhooks:\n${webhook('a', 'on')}${webhook('b', 'yes')}${webhook('c', 'on')}`;
    const dir = folder({ 'bools.yaml': text });
    const before = await runCli(['lint', '--no-color', dir], '');
    expect(before.stdout).toMatch(/webhooks\[0\]\.objectSelector\.matchLabels\.inject must be a string, but is boolean true: quote the value \(and in 2 more webhooks\)/);
    const result = await runCli(['lint', '--fix', '--no-color', dir], '');
    expect(readFileSync(join(dir, 'bools.yaml'), 'utf8')).toBe(text.replace('{inject: on}', '{inject: "on"}').replace('{inject: yes}', '{inject: "yes"}').replace('{inject: on}', '{inject: "on"}'));
    expect(result.stdout).not.toContain('schema');
  });
});
