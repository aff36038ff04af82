/**
 * Issue 21, classes 3 (label values), 4 (source comments, duplicate keys) and 6 (output
 * locations): trusted context is only what the cluster will have; a `# Source:` comment never
 * moves another file's findings or suppressions, nor becomes an output location; a yaml-syntax
 * suppression never hides what kubectl still reads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const WEBHOOK = (selector: string, extra = ''): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    clientConfig: {url: https://widgets.example.com/validate}
${selector}${extra}    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;
const OPT_OUT = '    namespaceSelector: {matchExpressions: [{key: admission, operator: NotIn, values: ["skip"]}]}\n';
const KUBE_SYSTEM = (labels: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n  labels:\n${labels}`;

type Finding = { ruleId: string; file: string; line: number; message: string; rendered?: { file: string } };
async function findings(args: string[], input = ''): Promise<Finding[]> {
  const { stdout } = await runCli(['--format', 'json', '--no-config-lookup', ...args], input);
  return (JSON.parse(stdout) as { findings: Finding[] }).findings;
}

describe('namespace labels the API server rejects exclude nothing, and are reported', () => {
  it.each([
    ['a value that is too long', `    admission: skip\n    other: "${'x'.repeat(64)}"\n`],
    ['a value with a space', '    admission: skip\n    other: "a b"\n'],
    ['a value that starts with a dash', '    admission: skip\n    other: "-x"\n'],
    ['a key that is not a qualified name', '    admission: skip\n    "bad key": x\n'],
    ['a value that is not a string', '    admission: skip\n    other: 3\n'],
    ['the excluding value itself invalid', '    admission: "skip me"\n'],
  ])('%s', async (_what, labels) => {
    const selector = labels.includes('skip me') ? OPT_OUT.replace('"skip"', '"skip me"') : OPT_OUT;
    const found = await findings(['-'], `${KUBE_SYSTEM(labels)}---\n${WEBHOOK(selector)}`);
    expect(found.map((finding) => finding.ruleId)).toContain('matches-kube-system');
    expect(found.filter((finding) => finding.ruleId === 'api-validation').map((finding) => finding.line)).not.toEqual([]);
  });

  it('valid labels still exclude kube-system', async () => {
    const found = await findings(['-'], `${KUBE_SYSTEM('    admission: skip\n')}---\n${WEBHOOK(OPT_OUT)}`);
    expect(found.map((finding) => finding.ruleId)).not.toContain('matches-kube-system');
  });
});

let dir: string;
let cwd: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'admission-lint-attack-context-'));
  cwd = process.cwd();
  process.chdir(dir);
});
afterEach(() => process.chdir(cwd));

describe('a # Source: comment in one file does not move another file\'s findings or suppressions', () => {
  it('its file-wide suppression does not reach the file it names', async () => {
    writeFileSync(join(dir, 'real.yaml'), WEBHOOK(''));
    writeFileSync(join(dir, 'decoy.yaml'), `---\n# Source: real.yaml\n# admission-lint-disable-file matches-kube-system -- hidden\n${WEBHOOK('')}`);
    const found = await findings(['real.yaml', 'decoy.yaml']);
    const real = found.filter((finding) => finding.ruleId === 'matches-kube-system' && finding.rendered === undefined);
    expect(real.map((finding) => finding.file)).toEqual(['real.yaml']);
  });

  it('the named file\'s suppressions do not reach its findings', async () => {
    writeFileSync(join(dir, 'real.yaml'), `# admission-lint-disable-file matches-kube-system -- reviewed\n${WEBHOOK('')}`);
    writeFileSync(join(dir, 'decoy.yaml'), `---\n# Source: real.yaml\n${WEBHOOK('')}`);
    const found = await findings(['real.yaml', 'decoy.yaml']);
    expect(found.filter((finding) => finding.ruleId === 'matches-kube-system').map((finding) => finding.rendered?.file)).toEqual(['decoy.yaml']);
  });

  it('findings at the same place in both files are both kept', async () => {
    writeFileSync(join(dir, 'real.yaml'), `---\n${WEBHOOK('')}`);
    writeFileSync(join(dir, 'decoy.yaml'), `---\n# Source: real.yaml\n${WEBHOOK('')}`.replace('# Source: real.yaml\n', '# Source: real.yaml\n'));
    const found = await findings(['real.yaml', 'decoy.yaml']);
    expect(found.filter((finding) => finding.ruleId === 'matches-kube-system')).toHaveLength(2);
  });

  it('a baseline entry of the named file does not hide its findings', async () => {
    writeFileSync(join(dir, 'real.yaml'), WEBHOOK(''));
    expect((await runCli(['--no-config-lookup', '--write-baseline', 'baseline.json', 'real.yaml'], '')).code).toBe(0);
    writeFileSync(join(dir, 'decoy.yaml'), `---\n# Source: real.yaml\n${WEBHOOK('')}`);
    const found = await findings(['--baseline', 'baseline.json', 'real.yaml', 'decoy.yaml']);
    expect(found.map((finding) => finding.rendered?.file)).toContain('decoy.yaml');
  });
});

describe('a # Source: path never becomes an output location', () => {
  const sources = ['/etc/passwd', '../../outside.yaml', 'untouched/other.yaml'];
  it.each(sources)('SARIF, github and gitlab locate %s findings in the file read', async (source) => {
    writeFileSync(join(dir, 'rendered.yaml'), `---\n# Source: ${source}\n${WEBHOOK('')}`);
    const sarif = JSON.parse((await runCli(['--format', 'sarif', '--no-config-lookup', 'rendered.yaml'], '')).stdout);
    for (const result of sarif.runs[0].results) {
      expect(result.locations.map((location: { physicalLocation: { artifactLocation: { uri: string } } }) => location.physicalLocation.artifactLocation.uri)).toEqual(['rendered.yaml']);
      expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThan(2);
      for (const related of result.relatedLocations ?? []) expect(related.physicalLocation).toBeUndefined();
      expect(JSON.stringify(result.relatedLocations)).toContain(source);
    }
    const github = (await runCli(['--format', 'github', '--no-config-lookup', 'rendered.yaml'], '')).stdout;
    for (const line of github.trim().split('\n')) expect(line).toMatch(/^::(error|warning|notice) file=rendered\.yaml,line=\d+/);
    const gitlab = JSON.parse((await runCli(['--format', 'gitlab', '--no-config-lookup', 'rendered.yaml'], '')).stdout) as { location: { path: string; lines: { begin: number } } }[];
    for (const issue of gitlab) expect(issue.location).toMatchObject({ path: 'rendered.yaml' });
    expect(gitlab.every((issue) => issue.location.lines.begin > 2)).toBe(true);
  });
});

describe('a yaml-syntax suppression does not hide what kubectl reads from the file', () => {
  it('a duplicate key: kubectl keeps the last value, and so is the object linted', async () => {
    const text = `# admission-lint-disable-file yaml-syntax -- generated\n${WEBHOOK('').replace('    failurePolicy: Fail\n', '    failurePolicy: Ignore\n    failurePolicy: Fail\n')}`;
    writeFileSync(join(dir, 'dup.yaml'), text);
    const found = await findings(['dup.yaml']);
    expect(found.map((finding) => finding.ruleId)).toContain('matches-kube-system');
    expect(found.find((finding) => finding.ruleId === 'matches-kube-system')?.message).toContain('failurePolicy Fail');
  });

  it('a finding about a duplicated field is placed at the value kubectl keeps (the last)', async () => {
    writeFileSync(join(dir, 'dup.yaml'), WEBHOOK('').replace('    timeoutSeconds: 5\n', '    timeoutSeconds: 5\n    timeoutSeconds: 25\n'));
    const found = await findings(['dup.yaml']);
    expect(found.filter((finding) => finding.ruleId === 'long-timeout').map((finding) => finding.line)).toEqual([10]);
  });
});
