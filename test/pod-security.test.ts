/**
 * The pod-security rule over runs (the fixtures in fixtures/pod-security cover single files), and
 * how workloads are read: only where a Pod Security level other than privileged can apply, in a
 * second pass once the Namespaces of the run are known (src/engine/load-run.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint, loadOptions, loadRun } from '../src/engine/lint.js';
import type { Finding } from '../src/engine/finding.js';
import { DEFAULT_KUBE_VERSION, parseKubeVersion } from '../src/kube/version.js';
import type { PodSecuritySettings } from '../src/model/pod-security.js';
import { loadPodSecurityConfigFile } from '../src/psa/config-file.js';
import { DEFAULT_POD_SECURITY_SETTINGS, type NamespacePodSecurity } from '../src/psa/run-policy.js';
import { DEFAULT_POD_SECURITY_CONFIGURATION, PodSecurityConfigError } from '../src/psa/config.js';
import { settleDocument } from '../src/parse/read.js';
import { POD_SECURITY_UNREAD_KEYS, settleWorkload } from '../src/psa/screen.js';
import { parse as parseYaml } from 'yaml';
import { namespaceValues } from '../src/parse/prefilter.js';
import { podSecuritySettingsFrom } from '../src/psa/settings.js';
import { runCli } from './run-cli.js';
import { tempFolders } from './temp-folders.js';

/** Writes files into a fresh folder; returns its path. */
const folder = tempFolders('pod-security-test');

