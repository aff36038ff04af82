/**
 * The README is a product surface, and the docs/ pages it links are part of it:
 *
 * - its rule table lists exactly the registered rules, each with its default severity;
 * - every command and every option the CLI's --help lists is documented (README or docs/);
 * - its sample output is what `node bin/admission-lint.js fixtures/examples` prints;
 * - every command in a ```sh or ```bash block of the README runs: those that start with the
 *   program (`admission-lint`, `node bin/admission-lint.js`, `npx admission-lint`, also after
 *   `cat … |`) run against the built bin, in order, in a temporary project whose `deploy/`
 *   and `fixtures/examples/` hold the example manifests, and exit with the code the README
 *   gives in the command's comment (`exit N`), else 0 or 1, never 2; the others are listed in
 *   NOT_RUN with the reason, so a new command in the README is run or skipped on purpose;
 * - every relative link in the README and docs/*.md points at a file or folder that exists inside
 *   the repository, and at a heading that exists when it names one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'admission-lint.js');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);
/** README.md and docs/*.md, by path relative to the repository. */
const PAGES = new Map<string, string>([['README.md', README], ...DOCS.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')] as const)]);
const ALL_TEXT = [...PAGES.values()].join('\n');

/**
 * Commands of the README's sh blocks that the test does not run, and why. Matched exactly (after
 * joining `\` continuations and dropping the trailing comment); an entry the README no longer has
 * fails the test, so the list stays true.
 */
const NOT_RUN: Readonly<Record<string, string>> = {
  'npm ci': 'installs the dependencies from the npm registry (network); the test runs on the installed tree',
  'git add .admission-lint-baseline.json': 'needs a git repository; the temporary project is not one',
  'helm template my-release ./mychart | admission-lint -': 'needs helm and a chart; rendered input is tested in test/helm-source.test.ts',
  'kustomize build overlays/prod | admission-lint -': 'needs kustomize and an overlay; standard input is run in `cat deploy/*.yaml | admission-lint -`',
  'npm test': 'the test suite itself (CI runs it: .ci/run)',
  'npm run test:slow': 'the slow test suite (CI runs it: .ci/run)',
  'kubectl port-forward -n hooks svc/probe-hook 8443:443 &': 'needs a cluster; test/probe.test.ts runs the probe examples that follow it against its own webhook server',
};

/** How the README names the program, at the start of a command. */
const PROGRAM = /^(?:npx admission-lint|node bin\/admission-lint\.js|admission-lint)(?=\s|$)/;

interface Block {
  readonly info: string;
  readonly lines: readonly string[];
  /** 1-based line of the opening fence. */
  readonly line: number;
}

/** The fenced code blocks of a Markdown text, and the text with them blanked out. */
function parseBlocks(markdown: string): { blocks: Block[]; prose: string[] } {
  const blocks: Block[] = [];
  const prose: string[] = [];
  let fence: { marker: string; info: string; line: number; body: string[] } | undefined;
  markdown.split('\n').forEach((line, index) => {
    if (fence) {
      if (line.trimEnd() === fence.marker) {
        blocks.push({ info: fence.info, lines: fence.body, line: fence.line });
        fence = undefined;
      } else {
        fence.body.push(line);
      }
      prose.push('');
      return;
    }
    const open = /^(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (open) {
      fence = { marker: open[1]!, info: open[2]!.trim(), line: index + 1, body: [] };
      prose.push('');
      return;
    }
    prose.push(line);
  });
  if (fence) throw new Error(`code block opened on line ${fence.line} is not closed`);
  return { blocks, prose };
}

interface ShellCommand {
  /** The command as written, continuations joined, without its comment. */
  readonly text: string;
  /** Its trailing comment, without the `#`. */
  readonly comment: string;
  readonly line: number;
}

/** The trailing ` # comment` of a shell line (outside quotes), split off. */
function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
    }
  }
  return { code: line.trimEnd(), comment: '' };
}

/** The commands of the README's sh and bash blocks, in order. */
function shellCommands(markdown: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const block of parseBlocks(markdown).blocks.filter((b) => ['sh', 'bash', 'shell'].includes(b.info))) {
    let pending: { code: string; comment: string; line: number } | undefined;
    block.lines.forEach((raw, index) => {
      const { code, comment } = splitComment(raw);
      const line = block.line + 1 + index;
      const continued = code.endsWith('\\');
      const part = continued ? code.slice(0, -1).trimEnd() : code;
      if (pending) {
        pending = { code: `${pending.code} ${part.trim()}`, comment: [pending.comment, comment].filter(Boolean).join(' '), line: pending.line };
      } else if (part.trim() !== '') {
        pending = { code: part.trim(), comment, line };
      }
      if (!continued && pending) {
        commands.push({ text: pending.code, comment: pending.comment, line: pending.line });
        pending = undefined;
      }
    });
    if (pending) commands.push({ text: pending.code, comment: pending.comment, line: pending.line });
  }
  return commands;
}

