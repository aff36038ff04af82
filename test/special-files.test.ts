/**
 * Files from a pull request are read only when they are regular files inside the folder being
 * linted, and only up to a size (issue 12, item 3): devices, FIFOs and links out of the folder
 * must not hang the gate, read gigabytes, or read files the repository does not hold.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../src/load/sources.js';
import { spawnCli } from './spawn-cli.js';


const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 5
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}]
`;

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], cwd: string, stdin: 'ignore' | number = 'ignore') => spawnCli(args, { cwd, stdin, timeout: 60_000 });

function project(): string {
  return mkdtempSync(join(tmpdir(), 'admission-lint-files-'));
}

describe('special files', () => {
  it('a device named on the command line is a one-line error, exit 2', () => {
    const { code, stderr, timedOut } = cli(['/dev/zero'], tmpdir());
    expect(timedOut).toBe(false);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('not a regular file: /dev/zero');
  });

  it('a FIFO named on the command line is a one-line error, exit 2, without blocking', () => {
    const dir = project();
    const fifo = join(dir, 'pipe.yaml');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo here
    const { code, stderr, timedOut } = cli([fifo], dir);
    expect(timedOut).toBe(false);
    expect(code).toBe(2);
    expect(stderr).toContain('not a regular file');
  });

  it('a kustomization.yaml that links to /dev/zero or /dev/stdin is not read', () => {
    for (const target of ['/dev/zero', '/dev/stdin']) {
      const dir = project();
      writeFileSync(join(dir, 'webhook.yaml'), WEBHOOK);
      symlinkSync(target, join(dir, 'kustomization.yaml'));
      const { code, stdout, timedOut } = cli(['--format', 'json', '.'], dir, target === '/dev/stdin' ? openSync('/dev/zero', 'r') : 'ignore');
      expect(timedOut).toBe(false);
      expect(code).toBe(0);
      expect(JSON.parse(stdout).summary.objects).toBe(1);
    }
  });

  it('a folder walk does not follow links to files outside the folder', () => {
    const outside = project();
    writeFileSync(join(outside, 'secret.yaml'), WEBHOOK.replace('timeoutSeconds: 5', 'timeoutSeconds: 5\n    failurePolicy: Fail'));
    const dir = project();
    mkdirSync(join(dir, 'deploy'));
    writeFileSync(join(dir, 'deploy', 'webhook.yaml'), WEBHOOK);
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'deploy', 'linked-out.yaml'));
    symlinkSync(join(dir, 'deploy', 'webhook.yaml'), join(dir, 'deploy', 'linked-in.yaml'));
    const report = JSON.parse(cli(['--format', 'json', 'deploy'], dir).stdout);
    expect(report.summary.files).toBe(2);
  });

  it('a file over the size limit is one finding, not read', () => {
    const dir = project();
    const big = join(dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, MAX_FILE_BYTES + 1);
    const { code, stdout } = cli(['--format', 'json', 'big.yaml'], dir);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.findings.map((f: { ruleId: string; message: string }) => `${f.ruleId}: ${f.message}`)).toEqual([
      'yaml-syntax: the file is 64 MiB, over the 64 MiB limit, and was not read: manifests are kilobytes; split the file, or lint what you apply from it',
    ]);
  });

  it('standard input is read only up to the limit (< /dev/zero ends)', () => {
    const { code, stdout, timedOut } = cli(['--format', 'json', '-'], tmpdir(), openSync('/dev/zero', 'r'));
    expect(timedOut).toBe(false);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).findings[0].message).toMatch(/over the 64 MiB limit, and was not read/);
  });
});