const namespace = (name: string, labels: Record<string, string> = {}): string =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n${Object.keys(labels).length > 0 ? `  labels:\n${Object.entries(labels).map(([k, v]) => `    ${k}: ${v}\n`).join('')}` : ''}`;
const restricted = { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.35' };
const privilegedPod = (name: string, ns?: string, extra = ''): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${ns ? `  namespace: ${ns}\n` : ''}${extra}spec:\n  containers:\n    - name: app\n      image: busybox:1.36\n      securityContext:\n        privileged: true\n`;
const deployment = (name: string, ns: string, podSpec = '      containers:\n        - name: app\n          image: nginx:1.27\n'): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n${podSpec}`;

async function lintPaths(paths: string[], options: { podSecurity?: PodSecuritySettings; kubeVersion?: string; only?: string[]; off?: string[] } = {}): Promise<Finding[]> {
  const only = options.only ?? ['pod-security'];
  const severityOverrides = new Map<string, 'off'>(rules.filter((rule) => !only.includes(rule.meta.id) || options.off?.includes(rule.meta.id)).map((rule) => [rule.meta.id, 'off']));
  const report = await lint({
    paths,
    rules,
    kubeVersion: options.kubeVersion ? parseKubeVersion(options.kubeVersion) : DEFAULT_KUBE_VERSION,
    trustedNamespaceLabels: [],
    severityOverrides,
    toolVersion: 'test',
    ...(options.podSecurity ? { podSecurity: options.podSecurity } : {}),
  });
  return [...report.findings];
}

const brief = (findings: readonly Finding[]): string[] => findings.map((f) => `${f.file.split('/').pop()}:${f.line} ${f.severity} ${f.object?.kind}/${f.object?.name}`);

function settings(config: string | undefined, namespace?: string): PodSecuritySettings {
  return podSecuritySettingsFrom({ podSecurityConfig: config, namespace });
}

describe('where workloads are read', () => {
  it('reads none in a run without Pod Security labels or configuration', () => {
    const dir = folder({ 'ns.yaml': namespace('tools'), 'pod.yaml': privilegedPod('debug', 'tools') });
    const run = loadRun([dir], undefined, loadOptions({ rules, severityOverrides: new Map(), kubeVersion: DEFAULT_KUBE_VERSION }));
    expect(run.workloads).toEqual([]);
    expect(run.namespaces.map((ns) => ns.name)).toEqual(['tools']);
  });

  it('reads only the workloads of namespaces whose labels check pods, wherever their Namespace is in the run', () => {
    // The Namespace comes after the workloads in the walk: the second pass reads them.
    const dir = folder({
      'a/pods.yaml': `${privilegedPod('in-payments', 'payments')}---\n${privilegedPod('in-tools', 'tools')}---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: c, namespace: payments}\n`,
      'b/broken.yaml': `${privilegedPod('broken', 'tools')}  bad: [\n`,
      'z/ns.yaml': `${namespace('payments', restricted)}---\n${namespace('tools')}`,
    });
    const run = loadRun([dir], undefined, loadOptions({ rules, severityOverrides: new Map(), kubeVersion: DEFAULT_KUBE_VERSION }));
    expect(run.workloads.map((workload) => workload.name)).toEqual(['in-payments']);
    // The Pod in tools is not parsed: its syntax error is not reported (as for any other document not read).
    expect(run.files.flatMap((file) => file.problems)).toEqual([]);
    // Workloads are counted with the other documents (they are not admission objects).
    expect(run.skipped).toBe(4);
  });

  it('reads none when the rule is off', () => {
    const dir = folder({ 'all.yaml': `${namespace('payments', restricted)}---\n${privilegedPod('debug', 'payments')}` });
    const off = new Map([['pod-security', 'off' as const]]);
    expect(loadRun([dir], undefined, loadOptions({ rules, severityOverrides: off, kubeVersion: DEFAULT_KUBE_VERSION })).workloads).toEqual([]);
    // Neither do `defaults` and `simulate`, which load without Pod Security settings, even after a checked namespace.
    const later = folder({ 'a.yaml': namespace('payments', restricted), 'b.yaml': privilegedPod('debug', 'payments') });
    expect(loadRun([later]).workloads).toEqual([]);
    expect(loadRun([dir], undefined, loadOptions({ rules, severityOverrides: new Map(), kubeVersion: DEFAULT_KUBE_VERSION })).workloads).toHaveLength(1);
  });

  it('reads none before 1.23, where the plugin is off', () => {
    const dir = folder({ 'all.yaml': `${namespace('payments', restricted)}---\n${privilegedPod('debug', 'payments')}` });
    expect(loadRun([dir], undefined, loadOptions({ rules, severityOverrides: new Map(), kubeVersion: { major: 1, minor: 22 } })).workloads).toEqual([]);
  });

  it('reports a syntax error in a workload it reads, once, beside the Namespace parsed in the first pass', async () => {
    const dir = folder({ 'all.yaml': `${namespace('payments', restricted)}---\n${privilegedPod('broken', 'payments')}  bad: [\n` });
    const findings = await lintPaths([dir], { only: ['pod-security', 'yaml-syntax'] });
    expect(findings.map((f) => f.ruleId)).toEqual(['yaml-syntax']);
  });

  it('reads every workload when the configured defaults check pods, and none of an exempt namespace or runtime class', async () => {
    const config = join(folder({ 'psa.yaml': 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\nexemptions:\n  namespaces: [kube-system]\n  runtimeClasses: [kata]\n' }), 'psa.yaml');
    const dir = folder({
      'pods.yaml': [
        privilegedPod('no-manifest', 'team-a'),
        privilegedPod('system', 'kube-system'),
        privilegedPod('kata', 'team-a').replace('spec:\n', 'spec:\n  runtimeClassName: kata\n'),
        privilegedPod('unnamed-namespace'),
      ].join('---\n'),
    });
    const findings = await lintPaths([dir], { podSecurity: settings(config) });
    expect(brief(findings)).toEqual(['pods.yaml:11 error Pod/no-manifest', 'pods.yaml:47 error Pod/unnamed-namespace']);
    expect(findings[0]!.message).toBe(
      'pods "no-manifest" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true) (namespace "team-a" has no Namespace manifest in the run, so the PodSecurity configuration\'s defaults apply)',
    );
    expect(findings[1]!.message).toContain('(in namespace "default", assumed: the manifest names none, and --namespace sets the run\'s default; it has no Namespace manifest in the run');
  });

  it('leaves a kube-system held to a level alone when the configuration exempts it (pod-security-labels)', async () => {
    const dir = folder({ 'ns.yaml': namespace('kube-system', restricted) });
    const config = join(folder({ 'psa.yaml': 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\nexemptions:\n  namespaces: [kube-system]\n' }), 'psa.yaml');
    expect(await lintPaths([dir], { podSecurity: settings(config), only: ['pod-security-labels'] })).toEqual([]);
    expect(brief(await lintPaths([dir], { only: ['pod-security-labels'] }))).toEqual(['ns.yaml:6 warning Namespace/kube-system']);
  });

  it('judges a Namespace under the name its kustomize build gives it (pod-security-labels; s44b 3)', async () => {
    const tree = (outer: string): string =>
      folder({ 'manager/ns.yaml': namespace('system', restricted), 'manager/kustomization.yaml': 'resources: [ns.yaml]\n', 'default/kustomization.yaml': `${outer}resources: [../manager]\n` });
    expect(brief(await lintPaths([tree('namespace: kube-system\n')], { only: ['pod-security-labels'] }))).toEqual(['ns.yaml:6 warning Namespace/system']);
    expect(await lintPaths([tree('namespace: widgets-system\n')], { only: ['pod-security-labels'] })).toEqual([]);
    // A patch of the build deletes or relabels it before the rename: its labels are not these (s44c 4).
    const deleted = "namespace: kube-system\npatches:\n  - patch: '{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"system\"}, \"$patch\": \"delete\"}'\n";
    expect(await lintPaths([tree(deleted)], { only: ['pod-security-labels'] })).toEqual([]);
  });

  it('says nothing of a workload whose Namespace may be a document that does not parse (its labels are not known)', async () => {
    const config = join(folder({ 'psa.yaml': 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n' }), 'psa.yaml');
    const pods = [privilegedPod('in-a', 'team-a'), privilegedPod('in-b', 'team-b')].join('---\n');
    const brokenNamespace = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels: {pod-security.kubernetes.io/enforce: privileged\n';
    const findings = await lintPaths([folder({ 'pods.yaml': pods, 'ns.yaml': brokenNamespace })], { podSecurity: settings(config), only: ['pod-security', 'yaml-syntax'] });
    expect(brief(findings.filter((f) => f.ruleId === 'pod-security'))).toEqual(['pods.yaml:23 error Pod/in-b']);
  });

  it('takes the default namespace from --namespace, and reads every workload when that namespace is labelled', async () => {
    const dir = folder({ 'pods.yaml': `${privilegedPod('here')}---\n${privilegedPod('elsewhere', 'other')}`, 'ns.yaml': namespace('team-a', restricted) });
    expect(await lintPaths([dir])).toEqual([]);
    const findings = await lintPaths([dir], { podSecurity: settings(undefined, 'team-a') });
    expect(brief(findings)).toEqual(['pods.yaml:10 error Pod/here']);
    expect(findings[0]!.message).toMatch(/^pods "here" is forbidden: violates PodSecurity "restricted:v1\.35": privileged .* \(in namespace "team-a", assumed: the manifest names none, and --namespace sets the run's default\)$/);
  });

  it('uses the first Namespace manifest of a name, as the other rules do', async () => {
    const dir = folder({ 'a.yaml': namespace('payments', restricted), 'b.yaml': namespace('payments'), 'c.yaml': privilegedPod('debug', 'payments') });
    expect(brief(await lintPaths([dir]))).toEqual(['c.yaml:11 error Pod/debug']);
  });

  it('reads workloads from standard input in the second pass, and from Lists and rendered streams', async () => {
    const stream = `---\n# Source: chart/templates/pod.yaml\n${privilegedPod('from-chart', 'payments')}---\n# Source: chart/templates/ns.yaml\n${namespace('payments', restricted)}---\n# Source: chart/templates/list.yaml\napiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: listed, namespace: payments}\n    spec:\n      hostNetwork: true\n      containers: [{name: app, image: nginx}]\n`;
    const result = await runCli(['-', '--format', 'json', '--rule', 'pod-security-labels=off'], stream);
    const findings = JSON.parse(result.stdout).findings as Finding[];
    expect(findings.map((f) => `${f.file}:${f.line} ${f.object?.name}`)).toEqual(['chart/templates/list.yaml:32 listed', 'chart/templates/pod.yaml:13 from-chart']);
  });

  it('honours the ignore annotation on a workload', async () => {
    const dir = folder({
      'all.yaml': `${namespace('payments', restricted)}---\n${privilegedPod('debug', 'payments', '  annotations:\n    admission-lint.dev/ignore: pod-security\n    admission-lint.dev/ignore-reason: a break-glass Pod, run by hand\n')}`,
    });
    expect(await lintPaths([dir])).toEqual([]);
  });

  it('does not read workloads in kustomize patches', async () => {
    const dir = folder({
      'kustomization.yaml': 'resources: [ns.yaml]\npatches:\n  - path: patch.yaml\n',
      'ns.yaml': namespace('payments', restricted),
      'patch.yaml': deployment('api', 'payments'),
    });
    expect(await lintPaths([dir])).toEqual([]);
  });
});

