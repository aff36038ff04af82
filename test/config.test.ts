/**
 * The config file (.admission-lint.yaml / .admission-lint.json): glob matching, validation
 * messages (one line, file:line:column, key path), presets and their precedence, the published
 * schema, and the CLI end to end (discovery, --config, ignore, overrides, exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { globMatcher } from '../src/config/glob.js';
import { discoverConfig, loadConfig, parseConfig, resolveConfig } from '../src/config/load.js';
import { PRESETS } from '../src/config/presets.js';
import { buildConfigSchema, configSchemaText } from '../src/config/schema.js';
import { ConfigError } from '../src/errors.js';
import { runCli } from './run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'admission-lint.js');
const SCHEMA_FILE = join(ROOT, 'src', 'config', 'schema.json');

function cli(args: string[], cwd: string, input = '') {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Findings: long-timeout (info: a written timeout), editable-object-selector (warning: configmaps), fail-open (info). */
const MANIFEST = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: widgets
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Ignore
    timeoutSeconds: 20
    namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
    objectSelector: {matchExpressions: [{key: team, operator: NotIn, values: [b]}]}
    clientConfig:
      url: https://widgets.example.com/validate
    rules:
      - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"]}
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-config-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function jsonRun(args: string[], cwd: string) {
  const result = cli(['--format', 'json', ...args], cwd);
  const report = result.stdout ? (JSON.parse(result.stdout) as { findings: { ruleId: string; severity: string; file: string }[]; summary: { files: number } }) : undefined;
  return { ...result, report, found: report?.findings.map((f) => `${f.ruleId}:${f.severity}`).sort() ?? [] };
}

function configError(text: string, file = '.admission-lint.yaml'): string {
  try {
    parseConfig(text, file, rules);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('ignore globs', () => {
  const cases: [string, string, boolean][] = [
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'deep/er/a.yaml', true],
    ['*.yaml', 'a.yml', false],
    ['vendor', 'vendor/x/a.yaml', true],
    ['vendor/', 'sub/vendor/a.yaml', true],
    ['vendor', 'vendored/a.yaml', false],
    ['deploy/*.yaml', 'deploy/a.yaml', true],
    ['deploy/*.yaml', 'deploy/sub/a.yaml', true], // deploy/sub is not matched, but deploy/sub/a.yaml is not either...
    ['deploy/*.yaml', 'other/deploy/a.yaml', false],
    ['./deploy/a.yaml', 'deploy/a.yaml', true],
    ['/deploy/a.yaml', 'deploy/a.yaml', true],
    ['charts/**/templates', 'charts/web/templates/a.yaml', true],
    ['charts/**/templates', 'charts/templates/a.yaml', true],
    ['charts/**/templates', 'charts/a/b/templates/x/y.yaml', true],
    ['charts/**', 'charts/a.yaml', true],
    ['**/*.gen.yaml', 'a.gen.yaml', true],
    ['**/*.gen.yaml', 'x/y/a.gen.yaml', true],
    ['a?.yaml', 'ab.yaml', true],
    ['a?.yaml', 'a/.yaml', false],
    ['a.yaml', 'aXyaml', false],
    ['x+(y).yaml', 'x+(y).yaml', true],
  ];
  for (const [pattern, path, expected] of cases.filter(([, path]) => path !== 'deploy/sub/a.yaml')) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => expect(globMatcher([pattern]).matches(path)).toBe(expected));
  }
  it('a * does not cross folders', () => expect(globMatcher(['deploy/*.yaml']).matches('deploy/sub/a.yaml')).toBe(false));
  it('no patterns match nothing', () => expect(globMatcher([]).matches('a.yaml')).toBe(false));
});

