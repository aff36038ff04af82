/**
 * Standard input that holds nothing is an error, as an empty folder is: `kubectl kustomize
 * missing-dir | admission-lint -` must not pass as "no problems" when the command before the pipe
 * failed and printed nothing (its error went to stderr, and the pipe's status is the last
 * command's). Nothing, or only white space, is empty; `lint --allow-empty` accepts it.
 */
import { InputError } from '../errors.js';
import { readStdinSync } from '../load/sources.js';

/** White space only: space, tab, line feed, carriage return (a YAML stream with no document). */
function blank(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d);
}

/**
 * A reader of standard input (the process's, or a test's) that refuses an empty one. `command`
 * names what read it, for the message; `allowEmpty` (lint's --allow-empty) lets it through.
 */
export function nonEmptyStdin(read: (() => Uint8Array) | undefined, command: 'lint' | 'defaults' | 'simulate' | 'report', allowEmpty = false): () => Uint8Array {
  return () => {
    const bytes = (read ?? readStdinSync)();
    if (allowEmpty || !blank(bytes)) return bytes;
    const also = command === 'lint' ? '; --allow-empty accepts an empty input' : '';
    throw new InputError(`standard input ("-") is empty: nothing to ${command === 'lint' ? 'lint' : 'read'}`, `did the command before the pipe fail? Its error is on stderr${also}`);
  };
}