describe('the two passes read each workload of a checked namespace once', () => {
  const options = loadOptions({ rules, severityOverrides: new Map(), kubeVersion: DEFAULT_KUBE_VERSION });
  const readIn = (dir: string): string[] => loadRun([dir], undefined, options).workloads.map((w) => `${w.manifest.file.path.split('/').pop()}#${w.manifest.documentIndex} ${w.name}`).sort();

  it('a Namespace after its workloads, in the same file and in later files', () => {
    const dir = folder({
      'a.yaml': `${privilegedPod('early', 'payments')}---\n${namespace('payments', restricted)}---\n${privilegedPod('same-file', 'payments')}`,
      'b.yaml': `${privilegedPod('b-payments', 'payments')}---\n${privilegedPod('b-search', 'search')}`,
      'c.yaml': namespace('search', restricted),
      'd.yaml': `${privilegedPod('d-search', 'search')}---\n${privilegedPod('d-payments', 'payments')}---\n${privilegedPod('d-tools', 'tools')}`,
    });
    expect(readIn(dir)).toEqual(['a.yaml#0 early', 'a.yaml#2 same-file', 'b.yaml#0 b-payments', 'b.yaml#1 b-search', 'd.yaml#0 d-search', 'd.yaml#1 d-payments']);
  });

  it('a workload the first pass parsed for another reason (its text names a Namespace) is not read twice', () => {
    const dir = folder({
      'a.yaml': namespace('payments', restricted),
      'b.yaml': `${privilegedPod('mentions', 'search', '  annotations:\n    note: "runs before the Namespace controller"\n')}---\n${privilegedPod('plain', 'search')}`,
      'c.yaml': namespace('search', restricted),
    });
    expect(readIn(dir)).toEqual(['b.yaml#0 mentions', 'b.yaml#1 plain']);
  });

  it('a workload whose namespace is an explicit key (`? namespace`), before and after its Namespace', () => {
    const explicit = (name: string): string => privilegedPod(name, undefined, '  ? namespace\n  : payments\n');
    // A checked namespace first, so that later files are remembered with the namespaces their bytes name.
    const dir = folder({
      '0.yaml': namespace('search', restricted),
      'a.yaml': explicit('early'),
      'b.yaml': namespace('payments', restricted),
      'c.yaml': explicit('late'),
      'd.yaml': privilegedPod('elsewhere', undefined, '  ? namespace\n  : tools\n'),
    });
    expect(readIn(dir)).toEqual(['a.yaml#0 early', 'c.yaml#0 late']);
  });

  it('the default namespace checked midway: earlier workloads without a namespace are read in the second pass', () => {
    const dir = folder({
      'a.yaml': `${privilegedPod('unnamed-early')}---\n${privilegedPod('in-payments', 'payments')}`,
      'b.yaml': namespace('payments', restricted),
      'c.yaml': namespace('default', restricted),
      'd.yaml': `${privilegedPod('unnamed-late')}`,
    });
    expect(readIn(dir)).toEqual(['a.yaml#0 unnamed-early', 'a.yaml#1 in-payments', 'd.yaml#0 unnamed-late']);
  });

  it('on generated runs: exactly the workloads a full read finds in checked namespaces, each once', () => {
    const names = ['payments', 'search', 'tools', 'default', 'ops'];
    for (let seed = 1; seed <= 25; seed++) {
      let state = seed;
      const random = (n: number): number => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % n;
      };
      const files: Record<string, string> = {};
      for (let f = 0; f < 8; f++) {
        const docs: string[] = [];
        for (let d = 0, n = 1 + random(4); d < n; d++) {
          const choice = random(10);
          const ns = names[random(names.length)]!;
          if (choice < 2) docs.push(namespace(ns, random(2) === 0 ? restricted : {}));
          else if (choice < 8) docs.push(privilegedPod(`p${f}-${d}`, random(4) === 0 ? undefined : ns, random(6) === 0 ? '  annotations: {note: Namespace}\n' : ''));
          else docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${f}-${d}, namespace: ${ns}}\n`);
        }
        files[`f${f}.yaml`] = docs.join('---\n');
      }
      const dir = folder(files);
      // A full read: every document parsed; the first Namespace of each name decides.
      const full = loadRun([dir], undefined, { podSecurity: { settings: { ...DEFAULT_POD_SECURITY_SETTINGS }, kubeVersion: DEFAULT_KUBE_VERSION } });
      const first = new Map<string, boolean>();
      for (const ns of full.namespaces) if (!first.has(ns.name)) first.set(ns.name, Object.keys(ns.writtenLabels).some((key) => key.startsWith('pod-security')));
      const all = Object.entries(files).flatMap(([file, text]) =>
        text.split('---\n').flatMap((doc, index) => {
          const name = /^  name: (\S+)/m.exec(doc)?.[1];
          const ns = /^  namespace: (\S+)/m.exec(doc)?.[1] ?? 'default';
          return doc.includes('kind: Pod') && first.get(ns) === true ? [`${file}#${index} ${name}`] : [];
        }),
      );
      const read = readIn(dir);
      const checked = read.filter((entry) => all.includes(entry));
      expect(checked, `seed ${seed}`).toEqual([...all].sort());
      expect(new Set(read).size, `seed ${seed}: read twice`).toBe(read.length);
    }
  });
});