describe('config validation messages', () => {
  it('names the file, the position and the key path, in one line', () => {
    const message = configError('rules:\n  long-timeout:\n    options:\n      thresholdSeconds: 0\n');
    expect(message).toBe('.admission-lint.yaml:4:7: rules.long-timeout.options.thresholdSeconds: must be a number ≥ 1; it is 0');
    expect(message).not.toContain('\n');
  });

  it.each([
    ['rules:\n  long-timeout: {options: {thresholdSeconds: "ten"}}\n', 'rules.long-timeout.options.thresholdSeconds: must be a number ≥ 1; it is the string "ten"'],
    ['rules:\n  long-timout: off\n', '2:3: rules.long-timout: unknown rule "long-timout"; did you mean "long-timeout"?'],
    ['rules:\n  long-timeout: of\n', 'rules.long-timeout: must be off, info, warning or error (or warn, 0, 1, 2 as in ESLint), or a mapping with severity and options; it is the string "of" (did you mean "off"?)'],
    ['rules:\n  long-timeout: {severity: warm}\n', 'rules.long-timeout.severity: must be off, info, warning, error, warn, 0, 1 or 2; it is the string "warm" (did you mean "warn"?)'],
    ['rules:\n  long-timeout: 3\n', 'rules.long-timeout: must be off, info, warning or error (or warn, 0, 1, 2 as in ESLint), or a mapping with severity and options; it is the number 3'],
    ['rules:\n  long-timeout: {options: {threshold: 3}}\n', 'rules.long-timeout.options.threshold: rule long-timeout has no option "threshold" (its options: thresholdSeconds)'],
    ['rules:\n  fail-open: {options: {x: 3}}\n', 'rules.fail-open.options.x: rule fail-open has no option "x" (it has no options)'],
    ['rules:\n  fail-open: {sevrity: error}\n', 'rules.fail-open.sevrity: unknown key "sevrity"; did you mean "severity"?'],
    ['extends: strikt\n', '1:1: extends: must be a preset name (recommended, strict or security) or a list of them; it is the string "strikt" (did you mean "strict"?)'],
    ['extends: [strict, x]\n', '1:19: extends[1]: must be recommended, strict or security; it is the string "x"'],
    ['kubeVersion: 1.30\n', 'kubeVersion: must be a string such as "1.30"; quote it (YAML reads 1.30 as the number 1.3)'],
    ['kubeVersion: latest\n', 'kubeVersion: "latest" is not a Kubernetes version; write it as "1.35" (or "v1.35")'],
    ['failOn: warnings\n', 'failOn: must be error, warning, info, never or warn; it is the string "warnings" (did you mean "warning"?)'],
    ['ignre: []\n', 'ignre: unknown key "ignre"; did you mean "ignore"?'],
    ['ignore: ["!a"]\n', '1:10: ignore[0]: "!a": negated patterns (!) are not supported'],
    ['ignore: vendor\n', 'ignore: must be a list; it is the string "vendor"'],
    ['trustedNamespaceLabels: [""]\n', 'trustedNamespaceLabels[0]: must not be empty'],
    ['- rules\n', 'the config must be a mapping of extends, rules, ignore, kubeVersion, failOn or trustedNamespaceLabels; it is a list'],
    ['__proto__: {polluted: true}\n', '__proto__: unknown key "__proto__"'],
  ])('%j', (text, expected) => {
    expect(configError(text)).toContain(expected);
  });

  it('reports YAML syntax errors with line and column, in one line', () => {
    expect(configError('rules:\n  a: [\n')).toMatch(/^\.admission-lint\.yaml:\d+:\d+: \S.*$/);
    expect(configError('failOn: error\nfailOn: warning\n')).toBe('.admission-lint.yaml:2:1: duplicate key "failOn"');
    expect(configError('failOn: error\n---\nfailOn: warning\n')).toBe('.admission-lint.yaml:2:1: a second YAML document (---): a config file holds one mapping');
  });

  it('reads YAML 1.2, so off is a string, not a boolean', () => {
    expect(parseConfig('rules:\n  fail-open: off\n', 'c.yaml', rules)).toEqual({ rules: { 'fail-open': 'off' } });
  });

  it('reads JSON, and treats an empty file as an empty config', () => {
    expect(parseConfig('{"failOn": "warning", "rules": {"fail-open": {"severity": "error"}}}', 'c.json', rules)).toEqual({ failOn: 'warning', rules: { 'fail-open': { severity: 'error' } } });
    expect(configError('{"failOn": "warnings"}', '.admission-lint.json')).toContain('.admission-lint.json:1:2: failOn: must be');
    expect(parseConfig('# nothing yet\n', 'c.yaml', rules)).toEqual({});
  });

  it('never runs code: tags are rejected, not resolved', () => {
    expect(configError('failOn: !!js/function "function () {}"\n')).toMatch(/^\.admission-lint\.yaml:1:9: Unresolved tag/);
  });
});

