/**
 * `lint --fix` over the files a run linted: each file's fixes planned and proven
 * (src/fix/fix-file.ts), then written, or shown as a diff (`--fix-dry-run`). A file is written
 * only when every fix planned for it applies and proves, atomically (a temporary file in its
 * folder renamed over it), with the output rules of `-o` (src/output-safety/): never through a
 * symbolic link (the file or a folder below the working folder), never a file outside the paths
 * that were linted. Rendered templates (`helm template` output) and files whose text is not
 * exactly what was linted (a byte-order mark is kept; lone CR line breaks are not edited) are
 * left alone, and the reason is said.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Finding } from '../engine/finding.js';
import { normalizeBreaks, STDIN_PATH } from '../load/sources.js';
import { checkDestinationType, checkFolder, destinationStats, writeFileAtomic } from '../output-safety/write.js';
import { unifiedDiff } from './diff.js';
import { fixFileText } from './fix-file.js';
import { mayPlanEdit } from './plan.js';
import type { Fix } from './types.js';

export interface FixRunOptions {
  readonly findings: readonly Finding[];
  /** The paths linted, as given (`-`: standard input). */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** Standard input's bytes, when it was linted. */
  readonly stdin?: Uint8Array;
  /** true: write nothing (`--fix-dry-run`). */
  readonly dryRun: boolean;
}

export interface FileOutcome {
  readonly file: string;
  readonly applied: readonly Fix[];
  readonly suggestions: readonly Fix[];
  /** The unified diff of the applied fixes ('' when none). */
  readonly diff: string;
  /** Why the file was left as it was, when it had fixes. */
  readonly skipped?: string;
  /** The text the fixes' and suggestions' offsets are in (the file as read, without a byte-order mark). */
  readonly source?: string;
  /** For standard input: the fixed text (or the text as read when nothing applies). */
  readonly text?: string;
}

const BOM = '\ufeff';

/** A linted path as a real path, and whether it is a folder (a path that cannot be resolved has none). */
interface LintedRoot {
  readonly real: string;
  readonly folder: boolean;
}

/** The linted paths resolved once per run (not once per file: resolving a real path walks every folder of it). */
function lintedRoots(paths: readonly string[], cwd: string): LintedRoot[] {
  return paths.flatMap((path) => {
    if (path === '-') return [];
    try {
      const real = realpathSync(resolve(cwd, path));
      return [{ real, folder: statSync(real).isDirectory() }];
    } catch {
      return [];
    }
  });
}

/** Whether `absolute` is one of the linted files or inside a linted folder (real paths). */
function insideLinted(absolute: string, roots: readonly LintedRoot[]): boolean {
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return false;
  }
  return roots.some((root) => {
    if (!root.folder) return root.real === real;
    const rel = relative(root.real, real);
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  });
}

function whyNotWritable(file: string, absolute: string, options: FixRunOptions, roots: readonly LintedRoot[]): string | undefined {
  if (!insideLinted(absolute, roots)) return 'it is outside the paths linted';
  try {
    checkDestinationType('--fix', file, destinationStats(absolute));
    checkFolder('--fix', file, absolute, options.cwd);
  } catch (error) {
    return (error as Error).message.replace(/^--fix \S+: /, '');
  }
  return undefined;
}

function fixOne(file: string, findings: readonly Finding[], options: FixRunOptions, roots: readonly LintedRoot[]): FileOutcome {
  const none = (skipped?: string, text?: string): FileOutcome => ({ file, applied: [], suggestions: [], diff: '', ...(skipped ? { skipped } : {}), ...(text !== undefined ? { text } : {}) });
  const stdin = file === STDIN_PATH;
  if (findings.some((finding) => finding.rendered !== undefined)) return none('it is a rendered template (fix the chart\'s template instead)');
  const absolute = resolve(options.cwd, file);
  if (!stdin) {
    const why = whyNotWritable(file, absolute, options, roots);
    if (why !== undefined) return none(why);
  }
  let raw: string;
  try {
    const bytes = stdin ? (options.stdin ?? new Uint8Array()) : readFileSync(absolute);
    raw = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return none('it cannot be read again as UTF-8 text');
  }
  const bom = raw.startsWith(BOM) ? BOM : '';
  const text = raw.slice(bom.length);
  if (normalizeBreaks(text) !== text) return none('it has line breaks other than LF and CRLF (or a byte-order mark inside)', stdin ? raw : undefined);
  const result = fixFileText(file, text, findings);
  if (result.dropped.length > 0) {
    return { ...none(`${result.dropped.length} of its fixes could not be proven to keep what the objects do`, stdin ? raw : undefined), suggestions: result.suggestions, source: text };
  }
  const fixed = result.text;
  const diff = fixed === undefined ? '' : unifiedDiff(file, text, result.applied.flatMap((fix) => fix.edits));
  if (fixed !== undefined && !options.dryRun && !stdin) writeFileAtomic('--fix', file, bom + fixed, { cwd: options.cwd, what: file });
  return { file, applied: fixed === undefined ? [] : result.applied, suggestions: result.suggestions, diff, source: text, ...(stdin ? { text: bom + (fixed ?? text) } : {}) };
}

/** Fixes every file with findings, in the order the findings name them. */
export function fixFiles(options: FixRunOptions): FileOutcome[] {
  const byFile = new Map<string, Finding[]>();
  for (const finding of options.findings) {
    // Files with no finding an edit is planned for are not read again.
    if (!mayPlanEdit(finding)) continue;
    const list = byFile.get(finding.file) ?? [];
    list.push(finding);
    byFile.set(finding.file, list);
  }
  const roots = lintedRoots(options.paths, options.cwd);
  const outcomes = [...byFile].map(([file, findings]) => fixOne(file, findings, options, roots));
  // Standard input with --fix prints the document, fixed or not.
  if (options.paths.includes('-') && !byFile.has(STDIN_PATH) && options.stdin !== undefined) {
    outcomes.push({ file: STDIN_PATH, applied: [], suggestions: [], diff: '', text: new TextDecoder().decode(options.stdin) });
  }
  return outcomes;
}
