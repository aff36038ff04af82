/** A CLI that forgives typing (issue 15, in part): severities as ESLint users type them, versions checked, "did you mean" for commands. */
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 30
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
`;

const cli = (args: string[]) => runCli(args, MANIFEST);

async function longTimeoutSeverity(spelling: string): Promise<string | undefined> {
  const { stdout } = await cli(['-', '--format', 'json', '--rule', `long-timeout=${spelling}`]);
  return (JSON.parse(stdout) as { findings: { ruleId: string; severity: string }[] }).findings.find((f) => f.ruleId === 'long-timeout')?.severity;
}

describe('a CLI that forgives typing', () => {
  it('--rule accepts warn and ESLint numbers', async () => {
    expect(await longTimeoutSeverity('warn')).toBe('warning');
    expect(await longTimeoutSeverity('2')).toBe('error');
    expect(await longTimeoutSeverity('1')).toBe('warning');
    expect(await longTimeoutSeverity('0')).toBeUndefined();
    expect((await cli(['-', '--rule', 'long-timeout=3'])).code).toBe(2);
  });

  it('--fail-on accepts warn, as --rule does', async () => {
    expect((await cli(['-'])).code).toBe(0);
    expect((await cli(['-', '--fail-on', 'warn'])).code).toBe(1);
    expect((await cli(['-', '--fail-on', 'warn', '--format', 'json'])).stdout).toContain('"failOn": "warning"');
  });

  it('a --rule severity it does not know is one line naming the spellings', async () => {
    const { code, stderr } = await cli(['-', '--rule', 'long-timeout=warnng']);
    expect(code).toBe(2);
    expect(stderr).toBe('admission-lint: --rule "long-timeout=warnng" is not <rule-id>=<off|info|warning|error>\n  hint: e.g. --rule editable-object-selector=off (warn, and 0, 1, 2 as in ESLint, work too)\n');
  });

  it('--kube-version outside the versions the tables know is a clear error', async () => {
    for (const version of ['1.3', '1.40', '1.15']) {
      const { code, stderr } = await cli(['-', '--kube-version', version]);
      expect(code).toBe(2);
      expect(stderr).toContain(`--kube-version: ${version} is outside the versions admission-lint knows (1.16 to 1.37)`);
    }
    expect((await cli(['-', '--kube-version', '1.16'])).code).toBe(0);
  });

  it('a mistyped command gets a suggestion', async () => {
    const { code, stderr } = await cli(['lnt']);
    expect(code).toBe(2);
    expect(stderr).toBe('admission-lint: no such file or folder: lnt\n  hint: did you mean the command "admission-lint lint"?\n');
  });
});