describe('presets and precedence', () => {
  it('defaults to recommended: no changes', () => {
    const resolved = resolveConfig({}, null, '/');
    expect(resolved.severities.size).toBe(0);
    expect(resolved.options.size).toBe(0);
    expect(resolved.failOn).toBeUndefined();
  });

  it('applies presets in order, then the config file', () => {
    const resolved = resolveConfig({ extends: ['strict', 'security'], failOn: 'error', rules: { 'fail-open': 'off', 'long-timeout': { options: { thresholdSeconds: 12 } } } }, 'c.yaml', '/');
    expect(resolved.severities.get('editable-object-selector')).toBe('error');
    expect(resolved.severities.get('validation-actions')).toBe('warning');
    expect(resolved.severities.get('fail-open')).toBe('off');
    expect(resolved.options.get('long-timeout')).toEqual({ thresholdSeconds: 12 });
    expect(resolved.failOn).toBe('error');
    expect(resolveConfig({ extends: 'strict' }, 'c.yaml', '/').failOn).toBe('warning');
  });

  it('presets name only registered rules and declared options', () => {
    const ids = new Map(rules.map((rule) => [rule.meta.id, rule]));
    for (const [name, preset] of Object.entries(PRESETS)) {
      for (const [id, setting] of Object.entries(preset.rules)) {
        expect(ids.has(id), `${name}: ${id}`).toBe(true);
        if (typeof setting === 'object' && 'options' in setting) for (const option of Object.keys(setting.options)) expect(ids.get(id)!.meta.options?.[option], `${name}: ${id}.${option}`).toBeDefined();
      }
    }
  });
});

describe('severities as ESLint users write them', () => {
  it('warn, and 0, 1, 2 as numbers or text, mean warning, off, warning, error; in a mapping too', () => {
    const text = 'rules:\n  fail-open: warn\n  long-timeout: 0\n  ca-bundle: 1\n  editable-object-selector: 2\n  side-effects: "2"\n  wildcard-rule: {severity: warn}\n';
    const resolved = resolveConfig(parseConfig(text, 'c.yaml', rules), 'c.yaml', '/');
    expect(Object.fromEntries(resolved.severities)).toEqual({
      'fail-open': 'warning',
      'long-timeout': 'off',
      'ca-bundle': 'warning',
      'editable-object-selector': 'error',
      'side-effects': 'error',
      'wildcard-rule': 'warning',
    });
  });

  it('a JSON config with numbers, as ESLint configs have them', () => {
    const resolved = resolveConfig(parseConfig('{"rules": {"fail-open": 2, "long-timeout": {"severity": 0}}}', 'c.json', rules), 'c.json', '/');
    expect(Object.fromEntries(resolved.severities)).toEqual({ 'fail-open': 'error', 'long-timeout': 'off' });
  });

  it('failOn: warn means warning', () => {
    expect(resolveConfig(parseConfig('failOn: warn\n', 'c.yaml', rules), 'c.yaml', '/').failOn).toBe('warning');
  });

  it('the schema lists the spellings, so editors complete them', () => {
    const schema = buildConfigSchema(rules) as { definitions: { severity: { enum: unknown[] } }; properties: { failOn: { enum: unknown[] } } };
    expect(schema.definitions.severity.enum).toEqual(['off', 'info', 'warning', 'error', 'warn', 0, 1, 2, '0', '1', '2']);
    expect(schema.properties.failOn.enum).toContain('warn');
  });

  it('the CLI applies them from the config file', async () => {
    const dir = project({ '.admission-lint.yaml': 'rules:\n  long-timeout: 2\n  editable-object-selector: 0\n  fail-open: warn\n' });
    const { code, stdout } = await runCli(['-', '--config', join(dir, '.admission-lint.yaml'), '--format', 'json'], MANIFEST);
    expect(code).toBe(1);
    const found = (JSON.parse(stdout) as { findings: { ruleId: string; severity: string }[] }).findings.map((f) => `${f.ruleId}:${f.severity}`).sort();
    expect(found).toEqual(['fail-open:warning', 'long-timeout:error']);
  });
});

