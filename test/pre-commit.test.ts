/**
 * The published pre-commit hook, end to end: a temporary git repository whose
 * `.pre-commit-config.yaml` is the README's snippet with `repo:` a hook repository made from this
 * checkout and `rev:` a commit hash, and Debian's `pre-commit` running it. pre-commit clones the
 * hook repository at a committed revision, so the test commits a copy of the current working tree
 * (tracked and new files, not node_modules or dist) into a temporary repository first: that is
 * what proves `.pre-commit-hooks.yaml` as published — `language: script` running the committed
 * standalone file, `types_or: [yaml, json]`, the `templates/` exclusion, file names passed — and
 * not some local shortcut (`repo: local` would not read the hook file).
 *
 * A second test runs the README's snippet as written, only its `repo:` URL replaced by a local
 * clone whose default branch is `main` (the network step): `rev:` as the README pins it must
 * install and run, and `pre-commit autoupdate`, which the README says to run, must pin a full
 * commit hash while there is no tag, and the release tag once there is one.
 *
 * The first run (pre-commit clones the hook repository and "installs" it) must take under 30
 * seconds, and no run may use npm: npm and npx on the PATH are traps that fail the test.
 * Skipped, with the reason printed, when `pre-commit` or `git` is not installed (`.ci/run`
 * installs Debian's pre-commit).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { committedCopy, git, GIT_ENV, has, ROOT } from './package-tree.js';

const missing = ['git', 'pre-commit'].filter((command) => !has(command));
const skip = missing.length > 0 ? `${missing.join(' and ')} not installed (.ci/run installs Debian's pre-commit)` : null;
if (skip !== null) console.log(`test/pre-commit.test.ts skipped: ${skip}`);

const VALID = readFileSync(join(ROOT, 'fixtures/removed-api-version/valid/v1.yaml'), 'utf8');
const BAD = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: bad
webhooks:
  - name: bad.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 45
    clientConfig:
      url: https://bad.example.com/validate
    rules:
      - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}
`;
/** The same mistake in a JSON manifest. */
const BAD_JSON = JSON.stringify(
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'bad-json' },
    webhooks: [
      {
        name: 'bad-json.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        timeoutSeconds: 45,
        clientConfig: { url: 'https://bad.example.com/validate' },
        rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
      },
    ],
  },
  null,
  2,
);
/** A Helm template: not YAML until rendered. */
const TEMPLATE = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: {{ include "mychart.fullname" . }}
webhooks:
  {{- range .Values.webhooks }}
  - name: {{ .name }}
  {{- end }}
`;

const temp = mkdtempSync(join(tmpdir(), 'admission-lint-pre-commit-'));
// Generous: on a busy machine, removing the copies has taken longer than the default 10 s.
afterAll(() => rmSync(temp, { recursive: true, force: true }), 60_000);

/** npm and npx that record being called and fail: the hook must not use them. */
function trapBin(): { dir: string; marker: string } {
  const dir = join(temp, 'trap-bin');
  const marker = join(temp, 'npm-was-called');
  mkdirSync(dir);
  for (const name of ['npm', 'npx']) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 1\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return { dir, marker };
}

/** The README's pre-commit snippet: the ```yaml block that follows the "### pre-commit" heading. */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n### pre-commit\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ```yaml block under "### pre-commit"');
  return block[1]!;
}

