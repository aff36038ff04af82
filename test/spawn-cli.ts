/**
 * The built CLI run as users run it: a child process of the bin (npm test builds first). Tests
 * that need the process itself (exit codes, stdin, signals, files written) use this; the others
 * run the CLI in-process with test/run-cli.ts.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'admission-lint.js');

export interface SpawnOptions {
  /** Default: the repository root. */
  readonly cwd?: string;
  readonly input?: string;
  /** Added to an environment that holds PATH only, so the user's settings never leak in. */
  readonly env?: Readonly<Record<string, string>>;
  /** Standard input as a descriptor or 'ignore' instead of `input`. */
  readonly stdin?: 'ignore' | number;
  readonly timeout?: number;
}

export interface SpawnResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Only when a timeout was given: whether it ran out. */
  readonly timedOut?: boolean;
}

export function spawnCli(args: readonly string[], options: SpawnOptions = {}): SpawnResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...options.env },
    ...(options.stdin === undefined ? { input: options.input ?? '' } : { stdio: [options.stdin, 'pipe', 'pipe'] as const }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, ...(options.timeout === undefined ? {} : { timedOut: result.error !== undefined }) };
}