describe('discovery', () => {
  it('walks up from the working directory, and fails on two config files in one folder', () => {
    const dir = project({ '.admission-lint.yaml': 'failOn: warning\n', 'a/b/x.yaml': '' });
    expect(discoverConfig(join(dir, 'a', 'b'))).toBe(join(dir, '.admission-lint.yaml'));
    const config = loadConfig({ cwd: join(dir, 'a', 'b'), rules });
    expect(config.file).toBe('../../.admission-lint.yaml');
    expect(config.baseDir).toBe(dir);
    writeFileSync(join(dir, '.admission-lint.json'), '{}');
    expect(() => loadConfig({ cwd: dir, rules })).toThrow(/more than one config file .*\.admission-lint\.yaml, \.admission-lint\.json/);
  });

  it('a missing --config file is an error', () => {
    expect(() => loadConfig({ cwd: tmpdir(), explicit: 'nope.yaml', rules })).toThrow('nope.yaml: no such config file');
  });
});

describe('published schema', () => {
  it('src/config/schema.json is the schema built from the rule registry', () => {
    // After adding a rule or an option: UPDATE_CONFIG_SCHEMA=1 npx vitest run test/config.test.ts
    if (process.env.UPDATE_CONFIG_SCHEMA) writeFileSync(SCHEMA_FILE, configSchemaText(rules));
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(buildConfigSchema(rules));
  });

  it('config-schema prints it', () => {
    const { code, stdout, stderr } = cli(['config-schema'], ROOT);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(readFileSync(SCHEMA_FILE, 'utf8'));
  });
});

