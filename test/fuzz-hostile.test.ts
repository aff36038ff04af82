/**
 * Issue 12's payloads, mutated and combined (seeded): workflow commands, control characters,
 * HTML and mentions in names, labels, `# Source:` comments and CEL; catastrophic regexes and
 * nested comprehensions in matchConditions; kind spelled through aliases, merge keys and
 * `!!binary`; YAML 1.1 line breaks. Through lint (every format), simulate and report, no run
 * may crash, take long, or print a workflow command or a raw control character.
 * `FUZZ_HOSTILE_RUNS` lengthens it (the quick count runs in `npm test`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { markdownProblems, problems } from './output-problems.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
const RUNS = Number(process.env.FUZZ_HOSTILE_RUNS ?? 12);

/** Strings a pull request could put where the linter echoes them. */
const TEXT_PAYLOADS = [
  '\\n::stop-commands::x',
  '::add-mask::y',
  '##[set-output name=a;]b',
  '\\e[2J',
  '\\0',
  '\\x9b',
  '<img src=x onerror=alert(1)>',
  '</details>',
  '@org/team',
  'https://evil.example',
  '\\u2028::warning::x',
  '\\r::error::y',
];

/** matchConditions that used to hang or crash evaluation. */
const CEL_PAYLOADS = [
  `'${'a'.repeat(700)}!'.matches('^(a+)+$')`,
  '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, true)))))',
  `${'!('.repeat(400)}true${')'.repeat(400)}`,
  `${'!'.repeat(4000)}true`,
  "request.userInfo.username == 'system:admin'",
];

/** Ways to write the kind that kubectl reads. */
const KIND_LINES = [
  'kind: ValidatingWebhookConfiguration',
  'x-k: &k ValidatingWebhookConfiguration\nkind: *k',
  '<<: {kind: ValidatingWebhookConfiguration}',
  `kind: !!binary ${Buffer.from('ValidatingWebhookConfiguration').toString('base64')}`,
];

const BREAKS = ['\n', '\r\n'];

interface Case {
  readonly name: string;
  readonly label: string;
  readonly source: string;
  readonly condition: string;
  readonly kind: string;
  readonly lineBreak: string;
  readonly commentBreak: string;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  name: fc.array(fc.constantFrom(...TEXT_PAYLOADS), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-')),
  label: fc.constantFrom(...TEXT_PAYLOADS),
  source: fc.constantFrom(...TEXT_PAYLOADS, 'chart/templates/webhook.yaml'),
  condition: fc.constantFrom(...CEL_PAYLOADS),
  kind: fc.constantFrom(...KIND_LINES),
  lineBreak: fc.constantFrom(...BREAKS),
  commentBreak: fc.constantFrom('\n', '\r', '\u0085'),
});

function manifest(c: Case): string {
  const yamlString = (text: string): string => `"${text.replace(/"/g, '\\"')}"`;
  const lines = [
    `# Source: ${c.source.replace(/\\./g, '')}`,
    'apiVersion: admissionregistration.k8s.io/v1',
    ...c.kind.split('\n'),
    `metadata: {name: ${yamlString(c.name)}, labels: {team: ${yamlString(c.label)}}}`,
    'webhooks:',
    `  - name: ${yamlString(c.name)}`,
    '    sideEffects: None',
    '    admissionReviewVersions: ["v1"]',
    '    failurePolicy: Fail',
    `    clientConfig: {url: ${yamlString(`https://h.example.com/${c.label}`)}}`,
    `    objectSelector: {matchLabels: {app: ${yamlString(c.label)}}}`,
    '    rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]',
    `    matchConditions: [{name: ${yamlString(c.label)}, expression: ${yamlString(c.condition.replace(/\\/g, '\\\\'))}}]`,
  ];
  return `# comment${c.commentBreak}${lines.join(c.lineBreak)}${c.lineBreak}`;
}


const COMMANDS: readonly (readonly string[])[] = [
  ...['stylish', 'json', 'sarif', 'junit'].map((format) => ['-', '--format', format, '--fail-on', 'never']),
  ['simulate', '-', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'team-a', '--format', 'text'],
  ['simulate', '-', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'team-a', '--format', 'json'],
  ['report', '-', '--format', 'text'],
  ['report', '-', '--format', 'json'],
];
const MARKDOWN_COMMANDS: readonly (readonly string[])[] = [
  ['-', '--format', 'markdown', '--fail-on', 'never'],
  ['simulate', '-', '--operation', 'CREATE', '--resource', 'pods', '--namespace', 'team-a', '--format', 'markdown'],
  ['report', '-', '--format', 'markdown'],
];

describe('hostile payloads, mutated (seeded)', () => {
  it('lint, simulate and report: no crash, no hang, no command or control character in any output', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        const input = manifest(c);
        for (const [args, check] of [...COMMANDS.map((a) => [a, problems] as const), ...MARKDOWN_COMMANDS.map((a) => [a, markdownProblems] as const)]) {
          const started = Date.now();
          const { code, stdout, stderr } = await runCli(args, input);
          // A hang shows as minutes; a bounded run of this size takes well under this.
          if (Date.now() - started > 20_000) throw new Error(`${args.join(' ')} took ${Date.now() - started} ms`);
          if (code !== 0 && code !== 1) throw new Error(`${args.join(' ')}: exit ${code}: ${stderr}`);
          const found = [...check(stdout), ...problems(stderr)];
          if (found.length > 0) throw new Error(`${args.join(' ')}: ${found.join('; ')}`);
        }
        // The payload's webhook configuration is read, whatever the spelling of its kind.
        const json = JSON.parse((await runCli(['-', '--format', 'json', '--fail-on', 'never'], input)).stdout) as { summary: { objects: number } };
        if (json.summary.objects !== 1) throw new Error(`kind ${JSON.stringify(c.kind)} was not read`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(RUNS).toBeGreaterThan(0);
  }, 600_000);
});
