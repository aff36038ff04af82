/**
 * One temporary folder for the whole test run, removed at its end: every test that makes a
 * folder with `mkdtempSync(join(tmpdir(), …))` makes it in there, since os.tmpdir() reads TMPDIR
 * and the test workers (and the CLIs they spawn) inherit it. Without it, each run left a few
 * hundred folders in the machine's /tmp, and a linter run from a file there lists /tmp.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'admission-lint-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