describe('the CLI with a config file', () => {
  it('without a config, the defaults apply', () => {
    const dir = project({ 'deploy/w.yaml': MANIFEST });
    const run = jsonRun(['deploy'], dir);
    expect(run.found).toEqual(['editable-object-selector:warning', 'fail-open:info', 'long-timeout:info']);
    expect(run.code).toBe(0);
  });

  it('is found from a subfolder, and its severities, options and failOn apply', () => {
    const dir = project({
      '.admission-lint.yaml': 'failOn: warning\nrules:\n  fail-open: off\n  long-timeout: {severity: error, options: {thresholdSeconds: 25}}\n  editable-object-selector: info\n',
      'deploy/w.yaml': MANIFEST,
    });
    const run = jsonRun(['.'], join(dir, 'deploy'));
    expect(run.found).toEqual(['editable-object-selector:info']);
    expect(run.code).toBe(0);
    // The config is not linted as a manifest.
    expect(jsonRun(['.'], dir).report?.summary.files).toBe(1);
  });

  it('the command line overrides the config: --rule, --rule-option, --fail-on', () => {
    const dir = project({ '.admission-lint.yaml': 'failOn: warning\nrules:\n  long-timeout: {options: {thresholdSeconds: 25}}\n  fail-open: error\n', 'w.yaml': MANIFEST });
    expect(jsonRun(['w.yaml'], dir).found).toEqual(['editable-object-selector:warning', 'fail-open:error']);
    const run = jsonRun(['--rule', 'fail-open=off', '--rule-option', 'long-timeout.thresholdSeconds=10', '--fail-on', 'error', 'w.yaml'], dir);
    expect(run.found).toEqual(['editable-object-selector:warning', 'long-timeout:info']);
    expect(run.code).toBe(0);
    expect(jsonRun(['w.yaml', '--rule', 'fail-open=off'], dir).code).toBe(1); // failOn: warning from the config
  });

  it('presets: strict fails on warnings, security makes bypasses errors', () => {
    const dir = project({ '.admission-lint.yaml': 'extends: strict\n', 'w.yaml': MANIFEST });
    const strict = jsonRun(['w.yaml'], dir);
    expect(strict.found).toEqual(['editable-object-selector:warning', 'fail-open:warning', 'long-timeout:info']);
    expect(strict.code).toBe(1);
    writeFileSync(join(dir, '.admission-lint.yaml'), 'extends: security\n');
    const security = jsonRun(['w.yaml'], dir);
    expect(security.found).toEqual(['editable-object-selector:error', 'fail-open:warning', 'long-timeout:info']);
    expect(security.code).toBe(1);
  });

  it('ignore patterns are relative to the config file, also for files named explicitly', () => {
    const dir = project({ '.admission-lint.yaml': 'ignore: [vendor, "deploy/*.generated.yaml"]\n', 'deploy/w.yaml': MANIFEST, 'deploy/x.generated.yaml': MANIFEST, 'vendor/v.yaml': MANIFEST });
    const run = jsonRun(['.'], dir);
    expect([...new Set(run.report?.findings.map((f) => f.file))]).toEqual(['deploy/w.yaml']);
    expect(jsonRun(['x.generated.yaml', 'w.yaml'], join(dir, 'deploy')).report?.summary.files).toBe(1);
    // stdin is never ignored
    expect(cli(['-'], dir, MANIFEST).stdout).toContain('<stdin>');
  });

  it('kubeVersion and trustedNamespaceLabels come from the config; the flags replace them', () => {
    // An opt-out on a check of built-in resources (configmaps): the warning that a trusted key silences.
    const selector = MANIFEST.replace('namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}', 'namespaceSelector: {matchExpressions: [{key: tier, operator: DoesNotExist}]}');
    const dir = project({ '.admission-lint.yaml': 'kubeVersion: "1.20"\ntrustedNamespaceLabels: [tier]\n', 'w.yaml': selector });
    expect(jsonRun(['w.yaml'], dir).found).not.toContain('editable-namespace-selector:warning');
    expect(jsonRun(['w.yaml', '--trusted-namespace-label', 'other'], dir).found).toContain('editable-namespace-selector:warning');
    writeFileSync(join(dir, '.admission-lint.yaml'), 'kubeVersion: "1.27"\n');
    const matchConditions = MANIFEST.replace('    rules:\n', '    matchConditions: [{name: a, expression: "true"}]\n    rules:\n');
    writeFileSync(join(dir, 'm.yaml'), matchConditions);
    expect(jsonRun(['m.yaml'], dir).found).toContain('schema:error');
    expect(jsonRun(['m.yaml', '--kube-version', '1.30'], dir).found).not.toContain('schema:error');
  });

  it('--config names the file; a JSON config works', () => {
    const dir = project({ 'ci/lint.json': '{"rules": {"fail-open": "error"}}', 'w.yaml': MANIFEST });
    expect(jsonRun(['w.yaml'], dir).found).toContain('fail-open:info');
    const run = jsonRun(['--config', 'ci/lint.json', 'w.yaml'], dir);
    expect(run.found).toContain('fail-open:error');
    expect(run.code).toBe(1);
  });

  it('a bad config is one line on stderr naming file and key, exit 2, nothing on stdout', () => {
    const dir = project({ '.admission-lint.yaml': 'rules:\n  long-timeout:\n    options:\n      thresholdSeconds: 0\n', 'w.yaml': MANIFEST });
    expect(cli(['w.yaml'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'admission-lint: .admission-lint.yaml:4:7: rules.long-timeout.options.thresholdSeconds: must be a number ≥ 1; it is 0\n',
    });
    writeFileSync(join(dir, '.admission-lint.yaml'), 'rules: [\n');
    const syntax = cli(['w.yaml'], dir);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/^admission-lint: \.admission-lint\.yaml:\d+:\d+: [^\n]+\n$/);
    expect(cli(['--config', 'missing.yaml', 'w.yaml'], dir)).toEqual({ code: 2, stdout: '', stderr: 'admission-lint: missing.yaml: no such config file\n' });
  });
});
