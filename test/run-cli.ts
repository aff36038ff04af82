/** The CLI run in this process (no spawn), with its stdout, stderr and exit code; stdin is `input`. */
import { run } from '../src/cli/main.js';

export async function runCli(args: readonly string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run([...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    readStdin: () => new TextEncoder().encode(input),
  });
  return { code, stdout, stderr };
}
