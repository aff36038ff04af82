/**
 * A gate that opens must say so (issue 12, item 6): a pull request's `.admission-lint.yaml` that
 * ignores every file, turns rules off or never fails, and suppression comments, all show in the
 * summary of every format; a run with no file is exit 2; `--no-config-lookup` and
 * `--no-inline-config` let teams lint untrusted code without its own configuration.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from './spawn-cli.js';


const FAILING = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  # admission-lint-disable-next-line long-timeout -- the webhook answers from a cache
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 25
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], cwd: string) => spawnCli(args, { cwd });

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-gate-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('a visible gate', () => {
  it('no file to lint is exit 2, also when the config ignores every file; --allow-empty accepts it', () => {
    const empty = project({});
    expect(cli([], empty)).toMatchObject({ code: 2, stderr: 'admission-lint: no file to lint in .\n  hint: pass --allow-empty when an empty run is expected\n' });
    expect(cli(['--allow-empty'], empty).code).toBe(0);
    const ignored = project({ '.admission-lint.yaml': "ignore: ['*']\n", 'webhook.yaml': FAILING });
    expect(cli([], ignored).stderr).toContain("no file to lint in .: the config's ignore patterns took all 1");
    expect(cli([], ignored).code).toBe(2);
  });

  it('rules turned off, failOn never and suppressions are in every summary', () => {
    const dir = project({ '.admission-lint.yaml': 'failOn: never\nrules:\n  matches-kube-system: off\n  critical-resources: off\n', 'webhook.yaml': FAILING });
    const stylish = cli([], dir);
    expect(stylish.code).toBe(0);
    expect(stylish.stdout).toContain('! gate changed by .admission-lint.yaml: 2 rules off (critical-resources, matches-kube-system); fails on: never; 1 finding suppressed inline');
    const json = JSON.parse(cli(['--format', 'json'], dir).stdout);
    expect(json.gate).toEqual({ config: '.admission-lint.yaml', filesIgnored: 0, rulesOff: ['critical-resources', 'matches-kube-system'], failOn: 'never', inlineConfig: true, severitiesLowered: [], optionsMatchingAll: [], optionsLoosened: [], optionsExempting: [], kubeVersion: '1.35', kubeVersionUnreleased: null, trustedNamespaceLabels: [] });
    expect(json.summary.suppressed).toBe(1);
    expect(json.suppressed).toEqual([{ ruleId: 'long-timeout', file: 'webhook.yaml', line: 10, column: 5, by: 'admission-lint-disable-next-line', reason: 'the webhook answers from a cache' }]);
    const sarif = JSON.parse(cli(['--format', 'sarif'], dir).stdout);
    expect(sarif.runs[0].properties.gate.failOn).toBe('never');
    const suppressed = sarif.runs[0].results.filter((result: { suppressions?: unknown }) => result.suppressions !== undefined);
    expect(suppressed.map((result: { ruleId: string; suppressions: unknown }) => [result.ruleId, result.suppressions])).toEqual([
      ['long-timeout', [{ kind: 'inSource', justification: 'the webhook answers from a cache' }]],
    ]);
    expect(cli(['--format', 'markdown'], dir).stdout).toContain('gate changed by .admission-lint.yaml');
  });

  it('--no-config-lookup ignores the repository config; --no-inline-config ignores suppression comments', () => {
    const dir = project({ '.admission-lint.yaml': 'failOn: never\n', 'webhook.yaml': FAILING });
    expect(cli([], dir).code).toBe(0);
    expect(cli(['--no-config-lookup'], dir).code).toBe(1);
    const strict = JSON.parse(cli(['--no-config-lookup', '--no-inline-config', '--format', 'json'], dir).stdout);
    expect(strict.findings.map((f: { ruleId: string }) => f.ruleId)).toContain('long-timeout');
    expect(strict.summary.suppressed).toBe(0);
    expect(strict.gate).toMatchObject({ config: null, inlineConfig: false });
    expect(cli(['--no-config-lookup', '--no-inline-config'], dir).stdout).toContain('suppression comments ignored');
  });
});
