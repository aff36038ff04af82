/**
 * Baselines: fingerprints that survive line moves, a multiset (a second identical finding is
 * new), entries that are gone, and the CLI round trip (--write-baseline, then --baseline).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, createBaseline, fingerprintOf, readBaseline, type Baseline } from '../src/engine/baseline.js';
import type { Finding, Report } from '../src/engine/finding.js';
import { InputError } from '../src/errors.js';
import { spawnCli } from './spawn-cli.js';
import { lintText } from './helpers.js';


/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], cwd: string, input = '') => spawnCli(args, { cwd, input });

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'long-timeout',
    severity: 'warning',
    message: 'timeoutSeconds is 20',
    file: 'deploy/w.yaml',
    line: 10,
    column: 5,
    endLine: 10,
    endColumn: 23,
    documentIndex: 0,
    fieldPath: 'webhooks[0].timeoutSeconds',
    object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'widgets' },
    webhook: 'widgets.example.com',
    help: null,
    ...overrides,
  };
}

function report(findings: Finding[]): Report {
  return {
    toolVersion: 'test',
    findings,
    summary: { files: 1, documents: 1, objects: 1, namespaces: 0, skipped: 0, errors: 0, warnings: findings.length, infos: 0, suppressed: 0 },
    inventory: { files: [] },
  };
}

describe('fingerprints', () => {
  it('ignore lines, columns, document index and message; keep rule, file, object, webhook, field', () => {
    const a = fingerprintOf(finding(), '/repo', '/repo');
    expect(a).toEqual({ ruleId: 'long-timeout', file: 'deploy/w.yaml', kind: 'ValidatingWebhookConfiguration', name: 'widgets', webhook: 'widgets.example.com', fieldPath: 'webhooks[0].timeoutSeconds' });
    expect(fingerprintOf(finding({ line: 40, column: 1, endLine: 40, documentIndex: 3, message: 'timeoutSeconds is 25' }), '/repo', '/repo')).toEqual(a);
    expect(fingerprintOf(finding({ webhook: 'other.example.com' }), '/repo', '/repo')).not.toEqual(a);
    expect(fingerprintOf(finding({ object: { apiVersion: 'v1', kind: 'MutatingWebhookConfiguration', name: 'widgets' } }), '/repo', '/repo')).not.toEqual(a);
  });

  it('store file paths relative to the baseline file, whatever the working directory', () => {
    expect(fingerprintOf(finding({ file: 'w.yaml' }), '/repo', '/repo/deploy').file).toBe('deploy/w.yaml');
    expect(fingerprintOf(finding({ file: '/repo/deploy/w.yaml' }), '/repo', '/elsewhere').file).toBe('deploy/w.yaml');
    expect(fingerprintOf(finding({ file: '<stdin>' }), '/repo', '/repo').file).toBe('<stdin>');
  });
});

describe('applying a baseline', () => {
  it('hides recorded findings, recomputes the summary, and counts what is gone', () => {
    const recorded = [finding(), finding({ ruleId: 'fail-open', severity: 'info', fieldPath: 'webhooks[0].failurePolicy' })];
    const baseline = createBaseline(recorded, '/repo', '/repo');
    const fresh = finding({ ruleId: 'editable-object-selector', severity: 'error', fieldPath: 'webhooks[0].objectSelector' });
    const result = applyBaseline(report([finding({ line: 12 }), fresh]), baseline, '/repo', '/repo');
    expect(result.report.findings).toEqual([fresh]);
    expect(result.report.summary).toMatchObject({ errors: 1, warnings: 0, infos: 0, files: 1 });
    expect(result.matched).toBe(1);
    expect(result.gone).toBe(1);
  });

  it('is a multiset: one entry with count 2 hides two findings, and a third one is new', () => {
    const two = [finding({ ruleId: 'yaml-syntax', object: null, webhook: null, fieldPath: null, line: 1 }), finding({ ruleId: 'yaml-syntax', object: null, webhook: null, fieldPath: null, line: 7 })];
    const baseline = createBaseline(two, '/repo', '/repo');
    expect(baseline.entries).toHaveLength(1);
    expect(baseline.entries[0]!.count).toBe(2);
    const three = [...two, finding({ ruleId: 'yaml-syntax', object: null, webhook: null, fieldPath: null, line: 9 })];
    const result = applyBaseline(report(three), baseline, '/repo', '/repo');
    expect(result.report.findings.map((f) => f.line)).toEqual([9]);
    expect(result.gone).toBe(0);
    expect(applyBaseline(report(two.slice(0, 1)), baseline, '/repo', '/repo').gone).toBe(1);
  });

  it('a finding that stands for a place its entry does not list is new (a second opt-out key added to one selector)', () => {
    const optOut = (alsoAt?: string[]): Finding => finding({ ruleId: 'editable-namespace-selector', fieldPath: 'webhooks[0].namespaceSelector.matchExpressions[0]', ...(alsoAt ? { alsoAt } : {}) });
    const baseline = createBaseline([optOut()], '/repo', '/repo');
    expect(baseline.entries[0]!.alsoAt).toBeUndefined();
    const two = optOut(['webhooks[0].namespaceSelector.matchExpressions[1]']);
    const grown = applyBaseline(report([two]), baseline, '/repo', '/repo');
    expect(grown.report.findings).toEqual([two]);
    expect(grown.grown).toBe(1);
    expect(grown.gone).toBe(0);
    // Recorded with both places: hidden, in any order, and with fewer places too.
    const both = createBaseline([two], '/repo', '/repo');
    expect(both.entries[0]!.alsoAt).toEqual(['webhooks[0].namespaceSelector.matchExpressions[1]']);
    expect(applyBaseline(report([two]), both, '/repo', '/repo').report.findings).toEqual([]);
    expect(applyBaseline(report([optOut()]), both, '/repo', '/repo').report.findings).toEqual([]);
    // A finding of one place is not hidden by an entry of others' (another finding's).
    expect(applyBaseline(report([optOut(['webhooks[0].namespaceSelector.matchExpressions[2]'])]), both, '/repo', '/repo').report.findings).toHaveLength(1);
  });

  it('records the webhook of each other place: another webhook at the same index is a new place (s35b B-1)', async () => {
    const webhook = (name: string): string => `  - name: ${name}\n    sideEffects: None\n    admissionReviewVersions: ["v1"]\n    clientConfig: {service: {namespace: tools, name: widgets}}\n    rules: [{operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"]}]\n`;
    const text = (second: string): string => `apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: widgets}\nwebhooks:\n${webhook('a.example.com')}${webhook(second)}`;
    const only = { only: ['implicit-failure-policy'] };
    const before = await lintText(text('b.example.com'), only);
    expect(before.map((f) => f.alsoAt)).toEqual([['webhooks[1].failurePolicy (webhook "b.example.com")']]);
    const baseline = createBaseline(before, '/repo', '/repo');
    const toReport = (findings: Finding[]): Report => report(findings.map((f) => ({ ...f, file: 'deploy/w.yaml' })));
    const rebase = createBaseline(before.map((f) => ({ ...f, file: 'deploy/w.yaml' })), '/repo', '/repo');
    expect(baseline.entries).toHaveLength(1);
    expect(applyBaseline(toReport(before), rebase, '/repo', '/repo').report.findings).toEqual([]);
    const replaced = await lintText(text('c.example.com'), only);
    expect(applyBaseline(toReport(replaced), rebase, '/repo', '/repo').report.findings).toHaveLength(1);
  });

  it('sorts entries, so a rewritten baseline diffs cleanly', () => {
    const entries = createBaseline([finding({ ruleId: 'b' }), finding({ ruleId: 'a' }), finding({ file: 'a.yaml' })], '/repo', '/repo').entries;
    expect(entries.map((entry) => `${entry.file} ${entry.ruleId}`)).toEqual(['a.yaml long-timeout', 'deploy/w.yaml a', 'deploy/w.yaml b']);
  });
});

describe('reading a baseline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-baseline-'));
  const write = (text: string): string => {
    writeFileSync(join(dir, 'b.json'), text);
    return 'b.json';
  };
  it.each([
    ['not json', /b\.json: not a baseline file/],
    ['[]', /b\.json: not a baseline file/],
    ['{"version": 2, "entries": []}', /baseline version 2 is not supported/],
    ['{"version": 1}', /entries must be a list/],
    ['{"version": 1, "entries": [{"ruleId": "x"}]}', /entries\[0\] is not a baseline entry/],
  ])('%s is a clear error', (text, message) => {
    expect(() => readBaseline(write(text), dir)).toThrow(InputError);
    expect(() => readBaseline(write(text), dir)).toThrow(message);
  });
  it('a missing file is an error', () => expect(() => readBaseline('nope.json', dir)).toThrow('no such baseline file: nope.json'));
});

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 20
    objectSelector: {matchLabels: {team: a}}
    clientConfig:
      url: https://widgets.example.com/validate
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;

describe('the CLI round trip', () => {
  function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'admission-lint-baseline-'));
    mkdirSync(join(dir, 'deploy'));
    writeFileSync(join(dir, 'deploy', 'w.yaml'), MANIFEST);
    return dir;
  }
  const json = (stdout: string) => JSON.parse(stdout) as { findings: { ruleId: string }[]; summary: { warnings: number; errors: number } };

  it('--write-baseline records the findings and exits 0; --baseline then reports nothing', () => {
    const dir = setup();
    // The written timeout and the opt-in label are infos (deliberate or low-consequence choices).
    expect(cli(['--fail-on', 'info', 'deploy'], dir).code).toBe(1);
    const write = cli(['--fail-on', 'info', '--write-baseline', 'baseline.json', 'deploy'], dir);
    expect(write.code).toBe(0);
    expect(write.stderr).toBe('admission-lint: wrote 2 findings (2 entries) to the baseline baseline.json\n');
    const baseline = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')) as Baseline;
    expect(baseline.version).toBe(1);
    expect(baseline.entries.map((entry) => entry.ruleId).sort()).toEqual(['editable-object-selector', 'long-timeout']);
    expect(baseline.entries[0]!.file).toBe('deploy/w.yaml');

    const again = cli(['--fail-on', 'info', '--baseline', 'baseline.json', '--format', 'json', '.'], dir);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    // The baseline file itself is not linted as a manifest.
    expect(json(again.stdout)).toMatchObject({ findings: [], summary: { warnings: 0, errors: 0, files: 1 } });
  });

  it('survives moved lines, reports new findings, and says how many entries are gone', () => {
    const dir = setup();
    cli(['--write-baseline', 'baseline.json', 'deploy'], dir);
    // Lines move (a comment on top, timeout fixed), and a new problem appears.
    const changed = `# moved down\n\n${MANIFEST.replace('timeoutSeconds: 20', 'timeoutSeconds: 5').replace('failurePolicy: Fail', 'failurePolicy: Ignore')}`;
    writeFileSync(join(dir, 'deploy', 'w.yaml'), changed);
    const run = cli(['--baseline', 'baseline.json', '--format', 'json', '--fail-on', 'info', 'deploy'], dir);
    expect(json(run.stdout).findings.map((f) => f.ruleId)).toEqual(['fail-open']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('admission-lint: 1 entry of the baseline baseline.json no longer occurs; --write-baseline baseline.json removes it\n');
  });

  it('matches from another working directory, and a second identical finding is new', () => {
    const dir = setup();
    cli(['--write-baseline', 'baseline.json', 'deploy'], dir);
    const fromDeploy = cli(['--baseline', '../baseline.json', '--format', 'json', 'w.yaml'], join(dir, 'deploy'));
    expect(json(fromDeploy.stdout).findings).toEqual([]);
    // The same object twice in one file: the same fingerprints again.
    writeFileSync(join(dir, 'deploy', 'w.yaml'), `${MANIFEST}---\n${MANIFEST}`);
    const twice = cli(['--baseline', 'baseline.json', '--format', 'json', 'deploy'], dir);
    expect(json(twice.stdout).findings.map((f) => f.ruleId).sort()).toEqual(['editable-object-selector', 'long-timeout']);
  });

  it('says a baselined finding of one cause that now stands for another place (an opt-out key added)', () => {
    const dir = setup();
    const optOut = MANIFEST.replace('objectSelector: {matchLabels: {team: a}}', 'namespaceSelector: {matchExpressions: [{key: example.com/skip, operator: DoesNotExist}]}')
      .replace('apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]', 'apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]');
    writeFileSync(join(dir, 'deploy', 'w.yaml'), optOut);
    cli(['--write-baseline', 'baseline.json', 'deploy'], dir);
    expect(json(cli(['--baseline', 'baseline.json', '--format', 'json', 'deploy'], dir).stdout).findings).toEqual([]);
    writeFileSync(join(dir, 'deploy', 'w.yaml'), optOut.replace('operator: DoesNotExist}]', 'operator: DoesNotExist}, {key: team.example.com/legacy, operator: DoesNotExist}]'));
    const grown = cli(['--baseline', 'baseline.json', '--format', 'json', 'deploy'], dir);
    expect(json(grown.stdout).findings.map((f) => f.ruleId)).toEqual(['editable-namespace-selector']);
    expect(grown.stderr).toBe('admission-lint: 1 finding of the baseline baseline.json now stands for more places than recorded and is reported as new\n');
  });

  it('a missing or broken baseline is exit 2 before any output', () => {
    const dir = setup();
    expect(cli(['--baseline', 'nope.json', 'deploy'], dir)).toEqual({ code: 2, stdout: '', stderr: 'admission-lint: no such baseline file: nope.json\n  hint: create it with --write-baseline\n' });
    writeFileSync(join(dir, 'bad.json'), '{"version": 9, "entries": []}');
    const bad = cli(['--baseline', 'bad.json', 'deploy'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
  });
});
