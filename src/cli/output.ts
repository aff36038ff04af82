/** Where a command's output goes: stdout, or the file of `--output`. */
import { writeFileSync } from 'node:fs';
import { InputError } from '../errors.js';

export function emitOutput(text: string, output: string | undefined, io: { readonly stdout: { write(text: string): unknown } }): void {
  if (output === undefined) {
    io.stdout.write(text);
    return;
  }
  try {
    writeFileSync(output, text);
  } catch (error) {
    throw new InputError(`cannot write ${output}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
