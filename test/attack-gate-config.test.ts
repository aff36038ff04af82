/**
 * Issue 21, classes 5 and 7 (glob half), issue 22 item 6, and the baseline half of class 4: every
 * way config lowers the gate is said (JSON `gate`, the summary, stderr for machine formats), with
 * a baseline too; a baseline entry never hides a finding whose severity rose; config and option
 * globs are matched in bounded work.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globMatcher } from '../src/config/glob.js';
import { compileNamePattern, globMatch, namePatternMatcher, type GlobWork } from '../src/text/glob.js';
import { runCli } from './run-cli.js';

/** long-timeout (warning) and matches-kube-system (error), with a caBundle left out (ca-bundle). */
const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 25
    clientConfig: {service: {name: widgets, namespace: widgets}}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;

let dir: string;
let cwd: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'admission-lint-attack-gate-'));
  cwd = process.cwd();
  process.chdir(dir);
  writeFileSync(join(dir, 'webhook.yaml'), WEBHOOK);
});
afterEach(() => process.chdir(cwd));

const config = (text: string): void => writeFileSync(join(dir, '.admission-lint.yaml'), text);
const json = async (args: string[]): Promise<{ code: number; stderr: string; report: { gate: Record<string, unknown>; findings: { ruleId: string; severity: string }[] } }> => {
  const result = await runCli(['--format', 'json', ...args, 'webhook.yaml'], '');
  return { code: result.code, stderr: result.stderr, report: JSON.parse(result.stdout) };
};

describe('every way config lowers the gate is said', () => {
  it('a severity lowered in config (not only off) is in the gate, the summary and on stderr', async () => {
    config('rules:\n  matches-kube-system: warning\n  long-timeout: info\n');
    const { stderr, report } = await json([]);
    expect(report.gate.severitiesLowered).toEqual([
      { rule: 'long-timeout', from: 'warning', to: 'info' },
      { rule: 'matches-kube-system', from: 'error', to: 'warning' },
    ]);
    expect(stderr).toContain('gate changed by .admission-lint.yaml: 2 rules lowered (long-timeout warning to info, matches-kube-system error to warning)');
    expect((await runCli(['webhook.yaml'], '')).stdout).toContain('rules lowered (long-timeout warning to info');
  });

  it('a threshold raised past its default is in the gate, and one past what the API accepts says the rule reports nothing', async () => {
    config('rules:\n  long-timeout:\n    options:\n      thresholdSeconds: 30\n  timeout-budget:\n    options:\n      budgetSeconds: 45\n');
    const { stderr, report } = await json([]);
    expect(report.gate.optionsLoosened).toEqual([
      { rule: 'long-timeout', option: 'thresholdSeconds', value: 30, default: 15, reportsNothing: true },
      { rule: 'timeout-budget', option: 'budgetSeconds', value: 45, default: 30, reportsNothing: false },
    ]);
    expect(stderr).toContain('option long-timeout.thresholdSeconds 30 (default 15) leaves the rule nothing to report; option timeout-budget.budgetSeconds 45 (default 30)');
    // A stricter threshold opens nothing: nothing to say.
    config('rules:\n  long-timeout:\n    options:\n      thresholdSeconds: 5\n');
    const stricter = await json([]);
    expect(stricter.report.gate.optionsLoosened).toEqual([]);
    expect(stricter.stderr).not.toContain('gate changed');
  });

  it('a severity raised, or set to what it is, changes nothing to say', async () => {
    config('rules:\n  long-timeout: error\n  matches-kube-system: error\n');
    const { stderr, report } = await json([]);
    expect(report.gate.severitiesLowered).toEqual([]);
    expect(stderr).not.toContain('gate changed');
  });

  it('a name-pattern option that matches every name is said, however many stars', async () => {
    for (const value of ['*', '**', 'other, ***']) {
      config(`rules:\n  ca-bundle: {options: {injected: "${value}"}}\n`);
      const { stderr, report } = await json([]);
      expect(report.gate.optionsMatchingAll).toEqual([{ rule: 'ca-bundle', option: 'injected', value }]);
      expect(stderr).toContain(`option ca-bundle.injected "${value}" matches every name`);
    }
    config('rules:\n  ca-bundle: {options: {injected: "widgets-*"}}\n');
    expect((await json([])).report.gate.optionsMatchingAll).toEqual([]);
  });

  it('every other name-pattern option is said too: the names it matches are exempt (s44a H2: one prefix per first character matches every name)', async () => {
    const every = [...'abcdefghijklmnopqrstuvwxyz0123456789'].map((first) => `${first}*`).join(',');
    for (const value of ['widgets-*', every]) {
      config(`rules:\n  ca-bundle: {options: {injected: "${value}"}}\n`);
      const { stderr, report } = await json([]);
      expect(report.gate.optionsExempting).toEqual([{ rule: 'ca-bundle', option: 'injected', value }]);
      expect(stderr).toContain(`option ca-bundle.injected exempts "${value.length <= 60 ? value : `${value.slice(0, 57)}…`}"`);
    }
    config('rules:\n  pod-security-labels: {options: {privilegedNamespaces: "node-agents"}}\n');
    expect((await json([])).report.gate.optionsExempting).toEqual([{ rule: 'pod-security-labels', option: 'privilegedNamespaces', value: 'node-agents' }]);
    config('rules:\n  ca-bundle: {options: {injected: ""}}\n');
    expect((await json([])).report.gate.optionsExempting).toEqual([]);
  });

  it('a kubeVersion newer than any released Kubernetes is said', async () => {
    config('kubeVersion: "1.37"\n');
    const { stderr, report } = await json([]);
    expect(report.gate).toMatchObject({ kubeVersion: '1.37', kubeVersionUnreleased: '1.36' });
    expect(stderr).toContain('kubeVersion 1.37 is newer than any released Kubernetes (1.36)');
    config('kubeVersion: "1.36"\n');
    expect((await json([])).report.gate).toMatchObject({ kubeVersion: '1.36', kubeVersionUnreleased: null });
  });

  it('trusted namespace labels (they exempt namespaces) are said', async () => {
    config('trustedNamespaceLabels: [team]\n');
    const { stderr, report } = await json([]);
    expect(report.gate.trustedNamespaceLabels).toEqual(['team']);
    expect(stderr).toContain('namespace label trusted (team)');
  });

  it('--baseline keeps the gate: the JSON keeps `gate`, the summary keeps the line (issue 22 item 6)', async () => {
    config('failOn: never\n');
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify({ version: 1, tool: 'admission-lint', entries: [] }));
    const { code, report } = await json(['--baseline', 'baseline.json']);
    expect(code).toBe(0);
    expect(report.gate).toMatchObject({ config: '.admission-lint.yaml', failOn: 'never' });
    const stylish = await runCli(['--baseline', 'baseline.json', 'webhook.yaml'], '');
    expect(stylish.code).toBe(0);
    expect(stylish.stdout).toContain('gate changed by .admission-lint.yaml: fails on: never');
  });
});