/**
 * The command with the built bin for the program, or undefined when it is not one the test runs:
 * the program, or `cat …` piped into it (standard input).
 */
function runnable(command: string): string | undefined {
  const stages = command.split(/\s\|\s/).map((stage) => stage.trim());
  if (!stages.some((stage) => PROGRAM.test(stage))) return undefined;
  if (!stages.every((stage) => PROGRAM.test(stage) || /^cat\s/.test(stage))) return undefined;
  const node = JSON.stringify(process.execPath);
  const bin = JSON.stringify(BIN);
  return stages.map((stage) => stage.replace(PROGRAM, `${node} ${bin}`)).join(' | ');
}

/** The exit code a command's comment gives (`exit 1 …`, `(exit 0)`), if any. */
function documentedExit(comment: string): number | undefined {
  const match = /\bexit (\d)\b/.exec(comment);
  return match ? Number(match[1]) : undefined;
}

/** A project with the example manifests in deploy/ and fixtures/examples/, where commands run. */
function exampleProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'admission-lint-readme-'));
  cpSync(join(ROOT, 'fixtures', 'examples'), join(project, 'deploy'), { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'examples'), join(project, 'fixtures', 'examples'), { recursive: true });
  return project;
}

function sh(command: string, cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync('sh', ['-c', command], {
    cwd,
    encoding: 'utf8',
    // PATH only (and no colours), so the user's settings never leak in.
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    input: '',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of parseBlocks(markdown).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The link targets of a Markdown text outside code (fenced blocks and code spans), with their line. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  parseBlocks(markdown).prose.forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '``');
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 });
    for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)) links.push({ target: match[1]!, line: index + 1 });
  });
  return links;
}