describe('verdicts', () => {
  it('a workload that enforce rejects: the Pods it creates, evaluated as Pods', async () => {
    const dir = folder({ 'all.yaml': `${namespace('payments', restricted)}---\n${deployment('api', 'payments')}` });
    const [finding] = await lintPaths([dir]);
    expect(finding).toMatchObject({ severity: 'error', fieldPath: 'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation', object: { kind: 'Deployment', name: 'api' } });
    expect(finding!.message).toMatch(/^Deployment "api" is admitted, but the Pods it creates are rejected: violates PodSecurity "restricted:v1\.35": allowPrivilegeEscalation != false/);
  });

  it('latest follows --kube-version; a pinned version its own checks', async () => {
    // runAsUser=0 is a restricted check from 1.23.
    const pod = (version: string): string =>
      `${namespace('payments', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': version })}---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: payments}\nspec:\n  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}\n  containers:\n    - name: app\n      image: nginx\n      securityContext: {runAsUser: 0, allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}\n`;
    expect(await lintPaths([folder({ 'a.yaml': pod('v1.22') })])).toEqual([]);
    expect((await lintPaths([folder({ 'a.yaml': pod('v1.23') })])).map((f) => f.message)).toEqual([expect.stringContaining('violates PodSecurity "restricted:v1.23": runAsUser=0')]);
    expect((await lintPaths([folder({ 'a.yaml': pod('latest') })], { kubeVersion: '1.25' })).map((f) => f.message)).toEqual([expect.stringContaining('"restricted:latest": runAsUser=0')]);
  });

  it('one finding per workload: the strictest mode it violates', async () => {
    const labels = { ...restricted, 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' };
    const dir = folder({ 'all.yaml': `${namespace('payments', labels)}---\n${privilegedPod('debug', 'payments')}---\n${deployment('api', 'payments')}` });
    expect(brief(await lintPaths([dir]))).toEqual(['all.yaml:21 error Pod/debug', 'all.yaml:36 error Deployment/api']);
  });
});

describe('--pod-security-config', () => {
  it('reads an AdmissionConfiguration as kubeadm and kind write it', () => {
    const dir = folder({
      'admission.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n  - name: PodSecurity\n    configuration:\n      apiVersion: pod-security.admission.config.k8s.io/v1\n      kind: PodSecurityConfiguration\n      defaults:\n        enforce: baseline\n        warn: restricted\n      exemptions:\n        namespaces: [kube-system]\n',
    });
    const config = loadPodSecurityConfigFile(join(dir, 'admission.yaml'));
    expect(config.defaults.enforce).toEqual({ level: 'baseline', version: 'latest' });
    expect(config.exemptions.namespaces).toEqual(['kube-system']);
  });

  it('reports an invalid configuration with its file, line and column', () => {
    const dir = folder({ 'psa.yaml': 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: Restricted\n' });
    const file = join(dir, 'psa.yaml');
    expect(() => loadPodSecurityConfigFile(file)).toThrow(PodSecurityConfigError);
    expect(() => loadPodSecurityConfigFile(file)).toThrow(`${file}:4:12: defaults.enforce: Invalid value: "Restricted": must be one of privileged, baseline, restricted`);
    expect(() => loadPodSecurityConfigFile(join(dir, 'missing.yaml'))).toThrow('missing.yaml: no such file');
  });

  it('on the command line: a bad file or namespace is exit 2 with one line, no stack', async () => {
    const dir = folder({ 'psa.yaml': 'kind: PodSecurityConfiguration\napiVersion: pod-security.admission.config.k8s.io/v1\ndefaults: {enforce: bogus}\n', 'ns.yaml': namespace('tools') });
    const bad = await runCli([join(dir, 'ns.yaml'), '--pod-security-config', join(dir, 'psa.yaml')], '');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('psa.yaml:3:');
    expect(bad.stderr).not.toContain('    at ');
    const badNamespace = await runCli([join(dir, 'ns.yaml'), '--namespace', 'Team_A'], '');
    expect(badNamespace.code).toBe(2);
    expect(badNamespace.stderr).toContain('--namespace "Team_A" is not a valid namespace name');
  });

  it('defaults to the built-in configuration and namespace default', () => {
    expect(podSecuritySettingsFrom({})).toEqual(DEFAULT_POD_SECURITY_SETTINGS);
  });
});

/** Whether a document is settled from its value (src/parse/read.ts with src/psa/screen.ts): not parsed. */
function needsNoParse(text: string, policyOf: (namespace: string | undefined) => NamespacePodSecurity | undefined, config: typeof DEFAULT_POD_SECURITY_CONFIGURATION, kubeVersion: { major: number; minor: number }): boolean {
  // As src/engine/load-run.ts asks it: the keys Pod Security never reads are not read.
  return settleDocument(text, { admits: () => true, skip: POD_SECURITY_UNREAD_KEYS, value: (value) => settleWorkload(value, policyOf, config, kubeVersion) }) !== undefined;
}

/** `value` with the value of every key in `keys`, at any depth, replaced by `by`. */
function replaceKeys(value: unknown, keys: ReadonlySet<string>, by: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => replaceKeys(item, keys, by));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, keys.has(key) ? by : replaceKeys(item, keys, by)]));
}

