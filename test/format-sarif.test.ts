/**
 * `--format sarif`: unit tests on a hand-built report, and Microsoft's SARIF validator (the SARIF
 * rules plus GitHub Advanced Security's ingestion rules) over real output of the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { markdownToText, ruleDocsUrl, RULE_DOCS_BASE_URL, whatItDoes } from '../src/format/docs.js';
import { artifactLocation, FINGERPRINT_KEY, formatSarif, pascalCase, region } from '../src/format/sarif.js';
import type { FormatOptions } from '../src/format/types.js';
import type { RuleMeta } from '../src/rule.js';
import { finding as baseFinding, report } from './format-report.js';
import { spawnCli } from './spawn-cli.js';

const finding = (overrides: Parameters<typeof baseFinding>[0] = {}) => baseFinding({ help: 'Set timeoutSeconds between 1 and 30; keep it small (a few seconds).', ...overrides });

const ROOT = join(import.meta.dirname, '..');

const META: RuleMeta[] = [
  { id: 'yaml-syntax', title: 'The file is not valid YAML', severity: 'error', appliesTo: [], messages: {}, help: 'Fix the YAML.' },
  { id: 'timeout-out-of-range', title: 'timeoutSeconds outside 1 to 30', severity: 'error', appliesTo: [], messages: {}, help: 'Set timeoutSeconds between 1 and 30.' },
  { id: 'implicit-failure-policy', title: 'failurePolicy omitted', severity: 'warning', appliesTo: [], messages: {}, help: 'Write failurePolicy.' },
  { id: 'long-timeout', title: 'A long timeout', severity: 'info', appliesTo: [], messages: {}, help: 'Lower it.' },
  { id: 'schema', title: 'Wrong types', severity: 'error', appliesTo: [], messages: {}, help: 'Match the types.' },
];

const OPTIONS: FormatOptions = {
  rules: META,
  cwd: '/work/repo',
  color: false,
  ruleDescription: (id) => (id === 'timeout-out-of-range' ? 'Flags a `timeoutSeconds` that is\noutside 1 to 30 seconds.\n\n- `0`\n- `45`' : undefined),
};

type Json = any;
const sarif = (findings: Finding[], options: FormatOptions = OPTIONS): Json => JSON.parse(formatSarif(report(findings), options));

describe('sarif: log, run and tool', () => {
  it('is SARIF 2.1.0 with one run, the tool and SRCROOT', () => {
    const log = sarif([]);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver).toMatchObject({ name: 'admission-lint', version: '1.2.3', informationUri: 'https://github.com/admission-lint/admission-lint' });
    expect(run.originalUriBaseIds).toEqual({ SRCROOT: { uri: 'file:///work/repo/' } });
    expect(run.results).toEqual([]);
  });

  it('describes every registered rule, in order, with name, descriptions, help, docs and level', () => {
    const [run] = sarif([]).runs;
    expect(run.tool.driver.rules.map((r: Json) => r.id)).toEqual(META.map((m) => m.id));
    const timeout = run.tool.driver.rules[1];
    expect(timeout).toEqual({
      id: 'timeout-out-of-range',
      name: 'TimeoutOutOfRange',
      shortDescription: { text: 'timeoutSeconds outside 1 to 30' },
      fullDescription: {
        text: 'Flags a timeoutSeconds that is outside 1 to 30 seconds.\n\n- 0\n- 45',
        markdown: 'Flags a `timeoutSeconds` that is\noutside 1 to 30 seconds.\n\n- `0`\n- `45`',
      },
      help: {
        text: `Set timeoutSeconds between 1 and 30. Documentation: ${RULE_DOCS_BASE_URL}timeout-out-of-range.md`,
        markdown: `Set timeoutSeconds between 1 and 30.\n\n[Documentation of timeout-out-of-range](${RULE_DOCS_BASE_URL}timeout-out-of-range.md)`,
      },
      helpUri: 'https://github.com/admission-lint/admission-lint/blob/main/rules/timeout-out-of-range.md',
      defaultConfiguration: { level: 'error' },
    });
    // Without a doc section the title stands in (GitHub requires a fullDescription).
    expect(run.tool.driver.rules[0].fullDescription).toEqual({ text: 'The file is not valid YAML' });
    expect(run.tool.driver.rules.map((r: Json) => r.defaultConfiguration.level)).toEqual(['error', 'error', 'warning', 'note', 'error']);
    // SARIF1001: a name equal to the id (case aside) is left out.
    expect(run.tool.driver.rules[4].name).toBeUndefined();
  });

  it('names rules in PascalCase', () => {
    expect(pascalCase('timeout-out-of-range')).toBe('TimeoutOutOfRange');
    expect(pascalCase('yaml-syntax')).toBe('YamlSyntax');
    expect(pascalCase('admission-review-versions')).toBe('AdmissionReviewVersions');
  });

  it('is a pure function of its input', () => {
    const findings = [finding(), finding({ line: 20, endLine: 21 })];
    expect(formatSarif(report(findings), OPTIONS)).toBe(formatSarif(report(findings), OPTIONS));
  });
});

describe('sarif: results', () => {
  it('maps a finding to ruleId, ruleIndex, level, message, location and properties', () => {
    const [run] = sarif([finding()]).runs;
    expect(run.results).toEqual([
      {
        ruleId: 'timeout-out-of-range',
        ruleIndex: 1,
        level: 'error',
        message: { text: 'timeoutSeconds is 45; the API server accepts 1 to 30 seconds' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'deploy/webhook.yaml', uriBaseId: 'SRCROOT' },
              region: { startLine: 14, startColumn: 5, endLine: 14, endColumn: 23 },
            },
          },
        ],
        partialFingerprints: { [FINGERPRINT_KEY]: expect.stringMatching(/^[0-9a-f]{64}:1$/) },
        properties: {
          fieldPath: 'webhooks[0].timeoutSeconds',
          object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'policy' },
          webhook: 'validate.policy.example.com',
          documentIndex: 0,
          help: 'Set timeoutSeconds between 1 and 30; keep it small (a few seconds).',
        },
      },
    ]);
  });

  it('maps severities to levels: error, warning, note', () => {
    const [run] = sarif([finding(), finding({ ruleId: 'implicit-failure-policy', severity: 'warning' }), finding({ ruleId: 'long-timeout', severity: 'info' })]).runs;
    expect(run.results.map((r: Json) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ['timeout-out-of-range', 1, 'error'],
      ['implicit-failure-policy', 2, 'warning'],
      ['long-timeout', 3, 'note'],
    ]);
  });

  it('uses the severity of the finding (a --rule override), not the rule default', () => {
    const [run] = sarif([finding({ ruleId: 'implicit-failure-policy', severity: 'error' })]).runs;
    expect(run.results[0].level).toBe('error');
    expect(run.tool.driver.rules[run.results[0].ruleIndex].defaultConfiguration.level).toBe('warning');
  });

  it('describes a rule it was not told about instead of pointing at nothing', () => {
    const [run] = sarif([finding({ ruleId: 'brand-new-rule' })]).runs;
    expect(run.results[0].ruleIndex).toBe(META.length);
    expect(run.tool.driver.rules[META.length]).toMatchObject({ id: 'brand-new-rule', name: 'BrandNewRule' });
  });

  it('has findings on stdin at uri "stdin" without a base', () => {
    const [run] = sarif([finding({ file: '<stdin>' })]).runs;
    expect(run.results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'stdin' });
  });

  it('keeps null fields out of the properties', () => {
    const [run] = sarif([finding({ ruleId: 'yaml-syntax', fieldPath: null, object: null, webhook: null, help: null })]).runs;
    expect(run.results[0].properties).toEqual({ documentIndex: 0 });
  });
});

describe('sarif: artifact locations', () => {
  it('is relative to SRCROOT with / separators, percent-encoded', () => {
    expect(artifactLocation('deploy/webhook.yaml', '/work/repo')).toEqual({ uri: 'deploy/webhook.yaml', uriBaseId: 'SRCROOT' });
    expect(artifactLocation('./deploy/../deploy/webhook.yaml', '/work/repo')).toEqual({ uri: 'deploy/webhook.yaml', uriBaseId: 'SRCROOT' });
    expect(artifactLocation('deploy\\windows\\webhook.yaml', '/work/repo')).toEqual({ uri: 'deploy/windows/webhook.yaml', uriBaseId: 'SRCROOT' });
    expect(artifactLocation('my dir/wébhook #1 100%.yaml', '/work/repo')).toEqual({ uri: 'my%20dir/w%C3%A9bhook%20%231%20100%25.yaml', uriBaseId: 'SRCROOT' });
    expect(artifactLocation('a:b?c.yaml', '/work/repo')).toEqual({ uri: 'a%3Ab%3Fc.yaml', uriBaseId: 'SRCROOT' });
    expect(artifactLocation('/work/repo/x.yaml', '/work/repo')).toEqual({ uri: 'x.yaml', uriBaseId: 'SRCROOT' });
  });

  it('is an absolute file: URI for a file outside the working folder', () => {
    expect(artifactLocation('../other/x.yaml', '/work/repo')).toEqual({ uri: 'file:///work/other/x.yaml' });
    expect(artifactLocation('/etc/k8s/a b.yaml', '/work/repo')).toEqual({ uri: 'file:///etc/k8s/a%20b.yaml' });
  });
});

describe('sarif: regions', () => {
  it('keeps a well-formed span as it is (1-based, end exclusive on both sides)', () => {
    expect(region({ line: 3, column: 5, endLine: 7, endColumn: 1 })).toEqual({ startLine: 3, startColumn: 5, endLine: 7, endColumn: 1 });
    expect(region({ line: 3, column: 5, endLine: 3, endColumn: 6 })).toEqual({ startLine: 3, startColumn: 5, endLine: 3, endColumn: 6 });
  });

  it('widens a zero-width span to one character and repairs an inverted one', () => {
    expect(region({ line: 3, column: 5, endLine: 3, endColumn: 5 })).toEqual({ startLine: 3, startColumn: 5, endLine: 3, endColumn: 6 });
    expect(region({ line: 3, column: 5, endLine: 3, endColumn: 2 })).toEqual({ startLine: 3, startColumn: 5, endLine: 3, endColumn: 6 });
    expect(region({ line: 9, column: 5, endLine: 4, endColumn: 20 })).toEqual({ startLine: 9, startColumn: 5, endLine: 9, endColumn: 6 });
    expect(region({ line: 0, column: 0, endLine: 0, endColumn: 0 })).toEqual({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 });
  });
});

describe('sarif: partial fingerprints', () => {
  const fingerprint = (f: Finding): string => sarif([f]).runs[0].results[0].partialFingerprints[FINGERPRINT_KEY];

  it('uses its own key and never GitHub’s reserved primaryLocationLineHash', () => {
    const [run] = sarif([finding(), finding({ file: '<stdin>' })]).runs;
    for (const result of run.results) expect(Object.keys(result.partialFingerprints)).toEqual([FINGERPRINT_KEY]);
    expect(formatSarif(report([finding()]), OPTIONS)).not.toContain('primaryLocationLineHash');
  });

  it('is stable when the finding moves to another line, and changes with what it is about', () => {
    const base = fingerprint(finding());
    expect(fingerprint(finding({ line: 40, column: 9, endLine: 41, endColumn: 2, documentIndex: 3 }))).toBe(base);
    expect(fingerprint(finding({ message: 'timeoutSeconds is 60; …' }))).toBe(base);
    expect(fingerprint(finding({ ruleId: 'long-timeout' }))).not.toBe(base);
    expect(fingerprint(finding({ file: './deploy/webhook.yaml' }))).toBe(base);
    expect(fingerprint(finding({ file: 'deploy/other.yaml' }))).not.toBe(base);
    expect(fingerprint(finding({ object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'other' } }))).not.toBe(base);
    expect(fingerprint(finding({ object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', name: 'policy' } }))).not.toBe(base);
    expect(fingerprint(finding({ webhook: 'other.policy.example.com' }))).not.toBe(base);
    expect(fingerprint(finding({ fieldPath: 'webhooks[1].timeoutSeconds' }))).not.toBe(base);
  });

  it('numbers findings that share everything, so each is its own alert', () => {
    const a = finding({ ruleId: 'yaml-syntax', fieldPath: null, object: null, webhook: null, line: 2 });
    const b = finding({ ruleId: 'yaml-syntax', fieldPath: null, object: null, webhook: null, line: 9 });
    const prints = sarif([a, b]).runs[0].results.map((r: Json) => r.partialFingerprints[FINGERPRINT_KEY] as string);
    expect(prints[0]!.replace(/:1$/, '')).toBe(prints[1]!.replace(/:2$/, ''));
    expect(new Set(prints).size).toBe(2);
  });
});

describe('rule docs for SARIF', () => {
  it('takes the "What it does" section, without front matter and up to the next section', () => {
    const doc = '---\nid: x\n---\n\n# x\n\n## What it does\n\nFlags `a`.\n\n```yaml\n## not a heading\n```\n\n## Why is this bad?\n\nBecause.\n';
    expect(whatItDoes(doc)).toBe('Flags `a`.\n\n```yaml\n## not a heading\n```');
    expect(whatItDoes('# x\n\n## Why is this bad?\n')).toBeUndefined();
  });

  it('turns the Markdown into plain text', () => {
    expect(markdownToText('Flags `*` and **bold** and *em*\nwrapped [docs](https://example.com/a).\n\n- item `one`\n  continued\n- item two')).toBe(
      'Flags * and bold and em wrapped docs (https://example.com/a).\n\n- item one continued\n- item two',
    );
  });

  it('finds the section in every registered rule’s doc, and each docs URL is under the one base', () => {
    for (const rule of rules) {
      const doc = readFileSync(join(ROOT, 'rules', `${rule.meta.id}.md`), 'utf8');
      expect(whatItDoes(doc), rule.meta.id).toMatch(/\S/);
      expect(ruleDocsUrl(rule.meta.id)).toBe(`${RULE_DOCS_BASE_URL}${rule.meta.id}.md`);
    }
  });
});

// ——— Microsoft's validator over real output ————————————————————————————————————————

const VALIDATOR_PACKAGE = '@microsoft/sarif-multitool-linux';

/** The validator's binary, or why it cannot run on this machine. */
function findValidator(): { binary: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { skip: `the SARIF validator binary in ${VALIDATOR_PACKAGE} is built for linux-x64; this is ${process.platform}-${process.arch}` };
  }
  let binary: string;
  try {
    binary = join(dirname(createRequire(import.meta.url).resolve(`${VALIDATOR_PACKAGE}/package.json`)), 'Sarif.Multitool');
  } catch {
    return { skip: `${VALIDATOR_PACKAGE} is not installed (optional dependency of the devDependency @microsoft/sarif-multitool; installed with --omit=optional?)` };
  }
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    // What the package's own postinstall does; npm skips install scripts it has not been allowed to run.
    chmodSync(binary, 0o755);
  }
  return { binary };
}

