/** What a command reads and writes: the process's streams and environment, or a test's. */
import type { TerminalStream } from './terminal.js';

export interface Io {
  readonly stdout: { write(text: string): unknown } & TerminalStream;
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin?: () => Uint8Array;
}