describe('workloads that need no parse (src/psa/screen.ts)', () => {
  const FIXTURES = join(import.meta.dirname, 'psa', 'fixtures');
  const policyAt = (level: 'baseline' | 'restricted', minor: number): NamespacePodSecurity => ({
    name: 'ns',
    manifest: undefined,
    policy: {
      enforce: { level, version: { minor }, source: 'label', levelSource: 'label', versionSource: 'label', inheritedFromEnforce: false },
      warn: { level: 'privileged', version: 'latest', source: 'default', levelSource: 'default', versionSource: 'default', inheritedFromEnforce: false },
      audit: { level: 'privileged', version: 'latest', source: 'default', levelSource: 'default', versionSource: 'default', inheritedFromEnforce: false },
      exempt: false,
      labelsKnown: true,
      labelErrors: [],
    },
  });

  /** Every upstream fixture pod: its level, policy minor, whether it passes, and its text. */
  function* upstreamFixtures(): Generator<{ level: 'baseline' | 'restricted'; minor: number; name: string; expectation: string; text: string }> {
    for (const level of ['baseline', 'restricted'] as const) {
      for (const versionDir of readdirSync(join(FIXTURES, level))) {
        for (const expectation of ['pass', 'fail']) {
          const dir = join(FIXTURES, level, versionDir, expectation);
          for (const file of readdirSync(dir)) yield { level, minor: Number(versionDir.split('.')[1]), name: `${level}/${versionDir}/${expectation}/${file}`, expectation, text: readFileSync(join(dir, file), 'utf8') };
        }
      }
    }
  }

  it('never skips an upstream fixture that fails its level, as a Pod or as a Deployment template', () => {
    let skipped = 0;
    let failing = 0;
    for (const { level, minor, name, expectation, text: pod } of upstreamFixtures()) {
      // The same pod as a Deployment's template, indented under spec.template.
      const body = pod.replace(/^apiVersion: v1\nkind: Pod\n/, '');
      const deployment = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n${body.split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n')}`;
      for (const text of [pod, deployment]) {
        const free = needsNoParse(text, () => policyAt(level, minor), DEFAULT_POD_SECURITY_CONFIGURATION, { major: 1, minor: 37 });
        if (expectation === 'fail') {
          failing++;
          expect(free, name).toBe(false);
        } else if (free) skipped++;
      }
    }
    expect(failing).toBeGreaterThan(1000);
    // Most passing ones are in the reader's subset, and are recognised as needing nothing.
    expect(skipped).toBeGreaterThan(1000);
  });

  it('never reads the keys it skips: replacing their values anywhere in a workload never changes its verdict', () => {
    // Values a check would react to, if it read one of those keys.
    const poisons: unknown[] = [null, { privileged: true, hostNetwork: true, hostPath: { path: '/' }, securityContext: { runAsUser: 0, privileged: true }, add: ['SYS_ADMIN'] }, [{ name: 'c', securityContext: { privileged: true }, hostPort: 1 }]];
    let compared = 0;
    let changed = 0;
    for (const { level, minor, name, text } of upstreamFixtures()) {
      const pod = parseYaml(text) as Record<string, unknown>;
      const withUnread = { ...pod, spec: { ...(pod.spec as object), tolerations: [{ key: 'k' }] }, metadata: { ...(pod.metadata as object), labels: { a: 'b' } } };
      const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { a: 'b' } }, spec: { selector: { matchLabels: { a: 'b' } }, strategy: { type: 'Recreate' }, template: { metadata: pod.metadata, spec: pod.spec } } };
      for (const object of [pod, withUnread, deployment]) {
        const verdict = settleWorkload(object, () => policyAt(level, minor), DEFAULT_POD_SECURITY_CONFIGURATION, { major: 1, minor: 37 });
        for (const poison of poisons) {
          const replaced = replaceKeys(object, POD_SECURITY_UNREAD_KEYS, poison) as Record<string, unknown>;
          if (JSON.stringify(replaced) !== JSON.stringify(object)) changed++;
          expect(settleWorkload(replaced, () => policyAt(level, minor), DEFAULT_POD_SECURITY_CONFIGURATION, { major: 1, minor: 37 }), name).toBe(verdict);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
    expect(changed).toBeGreaterThan(compared / 2);
  });

  it('parses what it cannot decide: a namespace whose policy may still change, or a document the reader leaves to yaml', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: nginx\n';
    expect(needsNoParse(pod, () => undefined, DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(false);
    expect(needsNoParse(`${pod}  hostPID: !!bool false\n`, () => policyAt('baseline', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(false);
    // What kubectl refuses in a container's ports or probes is parsed, so that it is reported
    // (attack s50c: passing over such values by indentation hid it).
    for (const bad of ['    ports: 80\n      foo: bar\n', '    ports:\n    - containerPort: 80\n      foo: bar: baz\n', '    livenessProbe:\n      httpGet: {path: /, port: 80}}\n']) {
      expect(needsNoParse(`${pod}${bad}`, () => policyAt('baseline', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION), bad).toBe(false);
    }
    // A no-break space is text to YAML (the key is `drop\u00a0`, not `drop`): JavaScript's trim would take it (attack s50a H1).
    const dropsAll = (spaced: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  securityContext:\n    runAsNonRoot: true\n    seccompProfile: {type: RuntimeDefault}\n  containers:\n  - name: a\n    image: nginx\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities: {${spaced}: [ALL]}\n`;
    expect(needsNoParse(dropsAll('drop'), () => policyAt('restricted', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(true);
    expect(needsNoParse(dropsAll('drop\u00a0'), () => policyAt('restricted', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(false);
    expect(needsNoParse(`${pod}  hostPID: false\n`, () => policyAt('baseline', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(true);
    expect(needsNoParse(pod, () => policyAt('baseline', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(true);
    expect(needsNoParse(pod, () => policyAt('restricted', 35), DEFAULT_POD_SECURITY_CONFIGURATION, DEFAULT_KUBE_VERSION)).toBe(false);
  });
});

describe('the summary counts the workloads checked, parsed or settled from their value', () => {
  it('gives the same counts whether the fast reader reads a workload or it is parsed', async () => {
    const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n  labels:\n    pod-security.kubernetes.io/enforce: baseline\n';
    const pod = (extra: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: team\nspec:\n  containers:\n  - name: a\n    image: x\n    args:\n    - --port=8080\n${extra}`;
    // Read by the fast reader (the Namespace first, or in a later file), and parsed (a tag it leaves to yaml).
    const summaries = [];
    const cases: Record<string, string>[] = [
      { 'a.yaml': `${ns}---\n${pod('')}` },
      { 'a.yaml': pod(''), 'b.yaml': ns },
      { 'a.yaml': `${ns}---\n${pod('  hostNetwork: !!bool false\n')}` },
      { 'a.yaml': pod('  hostNetwork: !!bool false\n'), 'b.yaml': ns },
    ];
    for (const files of cases) {
      const report = await lint({ paths: [folder(files)], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
      summaries.push({ workloads: report.summary.workloads, skipped: report.summary.skipped, findings: report.findings.map((finding) => finding.ruleId) });
    }
    for (const summary of summaries) expect(summary).toEqual({ ...summaries[0], findings: summary.findings });
    expect(summaries[0]!.workloads).toBe(1);
  });
});

describe('namespaceValues: the namespaces a file names, from its bytes', () => {
  const values = (text: string): string[] | undefined => namespaceValues(new TextEncoder().encode(text));
  it('reads the values of namespace keys, in block, flow and JSON form', () => {
    expect(values('metadata:\n  namespace: payments\n---\nmetadata: {name: a, namespace: "search"}\n{"metadata": {"namespace": \'ops\'}}\n')).toEqual(['payments', 'search', 'ops']);
    // Other keys and mentions are not namespace keys.
    expect(values('spec:\n  namespaceSelector: {}\n  env:\n  - valueFrom: {fieldRef: {fieldPath: metadata.namespace}}\n  x-namespace: other\n')).toEqual([]);
  });
  it('gives up where a value is written otherwise', () => {
    for (const text of ['namespace: *ns\n', 'namespace: |\n  a\n', 'namespace: Payments\n', 'namespace:\n  a\n', 'namespace: a b\n', 'namespace: "a\n']) expect(values(text), text).toBeUndefined();
  });
  it('gives up on explicit keys, which kubectl reads (`? namespace` with its value on the next line)', () => {
    for (const text of [
      'metadata:\n  name: p\n  ? namespace\n  : kube-system\n',
      'metadata:\n  ? "namespace"\n  : kube-system\n',
      "metadata:\n  ?\tnamespace\n  :\tkube-system\n",
      'items:\n- ? namespace\n  : kube-system\n',
    ]) expect(values(text), text).toBeUndefined();
    // The explicit form with its value on the same line is read like any key.
    expect(values('metadata: {? namespace : kube-system}\n')).toEqual(['kube-system']);
  });
});
