/**
 * `simulate --api-version` (issue 15): every other `--version` prints the tool's version, so the
 * request's API version has its own name. The old spelling `simulate --version` keeps working,
 * with a one-line deprecation note on stderr.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const EXAMPLES = join(import.meta.dirname, '..', 'fixtures', 'examples');
const REQUEST = ['simulate', EXAMPLES, '--operation', 'UPDATE', '--group', 'apps', '--resource', 'deployments', '--namespace', 'team-a', '--format', 'json'];

const requestVersion = (stdout: string): string => (JSON.parse(stdout) as { request: { version: string } }).request.version;

describe('simulate --api-version', () => {
  it('sets the request API version, with nothing on stderr', async () => {
    const { code, stdout, stderr } = await runCli([...REQUEST, '--api-version', 'v1'], '');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(requestVersion(stdout)).toBe('v1');
  });

  it('the old spelling --version gives the same simulation, and one line on stderr saying it is deprecated', async () => {
    const current = await runCli([...REQUEST, '--api-version', 'v1'], '');
    const old = await runCli([...REQUEST, '--version', 'v1'], '');
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(current.stdout);
    expect(old.stderr).toBe("admission-lint: simulate --version is deprecated; use --api-version (everywhere else --version prints the tool's version)\n");
  });

  it('both spellings with different values is a usage error', async () => {
    const { code, stdout, stderr } = await runCli([...REQUEST, '--api-version', 'v1', '--version', 'v1beta1'], '');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('admission-lint: --api-version v1 and --version v1beta1 disagree\n  hint: --version is the old spelling of --api-version: give only --api-version\n');
  });

  it('an unserved --api-version is refused as before', async () => {
    const { code, stderr } = await runCli([...REQUEST, '--api-version', 'v7'], '');
    expect(code).toBe(2);
    expect(stderr).toContain('is not served in that version');
  });

  it('help shows --api-version and not the deprecated spelling', async () => {
    const { code, stdout } = await runCli(['simulate', '--help'], '');
    expect(code).toBe(0);
    expect(stdout).toContain('--api-version <version>');
    expect(stdout).not.toMatch(/--version\b/);
  });
});