describe.skipIf(skip !== null)('pre-commit hook (.pre-commit-hooks.yaml)', () => {
  it("runs the README's snippet as written (a local clone for the URL), and autoupdate pins what exists", { timeout: 180_000 }, () => {
    const snippet = readmeSnippet();
    const url = /repo:\s*(\S+)/.exec(snippet)?.[1];
    expect(url).toBe('https://github.com/admission-lint/admission-lint');
    const hookPath = join(temp, 'readme-hook-repo');
    const head = committedCopy(hookPath);
    // GitHub's default branch: main (a bare `git init` may name it master).
    git(hookPath, 'branch', '-M', 'main');
    const project = join(temp, 'readme-project');
    mkdirSync(project);
    git(project, 'init', '-q');
    writeFileSync(join(project, '.pre-commit-config.yaml'), snippet.replace(url!, hookPath));
    writeFileSync(join(project, 'bad.yaml'), BAD);
    git(project, 'add', '-A');
    const env = { ...process.env, ...GIT_ENV, PRE_COMMIT_HOME: join(temp, 'pre-commit-home-readme'), NO_COLOR: '1' };
    const preCommit = (...args: string[]) => spawnSync('pre-commit', [...args], { cwd: project, env, encoding: 'utf8' });

    const pasted = preCommit('run', '--color', 'never', '--files', 'bad.yaml');
    expect(pasted.status, pasted.stdout + pasted.stderr).toBe(1);
    expect(pasted.stdout).toContain('timeout-out-of-range');
    // What the README says about `rev: main`: it works, and pre-commit warns that a branch moves.
    const rev = /rev:\s*(\S+)/.exec(snippet)![1]!;
    if (!/^[0-9a-f]{40}$/.test(rev) && !rev.includes('.')) expect(pasted.stdout + pasted.stderr).toMatch(/mutable reference/);

    // No tag: autoupdate pins the newest commit's full hash.
    const pinned = preCommit('autoupdate');
    expect(pinned.status, pinned.stdout + pinned.stderr).toBe(0);
    expect(readFileSync(join(project, '.pre-commit-config.yaml'), 'utf8')).toMatch(new RegExp(`rev: ${head}\\b`));
    const again = preCommit('run', '--color', 'never', '--files', 'bad.yaml');
    expect(again.status, again.stdout + again.stderr).toBe(1);
    expect(again.stdout + again.stderr).not.toMatch(/mutable reference/);

    // The first release: autoupdate moves to its tag, named as docs/release.md says.
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    git(hookPath, 'tag', '-a', `v${version}`, '-m', `admission-lint ${version}`);
    const tagged = preCommit('autoupdate');
    expect(tagged.status, tagged.stdout + tagged.stderr).toBe(0);
    expect(readFileSync(join(project, '.pre-commit-config.yaml'), 'utf8')).toContain(`rev: v${version}`);
  });

  it('lints staged YAML and JSON manifests, skips templates/ folders, and starts in seconds without npm', { timeout: 180_000 }, () => {
    const hookPath = join(temp, 'hook-repo');
    const rev = committedCopy(hookPath);
    // language: script runs the file itself: it must be committed executable.
    expect(git(hookPath, 'ls-files', '-s', 'standalone/admission-lint.cjs')).toMatch(/^100755 /);

    const project = join(temp, 'project');
    mkdirSync(join(project, 'charts', 'mychart', 'templates'), { recursive: true });
    git(project, 'init', '-q');
    // The README's snippet, with this hook repository and commit.
    writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hookPath}\n    rev: ${rev}\n    hooks:\n      - id: admission-lint\n`);
    writeFileSync(join(project, 'bad.yaml'), BAD);
    writeFileSync(join(project, 'bad.json'), BAD_JSON);
    writeFileSync(join(project, 'good.yaml'), VALID);
    writeFileSync(join(project, 'notes.txt'), 'not YAML: the hook never sees it\n');
    writeFileSync(join(project, 'charts', 'mychart', 'Chart.yaml'), 'apiVersion: v2\nname: mychart\nversion: 0.1.0\n');
    writeFileSync(join(project, 'charts', 'mychart', 'templates', 'webhook.yaml'), TEMPLATE);
    git(project, 'add', '-A');
    const trap = trapBin();
    const env = {
      ...process.env,
      ...GIT_ENV,
      PATH: `${trap.dir}${delimiter}${process.env.PATH ?? ''}`,
      // A private cache, so the hook is installed from the committed tree and not reused.
      PRE_COMMIT_HOME: join(temp, 'pre-commit-home'),
      NO_COLOR: '1',
    };
    const run = (...args: string[]) => spawnSync('pre-commit', ['run', '--color', 'never', ...args], { cwd: project, env, encoding: 'utf8' });

    // The first run clones the hook repository: timed.
    const started = performance.now();
    const bad = run('--files', 'bad.yaml');
    const firstRun = (performance.now() - started) / 1000;
    console.log(`pre-commit hook, first run (clone and lint): ${firstRun.toFixed(2)} s`);
    expect(bad.status, bad.stdout + bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/admission-lint\.+Failed/);
    expect(bad.stdout).toContain('bad.yaml');
    expect(bad.stdout).toContain('timeout-out-of-range');
    expect(firstRun).toBeLessThan(30);

    const json = run('--files', 'bad.json');
    expect(json.status, json.stdout + json.stderr).toBe(1);
    expect(json.stdout).toContain('bad.json');
    expect(json.stdout).toContain('timeout-out-of-range');

    // The template would be a yaml-syntax error; it is excluded. notes.txt is not YAML or JSON.
    const good = run('--files', 'good.yaml', 'notes.txt', 'charts/mychart/Chart.yaml', 'charts/mychart/templates/webhook.yaml');
    expect(good.status, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toMatch(/admission-lint\.+Passed/);

    // Only templates: nothing for the hook, which pre-commit reports as skipped.
    const onlyTemplate = run('--files', 'charts/mychart/templates/webhook.yaml');
    expect(onlyTemplate.status, onlyTemplate.stdout + onlyTemplate.stderr).toBe(0);
    expect(onlyTemplate.stdout).toMatch(/admission-lint\.+\(no files to check\)Skipped/);

    // A project's own `exclude:` replaces the hook's (README.md): here, nothing is excluded.
    writeFileSync(join(project, 'no-exclude.yaml'), `repos:\n  - repo: ${hookPath}\n    rev: ${rev}\n    hooks:\n      - id: admission-lint\n        exclude: '^$'\n`);
    const template = run('--config', 'no-exclude.yaml', '--files', 'charts/mychart/templates/webhook.yaml');
    expect(template.status, template.stdout + template.stderr).toBe(1);
    expect(template.stdout).toContain('yaml-syntax');

    expect(existsSync(trap.marker) ? readFileSync(trap.marker, 'utf8') : '').toBe('');
  });
});
