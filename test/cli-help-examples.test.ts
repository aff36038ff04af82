/**
 * Every command's --help ends with an "Examples:" section (issue 15), and every example works:
 * each runs here, in a project whose manifests are in `deploy/`. For a pipe (`helm template … |
 * admission-lint -`) the admission-lint part runs with manifests on stdin; a `> file` redirect
 * is left to the shell.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, type ExampleCommand } from '../src/cli/help-examples.js';
import { runCli } from './run-cli.js';

const ROOT = join(import.meta.dirname, '..');
const MANIFESTS = join(ROOT, 'fixtures', 'examples');
const STDIN = readFileSync(join(MANIFESTS, 'policy-webhook.yaml'), 'utf8');

/** The --help of each command, as a user asks for it. */
const HELP: Readonly<Record<ExampleCommand, string[]>> = {
  'admission-lint': ['--help'],
  lint: ['lint', '--help'],
  defaults: ['defaults', '--help'],
  rules: ['rules', '--help'],
  explain: ['explain', '--help'],
  'config-schema': ['config-schema', '--help'],
  simulate: ['simulate', '--help'],
  report: ['report', '--help'],
  probe: ['probe', '--help'],
};

/** The commands of an "Examples:" section: its `  $ ` lines. */
function examplesIn(help: string): string[] {
  const section = help.slice(help.indexOf('\nExamples:\n'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('  $ '))
    .map((line) => line.slice(4));
}

/** Shell words: split at spaces, quotes kept together (the examples need no more than that). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

/** The admission-lint invocation of an example: after a pipe, before a redirect; its stdin is piped. */
function invocation(example: string): { args: string[]; piped: boolean } {
  const piped = example.includes(' | admission-lint ');
  const own = piped ? example.slice(example.lastIndexOf('| admission-lint ') + 2) : example;
  const [program, ...args] = words(own.split(' > ')[0]!);
  expect(program).toBe('admission-lint');
  return { args, piped };
}

describe('--help ends with examples', () => {
  for (const [command, args] of Object.entries(HELP) as [ExampleCommand, string[]][]) {
    it(`${args.join(' ')} shows the examples of ${command}`, async () => {
      const { code, stdout } = await runCli(args, '');
      expect(code).toBe(0);
      expect(stdout).toMatch(/\nExamples:\n {2}# /);
      expect(examplesIn(stdout)).toEqual(EXAMPLES[command].map((example) => example.run));
      expect(examplesIn(stdout).length).toBeGreaterThan(0);
    });
  }
});

describe('every example works', () => {
  const cwd = process.cwd();
  let project = '';
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'admission-lint-examples-'));
    cpSync(MANIFESTS, join(project, 'deploy'), { recursive: true });
    process.chdir(project);
  });
  afterAll(() => process.chdir(cwd));

  for (const [command, examples] of Object.entries(EXAMPLES) as [ExampleCommand, readonly { run: string }[]][]) {
    for (const { run } of examples) {
      it(`${command}: ${run}`, async () => {
        const { args, piped } = invocation(run);
        const { code, stdout, stderr } = await runCli(args, piped ? STDIN : '');
        // 0 or 1 (findings): never 2, the tool failing to do its job.
        expect({ code, stderr: code === 2 ? stderr : '' }).toEqual({ code: expect.any(Number), stderr: '' });
        expect([0, 1]).toContain(code);
        const output = args.includes('--output') ? args[args.indexOf('--output') + 1]! : undefined;
        if (output !== undefined) expect(readFileSync(output, 'utf8').length).toBeGreaterThan(0);
        else if (!args.includes('--write-baseline')) expect(stdout.length).toBeGreaterThan(0);
        if (args.includes('--write-baseline')) expect(existsSync(args[args.indexOf('--write-baseline') + 1]!)).toBe(true);
      });
    }
  }
});
