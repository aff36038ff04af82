#!/usr/bin/env node
// Thin shim: run the CLI, set the exit code, let stdout drain. Anything thrown here is a bug.
import { readFileSync } from 'node:fs';

const banner = (error) => {
  let version = 'unknown';
  try {
    version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  } catch {}
  process.stderr.write(`internal error in admission-lint ${version}; please report it with the input that caused it\n${error?.stack ?? error}\n`);
  process.exitCode = 2;
};
// A reader that goes away early (`admission-lint … | head`) is not a bug: stop quietly.
process.stdout.on('error', (error) => {
  if (error?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  banner(error);
});
process.on('uncaughtException', banner);
process.on('unhandledRejection', banner);

try {
  const { run } = await import('../dist/src/cli/main.js');
  const code = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
  // A crash reported meanwhile (exit code 2) must not be hidden by a later 0 or 1.
  if (process.exitCode !== 2) process.exitCode = code;
} catch (error) {
  banner(error);
}
