/**
 * `lint --fix` and `lint --fix-dry-run` (docs/fixes.md): the flags, and what they print. The
 * work is src/fix/'s. --fix writes the files and the report that follows is of a new run over
 * them; with standard input the fixed document goes to stdout (the report only to -o).
 * --fix-dry-run prints a unified diff of the fixes (`git apply` reads it), then each suggestion
 * as comment lines, and writes nothing.
 */
import type { Command } from 'commander';
import type { Finding } from '../engine/finding.js';
import { guardText, safeText } from '../format/escape.js';
import { fixFiles, type FileOutcome } from '../fix/fix-files.js';
import { unifiedDiff } from '../fix/diff.js';
import type { Io } from './io.js';

export interface FixFlags {
  fix?: boolean;
  fixDryRun?: boolean;
}

export function addFixOptions(command: Command): Command {
  return command
    .option('--fix', 'write the fixes that keep what the objects do (made explicit defaults, v1beta1 to v1, unserved resources removed), then report what is left')
    .option('--fix-dry-run', 'print the fixes as a unified diff, and the suggestions (edits that change behaviour) as comments; write nothing');
}

/** Standard input read once and kept: --fix lints it, fixes it and lints the fixed text. */
export function keptStdin(read: (() => Uint8Array) | undefined, fallback: () => Uint8Array): { read: () => Uint8Array; bytes: () => Uint8Array | undefined } {
  let bytes: Uint8Array | undefined;
  return {
    read: () => (bytes ??= (read ?? fallback)()),
    bytes: () => bytes,
  };
}

export interface FixModeResult {
  /** Files were written: the report must come from linting them again. */
  readonly relint: boolean;
  /** The fixed standard input, to lint again. */
  readonly stdin?: Uint8Array;
  /** stdout carried the diff or the fixed document: the report goes only to -o. */
  readonly usedStdout: boolean;
}

function suggestionBlock(outcome: FileOutcome, text: (fix: FileOutcome['suggestions'][number]) => string): string {
  return outcome.suggestions.map(text).join('');
}

export function runFixMode(flags: FixFlags, run: { findings: readonly Finding[]; paths: readonly string[]; cwd: string; stdin: Uint8Array | undefined }, io: Pick<Io, 'stdout' | 'stderr'>): FixModeResult {
  const dryRun = flags.fixDryRun === true;
  const outcomes = fixFiles({ findings: run.findings, paths: run.paths, cwd: run.cwd, dryRun, ...(run.stdin ? { stdin: run.stdin } : {}) });
  const fixedFiles = outcomes.filter((outcome) => outcome.applied.length > 0);
  const resolved = fixedFiles.reduce((sum, outcome) => sum + outcome.applied.length, 0);
  for (const outcome of outcomes) {
    if (outcome.skipped) io.stderr.write(guardText(`admission-lint: --fix left ${safeText(outcome.file)} as it was: ${outcome.skipped}\n`));
  }
  const suggestions = outcomes.reduce((sum, outcome) => sum + outcome.suggestions.length, 0);
  const stdinOutcome = outcomes.find((outcome) => outcome.text !== undefined);
  if (dryRun) {
    io.stdout.write(outcomes.map((outcome) => outcome.diff).join(''));
    for (const outcome of outcomes) {
      io.stdout.write(
        suggestionBlock(outcome, (fix) => {
          const diff = unifiedDiff(outcome.file, outcome.source ?? '', fix.edits);
          return `# suggestion (${fix.ruleId}, ${outcome.file}:${fix.line}): ${fix.description}\n${diff.split('\n').filter((line) => line !== '').map((line) => `#   ${line}\n`).join('')}`;
        }),
      );
    }
    io.stderr.write(`admission-lint: --fix-dry-run: ${plural(resolved, 'fix', 'fixes')} in ${plural(fixedFiles.length, 'file', 'files')}, ${plural(suggestions, 'suggestion', 'suggestions')}; nothing written\n`);
    return { relint: false, usedStdout: true };
  }
  io.stderr.write(`admission-lint: --fix: ${plural(resolved, 'fix', 'fixes')} in ${plural(fixedFiles.length, 'file', 'files')}${suggestions > 0 ? `; ${plural(suggestions, 'suggestion', 'suggestions')} not applied (--fix-dry-run shows them)` : ''}\n`);
  if (stdinOutcome?.text !== undefined) {
    io.stdout.write(stdinOutcome.text);
    return { relint: true, stdin: new TextEncoder().encode(stdinOutcome.text), usedStdout: true };
  }
  return { relint: fixedFiles.length > 0, usedStdout: false };
}


function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
