/**
 * Writing an output file (`--output`, `--write-baseline`) where the destination may have been
 * planted by a pull request: never through a symbolic link, never half-written. The text goes to
 * a new file in the destination's folder, which is then renamed over the destination: rename
 * replaces a symbolic link instead of following it, even one created after the check, and a
 * reader never sees a partial file.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError, OutputPathError } from '../errors.js';

/** The destination's own entry (not followed), or undefined when there is none yet. */
export function destinationStats(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path should be; the write fails with its own error.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** A destination that exists must be a regular file: not a symbolic link, folder, device or FIFO. */
export function checkDestinationType(flag: string, path: string, stats: Stats | undefined): void {
  if (stats === undefined || stats.isFile()) return;
  throw new OutputPathError(flag, path, stats.isSymbolicLink() ? 'is a symbolic link; admission-lint does not write through one' : 'is not a regular file');
}

/**
 * A folder between the working folder and the destination that is a symbolic link: only below
 * the working folder (the checkout a pull request controls), so a system whose temp folder is a
 * link (macOS /tmp) still works.
 */
function linkedFolder(absolute: string, cwd: string): string | undefined {
  const rel = relative(cwd, dirname(absolute));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  let current = cwd;
  for (const segment of rel.split(sep)) {
    current = join(current, segment);
    let stats: Stats;
    try {
      stats = lstatSync(current);
    } catch {
      return undefined; // Missing: the write fails with its own error.
    }
    if (stats.isSymbolicLink()) return relative(cwd, current);
  }
  return undefined;
}

/** Refuses a destination whose folder is a symbolic link below the working folder. */
export function checkFolder(flag: string, path: string, absolute: string, cwd: string): void {
  const folder = linkedFolder(absolute, cwd);
  if (folder !== undefined) throw new OutputPathError(flag, path, `its folder ${folder} is a symbolic link; admission-lint does not write through one`);
}

/**
 * Creates the destination's missing folders (`-o out/report.sarif` with no `out/`), one at a
 * time from the top, as `mkdir -p` does but never through a symbolic link: a folder that turns out
 * to exist (made meanwhile) must be a real folder, not a link or a file.
 */
export function makeFolders(flag: string, path: string, absolute: string): void {
  const missing: string[] = [];
  for (let folder = dirname(absolute); ; folder = dirname(folder)) {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new InputError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (stats !== undefined) break;
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new InputError(`cannot create the folder ${relative(process.cwd(), folder) || folder} for ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      const stats = lstatSync(folder);
      if (!stats.isDirectory()) throw new OutputPathError(flag, path, `its folder ${folder} ${stats.isSymbolicLink() ? 'is a symbolic link; admission-lint does not write through one' : 'is not a folder'}`);
    }
  }
}

/**
 * Writes `text` to `path` (relative to `cwd`) atomically, as above. Missing folders are created. `flag` names the option and
 * `what` the file in errors (e.g. `the baseline b.json`).
 */
export function writeFileAtomic(flag: string, path: string, text: string, options: { readonly cwd?: string; readonly what?: string } = {}): void {
  const cwd = options.cwd ?? process.cwd();
  const absolute = resolve(cwd, path);
  const what = options.what ?? path;
  const failed = (error: unknown): InputError => new InputError(`cannot write ${what}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  let stats: Stats | undefined;
  try {
    stats = destinationStats(absolute);
  } catch (error) {
    throw failed(error);
  }
  checkDestinationType(flag, path, stats);
  checkFolder(flag, path, absolute, cwd);
  if (stats === undefined) makeFolders(flag, path, absolute);
  // Same folder, so the rename stays on one file system; `wx` fails rather than open anything there.
  const temp = join(dirname(absolute), `.${basename(absolute)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // An existing destination keeps its permissions; a new one gets the umask's.
    fd = openSync(temp, 'wx', stats === undefined ? 0o666 : stats.mode & 0o7777);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, absolute);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Not created, or already renamed.
    }
    throw failed(error);
  }
}