describe('README', () => {
  it('has one rule-table row per registered rule, with its default severity', () => {
    const section = README.slice(README.indexOf('## Rules'), README.indexOf('\n## ', README.indexOf('## Rules') + 1));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|/gm)].map((m) => ({ id: m[1]!, severity: m[2]!.trim() }));
    expect(rows.map((row) => row.id).sort()).toEqual(rules.map((rule) => rule.meta.id).sort());
    for (const row of rows) {
      const rule = rules.find((r) => r.meta.id === row.id)!;
      expect(row.severity.startsWith(rule.meta.severity), `${row.id}: README says ${row.severity}`).toBe(true);
    }
  });

  it('documents every lint option the CLI has (README or docs/)', () => {
    for (const flag of ['--format', '--output', '--fail-on', '--no-color', '--quiet', '--kube-version', '--rule ', '--rule-option', '--trusted-namespace-label', '--config', '--baseline', '--write-baseline']) {
      expect(ALL_TEXT).toContain(flag.trim());
    }
  });

  const COMMANDS = ['lint', 'defaults', 'rules', 'explain', 'config-schema', 'simulate', 'report', 'probe'];

  it('lists every command, and the docs document every option that --help lists', () => {
    const main = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(main.status, main.stderr).toBe(0);
    const listed = [...main.stdout.slice(main.stdout.indexOf('\nCommands:\n')).matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]!).filter((name) => name !== 'help');
    expect(listed.sort()).toEqual([...COMMANDS].sort());
    const usage = README.slice(README.indexOf('## Usage'), README.indexOf('\n## ', README.indexOf('## Usage') + 1));
    for (const command of COMMANDS) expect(usage, `README's Usage lists "admission-lint ${command}"`).toMatch(new RegExp(`admission-lint \\[?${command}\\b`));

    const undocumented: string[] = [];
    for (const command of ['', ...COMMANDS]) {
      const help = spawnSync(process.execPath, [BIN, ...(command ? [command] : []), '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(help.status, help.stderr).toBe(0);
      const end = help.stdout.search(/\n(?:Commands|Examples):\n/);
      const options = help.stdout.slice(help.stdout.indexOf('\nOptions:\n'), end < 0 ? undefined : end);
      const flags = [...options.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((flag) => flag !== '--help');
      if (command === 'lint') expect(flags).toContain('--format');
      for (const flag of flags) {
        const escaped = flag.replace(/[-]/g, '\\-');
        if (!new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(ALL_TEXT)) undocumented.push(`${command || 'admission-lint'} ${flag}`);
      }
    }
    expect(undocumented, 'options in --help that neither README.md nor docs/*.md mention').toEqual([]);
  });

  it('shows real output of the examples in its sample', () => {
    const sample = parseBlocks(README).blocks.find((block) => block.lines[0]?.startsWith('$ node bin/admission-lint.js fixtures/examples'));
    expect(sample, 'a code block starting with "$ node bin/admission-lint.js fixtures/examples"').toBeDefined();
    const command = runnable(sample!.lines[0]!.slice(2))!;
    const project = exampleProject();
    try {
      const { stdout } = sh(command, project);
      // The sample shows the output wrapped as on a terminal; the test's output is not wrapped:
      // compare with runs of white space made one space. `…` lines mark what the sample leaves out.
      const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
      const output = flat(stdout);
      const parts: string[][] = [[]];
      for (const line of sample!.lines.slice(1)) {
        if (line.trim() === '…') parts.push([]);
        else parts.at(-1)!.push(line);
      }
      let from = 0;
      for (const part of parts.map((lines) => flat(lines.join('\n'))).filter(Boolean)) {
        const at = output.indexOf(part, from);
        expect(at, `README sample (block at line ${sample!.line}) not in the output, in order:\n${part}\n\nOutput:\n${stdout}`).toBeGreaterThanOrEqual(0);
        from = at + part.length;
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('shows real --show-fixes output in its Fixes section', () => {
    const sample = parseBlocks(README).blocks.find((block) => block.lines[0]?.startsWith('$ admission-lint --show-fixes '));
    expect(sample, 'a code block starting with "$ admission-lint --show-fixes"').toBeDefined();
    const project = exampleProject();
    try {
      const { stdout } = sh(runnable(sample!.lines[0]!.slice(2))!, project);
      const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
      const shown = flat(sample!.lines.slice(1).filter((line) => line.trim() !== '…').join('\n'));
      expect(flat(stdout), `README sample (block at line ${sample!.line}) not in the output:\n${stdout}`).toContain(shown);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  describe('every command in its sh blocks', () => {
    const commands = shellCommands(README);
    const project = exampleProject();
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it('is run below or listed as not run, with the reason', () => {
      const unclassified = commands.filter((c) => runnable(c.text) === undefined && !(c.text in NOT_RUN)).map((c) => `README.md:${c.line}: ${c.text}`);
      expect(unclassified, 'run these, or list them in NOT_RUN with the reason').toEqual([]);
      const stale = Object.keys(NOT_RUN).filter((text) => !commands.some((c) => c.text === text));
      expect(stale, 'NOT_RUN entries the README no longer has').toEqual([]);
      expect(commands.filter((c) => runnable(c.text) !== undefined).length).toBeGreaterThanOrEqual(5);
    });

    // In the README's order: the baseline is written before it is read.
    it.each(commands.filter((c) => runnable(c.text) !== undefined).map((c) => [c.line, c.text, c] as const))(
      'line %i: %s',
      (_line, _text, c) => {
        const { code, stdout, stderr } = sh(runnable(c.text)!, project);
        const expected = documentedExit(c.comment);
        const said = `${c.text}\nexit ${code}\nstdout:\n${stdout.slice(0, 4000)}\nstderr:\n${stderr}`;
        if (expected !== undefined) expect(code, said).toBe(expected);
        else expect([0, 1], said).toContain(code);
        expect(stderr, said).not.toMatch(/internal error/);
      },
    );
  });
});

describe('links in README.md and docs/*.md', () => {
  it.each([...PAGES.keys()])('%s: every relative link points at a file in the repository, and at a heading there', (page) => {
    const broken: string[] = [];
    const markdown = PAGES.get(page)!;
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
      const inside = relative(ROOT, file);
      if (inside.startsWith('..') || isAbsolute(inside)) {
        broken.push(`${page}:${line}: ${target} is outside the repository`);
        continue;
      }
      if (!existsSync(file)) {
        broken.push(`${page}:${line}: ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${page}:${line}: ${target}: no heading with that anchor in ${inside}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page points outside the repository by path', () => {
    for (const [page, text] of PAGES) expect(text, page).not.toContain('../shared');
  });
});
