/**
 * Where `lint` may write (`--output`, `--write-baseline`), checked before the run reads anything,
 * so a refused destination costs no work and leaves every file as it was. A pull request controls
 * the checkout: a file committed as a symbolic link, or a folder committed as one, would turn an
 * output into a write anywhere the CI job can write. An output onto a file the run reads loses
 * that file, and two outputs onto one file lose one of them. Each case is a usage error (exit 2).
 */
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OutputPathError } from '../errors.js';
import { expandPaths } from '../load/sources.js';
import { checkDestinationType, checkFolder, destinationStats } from './write.js';

export interface Destination {
  /** The option, for messages: `--output`, `--write-baseline`. */
  readonly flag: string;
  /** As given on the command line. */
  readonly path: string;
}

export interface RunInputs {
  /** The paths to lint as given (files, folders, `-`). */
  readonly paths: readonly string[];
  /** The config file read, if any. */
  readonly config?: string | undefined;
  /** The baseline read (`--baseline`), if any. */
  readonly baseline?: string | undefined;
}

/** Device and inode: one file whatever the path (symbolic links, hard links, letter case). */
const identity = (stats: Stats): string => `${stats.dev}:${stats.ino}`;

/** Where the destination is, for comparing two of them: the real folder plus the name. */
function location(absolute: string): string {
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/**
 * A previous output of admission-lint (a baseline, a JSON or SARIF report) found in a linted
 * folder may be replaced: the run does not lint it as a manifest. Anything else there is an input.
 */
function isOwnOutput(absolute: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(absolute, 'utf8'));
  } catch {
    return false;
  }
  const record = data as { tool?: unknown; runs?: { tool?: { driver?: { name?: unknown } } }[] } | null;
  if (typeof record !== 'object' || record === null) return false;
  if (record.tool === 'admission-lint') return true;
  if ((record.tool as { name?: unknown } | undefined)?.name === 'admission-lint') return true;
  return Array.isArray(record.runs) && record.runs[0]?.tool?.driver?.name === 'admission-lint';
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export function checkDestinations(destinations: readonly Destination[], inputs: RunInputs, cwd: string): void {
  const seen = new Map<string, Destination>();
  const existing: { destination: Destination; absolute: string; id: string }[] = [];
  for (const destination of destinations) {
    const absolute = resolve(cwd, destination.path);
    const stats = destinationStats(absolute);
    checkDestinationType(destination.flag, destination.path, stats);
    checkFolder(destination.flag, destination.path, absolute, cwd);
    const keys = [location(absolute), ...(stats ? [identity(stats)] : [])];
    for (const key of keys) {
      const other = seen.get(key);
      if (other !== undefined) throw new OutputPathError(destination.flag, destination.path, `is also the destination of ${other.flag}`);
    }
    for (const key of keys) seen.set(key, destination);
    if (stats) existing.push({ destination, absolute, id: identity(stats) });
  }
  // Only a file that exists can be an input; most runs write new files and skip the rest.
  if (existing.length === 0) return;
  const named = new Map<string, string>();
  const name = (path: string | undefined, what: string): void => {
    const stats = path === undefined ? undefined : statOrUndefined(resolve(cwd, path));
    if (stats && !named.has(identity(stats))) named.set(identity(stats), what);
  };
  name(inputs.baseline, 'the baseline this run reads');
  name(inputs.config, 'the config file this run reads');
  for (const path of inputs.paths) if (path !== '-' && statOrUndefined(resolve(cwd, path))?.isFile()) name(path, 'a file this run lints');
  const walked = new Set<string>();
  for (const file of expandPaths(inputs.paths.map((path) => (path === '-' ? path : resolve(cwd, path))))) {
    const stats = file === '-' ? undefined : statOrUndefined(resolve(cwd, file));
    if (stats) walked.add(identity(stats));
  }
  for (const { destination, absolute, id } of existing) {
    const what = named.get(id) ?? (walked.has(id) && !isOwnOutput(absolute) ? 'a file this run lints' : undefined);
    // Refreshing a baseline (`--baseline b.json --write-baseline b.json`) reads it whole first
    // and replaces it atomically: the documented way to prune entries that no longer occur.
    if (what === 'the baseline this run reads' && destination.flag === '--write-baseline') continue;
    if (what !== undefined) throw new OutputPathError(destination.flag, destination.path, `is ${what}; write it elsewhere`);
  }
}
