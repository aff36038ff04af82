/**
 * Where a command's output goes: stdout, or the file of `--output`, written atomically and never
 * through a symbolic link (output-safety/write.ts).
 */
import { writeFileAtomic } from '../output-safety/write.js';

export function emitOutput(text: string, output: string | undefined, io: { readonly stdout: { write(text: string): unknown } }): void {
  if (output === undefined) {
    io.stdout.write(text);
    return;
  }
  writeFileAtomic('--output', output, text);
}
