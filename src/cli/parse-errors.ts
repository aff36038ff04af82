/**
 * The argument parser's (commander's) errors in the tool's own shape (issue 22): one
 * `admission-lint: …` line and a `  hint: …` line on stderr, as every other usage error, instead
 * of commander's `error: …` and `(Did you mean …?)`. Help and --version still go to stdout.
 */
import type { OutputConfiguration } from 'commander';
import { guardText, safeText } from '../format/escape.js';

interface Streams {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Commander's error text as the tool's two lines; `command` names the subcommand for the hint (empty for the root). */
export function rewriteParseError(text: string, command: string): string {
  const lines = text.trim().split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const message = (lines[0] ?? 'bad arguments').replace(/^error: /, '');
  const suggestion = lines.map((line) => /^\(Did you mean (.+)\?\)$/.exec(line)?.[1]).find((found) => found !== undefined);
  const help = `admission-lint ${command ? `${command} ` : ''}--help lists the options`;
  // The message quotes the command line: one line each, no workflow command.
  return guardText(`admission-lint: ${safeText(message)}\n  hint: ${suggestion !== undefined ? `did you mean ${safeText(suggestion)}? (${help})` : help}\n`);
}

/** The output configuration of a command (root or subcommand): help to stdout, errors rewritten to stderr. */
export function parserOutput(io: Streams, command: string): OutputConfiguration {
  return {
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    outputError: (text) => io.stderr.write(rewriteParseError(text, command)),
  };
}