interface Diagnostic {
  readonly ruleId: string;
  readonly level: string;
  readonly text: string;
}

/**
 * SARIF2006 (UrisShouldBeReachable) sends an HTTP GET to every helpUri and informationUri: no
 * network in tests. It reports at level note, which `validate` does not print by default anyway.
 */
const OFFLINE_POLICY = `<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" />
  </Properties>
</Properties>
`;

/**
 * Runs `Sarif.Multitool validate --rule-kind "Sarif;Ghas"` (the SARIF spec rules, the JSON schema
 * and GitHub Advanced Security's ingestion rules) and reads the findings from the log it writes.
 * The tool exits 0 even when it finds errors, so its log is what counts.
 */
function validate(binary: string, file: string): Diagnostic[] {
  const out = `${file}.validation.sarif`;
  const policy = `${file}.policy.xml`;
  writeFileSync(policy, OFFLINE_POLICY);
  const result = spawnSync(binary, ['validate', '--rule-kind', 'Sarif;Ghas', '--config', policy, '--output', out, file], {
    encoding: 'utf8',
    // Invariant globalization: the single-file .NET binary then needs no libicu, so a fresh
    // machine with only `npm ci` runs it.
    env: { PATH: process.env.PATH ?? '', DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
    timeout: 120_000,
  });
  const context = `exit ${result.status}${result.error ? ` (${result.error.message})` : ''}\n${result.stdout}\n${result.stderr}`;
  expect(result.status, context).toBe(0);
  expect(existsSync(out), context).toBe(true);
  const log = JSON.parse(readFileSync(out, 'utf8'));
  const [run] = log.runs;
  expect(run.invocations?.[0]?.executionSuccessful, context).toBe(true);
  const descriptors: Json[] = run.tool.driver.rules ?? [];
  return (run.results ?? []).map((r: Json) => ({
    ruleId: r.ruleId,
    // A result without a level takes its rule's default, and "warning" without one (SARIF §3.27.10).
    level: r.level ?? descriptors[r.ruleIndex]?.defaultConfiguration?.level ?? 'warning',
    text: r.message?.text ?? '',
  }));
}

/** The built CLI (test/spawn-cli.ts). */
const cli = (args: string[], cwd: string, input = '') => spawnCli(args, { cwd, input });

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-world');

describe('Microsoft SARIF validator (Sarif;Ghas rules) on output of the built CLI', () => {
  const found = findValidator();
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-sarif-'));

  const check = (name: string, args: string[], cwd: string, input?: string): Diagnostic[] => {
    if ('skip' in found) throw new Error('unreachable');
    const file = join(dir, `${name}.sarif`);
    const run = cli(['--format', 'sarif', '--fail-on', 'never', '--output', file, ...args], cwd, input);
    expect(run.code, run.stderr).toBe(0);
    const log = JSON.parse(readFileSync(file, 'utf8'));
    expect(log.runs[0].results.length).toBeGreaterThan(0);
    const diagnostics = validate(found.binary, file);
    const warnings = diagnostics.filter((d) => d.level !== 'error');
    if (warnings.length > 0) process.stderr.write(`SARIF validator warnings on ${name}:\n${warnings.map((d) => `  ${d.ruleId}: ${d.text}`).join('\n')}\n`);
    return diagnostics.filter((d) => d.level === 'error');
  };

  it('can run here (or says why not)', { timeout: 60_000 }, (context) => {
    if ('skip' in found) {
      process.stderr.write(`SKIPPED SARIF validation: ${found.skip}\n`);
      context.skip(found.skip);
    }
    // The harness is not vacuous: a log with an inverted region and a bad URI is rejected.
    const bad = join(dir, 'bad.sarif');
    const log = JSON.parse(formatSarif(report([finding()]), OPTIONS));
    log.runs[0].results[0].locations[0].physicalLocation.region = { startLine: 9, startColumn: 5, endLine: 4, endColumn: 1 };
    log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = 'not a uri';
    writeFileSync(bad, JSON.stringify(log));
    const errors = validate((found as { binary: string }).binary, bad).filter((d) => d.level === 'error');
    expect(errors.map((d) => d.ruleId).sort()).toEqual(['SARIF1002', 'SARIF1007']);
  });

  it('finds no errors in the output over fixtures/ plus stdin', { timeout: 120_000 }, (context) => {
    if ('skip' in found) context.skip(found.skip);
    const stdin = readFileSync(join(ROOT, 'fixtures/timeout-out-of-range/invalid/too-long.yaml'), 'utf8');
    expect(check('fixtures', ['fixtures', '-'], ROOT, stdin)).toEqual([]);
  });

  it('finds no errors with file names that need percent-encoding, and files outside the working folder', { timeout: 120_000 }, (context) => {
    if ('skip' in found) context.skip(found.skip);
    const workspace = join(dir, 'workspace');
    mkdirSync(join(workspace, 'my dir'), { recursive: true });
    writeFileSync(join(workspace, 'my dir', 'wébhook #1 100%.yaml'), readFileSync(join(ROOT, 'fixtures/timeout-out-of-range/invalid/too-long.yaml')));
    writeFileSync(join(workspace, 'broken.yaml'), 'kind: [unclosed\n');
    const errors = check('workspace', ['.', join(ROOT, 'fixtures/yaml-syntax/invalid')], workspace);
    expect(errors).toEqual([]);
    const log = JSON.parse(readFileSync(join(dir, 'workspace.sarif'), 'utf8'));
    const uris = new Set(log.runs[0].results.map((r: Json) => r.locations[0].physicalLocation.artifactLocation.uri));
    expect(uris).toContain('my%20dir/w%C3%A9bhook%20%231%20100%25.yaml');
    expect([...uris].some((uri) => String(uri).startsWith(pathToFileURL(join(ROOT, 'fixtures/yaml-syntax/invalid')).href))).toBe(true);
  });

  it.skipIf(!existsSync(CORPUS))('finds no errors in the output over the real-world corpus', { timeout: 120_000 }, (context) => {
    if ('skip' in found) context.skip(found.skip);
    expect(check('corpus', [CORPUS], ROOT)).toEqual([]);
  });
});