describe('a baseline entry does not hide a finding whose severity rose', () => {
  it('an entry written at warning does not hide the same finding at error', async () => {
    config('rules:\n  matches-kube-system: warning\n');
    expect((await runCli(['--write-baseline', 'baseline.json', 'webhook.yaml'], '')).code).toBe(0);
    const entries = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).entries as { ruleId: string; severity: string }[];
    expect(entries.find((entry) => entry.ruleId === 'matches-kube-system')?.severity).toBe('warning');
    // Same baseline, the rule back at its own severity: the finding is new.
    config('');
    const { code, stderr, report } = await json(['--baseline', 'baseline.json']);
    expect(report.findings.map((finding) => [finding.ruleId, finding.severity])).toEqual([['matches-kube-system', 'error']]);
    expect(code).toBe(1);
    expect(stderr).toContain('1 finding of the baseline baseline.json rose in severity and is reported as new');
    expect(stderr).not.toContain('no longer occur');
  });

  it('an entry still hides the same or a lower severity', async () => {
    expect((await runCli(['--write-baseline', 'baseline.json', 'webhook.yaml'], '')).code).toBe(0);
    expect((await json(['--baseline', 'baseline.json'])).report.findings).toEqual([]);
    config('rules:\n  matches-kube-system: info\n');
    expect((await json(['--baseline', 'baseline.json'])).report.findings).toEqual([]);
  });
});

describe('globs from config and rule options are matched without backtracking', () => {
  const stars = `${'a*'.repeat(15)}b`;
  const name = 'a'.repeat(60);

  it('a 15-star name pattern against a 60-character name: linear work, right answer', () => {
    const work: GlobWork = { steps: 0 };
    const glob = compileNamePattern(stars);
    expect(globMatch(glob, name, work)).toBe(false);
    expect(globMatch(glob, `${name}b`, work)).toBe(true);
    // (tokens + 1) states, each visited at most twice per character read (entered, then read from).
    expect(work.steps).toBeLessThanOrEqual(2 * 2 * (glob.tokens.length + 1) * (name.length + 2));
    expect(namePatternMatcher(`x, ${stars}`)(name)).toBe(false);
  });

  it('a config ignore pattern of 15 stars and `**` segments: bounded work per path', () => {
    const work: GlobWork = { steps: 0 };
    const matcher = globMatcher([`**/${stars}/**/${stars}`, `${'*a'.repeat(15)}?c`], work);
    const path = `${name}/${name}/${name}`;
    expect(matcher.matches(path)).toBe(false);
    // Three candidate paths (the path and its parents), each linear in its length.
    expect(work.steps).toBeLessThanOrEqual(3 * 2 * 2 * 2 * (2 * 33 + 4) * (path.length + 2));
  });

  it('keeps the meaning of the patterns', () => {
    const matches = (pattern: string, path: string): boolean => globMatcher([pattern]).matches(path);
    expect(matches('*.generated.yaml', 'deploy/a.generated.yaml')).toBe(true);
    expect(matches('deploy/*.yaml', 'deploy/x/a.yaml')).toBe(false);
    expect(matches('deploy/**/a.yaml', 'deploy/a.yaml')).toBe(true);
    expect(matches('deploy/**/a.yaml', 'deploy/x/y/a.yaml')).toBe(true);
    expect(matches('charts/*', 'charts/x/templates/a.yaml')).toBe(true);
    expect(matches('a?.yaml', 'ab.yaml')).toBe(true);
    expect(matches('a?.yaml', 'a/.yaml')).toBe(false);
    expect(matches('a.(y)+', 'a.yyy')).toBe(false);
    expect(matches('a.(y)+', 'a.(y)+')).toBe(true);
    expect(namePatternMatcher('web*-ca')('webhook-ca')).toBe(true);
    expect(namePatternMatcher('web*-ca')('webhook-cab')).toBe(false);
    expect(namePatternMatcher('a.b')('axb')).toBe(false);
  });
});
