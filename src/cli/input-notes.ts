/**
 * What the inputs hold that admission-lint reads differently from how the cluster gets it, said
 * once on stderr (issue 22): a kustomize overlay is read file by file, its patches, namespace and
 * bases not applied, so it can look clean with nothing linted; a Helm chart's templates are not
 * YAML until rendered, so they are left out instead of each being a syntax error. Each note says
 * how to lint what the cluster would get: the build or the rendered chart, on standard input.
 */
import { guardText, safeText } from '../format/escape.js';
import { expandPaths, newWalkNotes, type WalkNotes } from '../load/sources.js';
import { resolve } from 'node:path';
import { summarizeKustomization } from '../parse/kustomization.js';
import { realPath } from '../parse/kustomize-patches.js';
import { joinWords } from '../text/list.js';

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/** Up to three names, and how many more. */
function some(names: readonly string[]): string {
  return names.length <= 3 ? joinWords(names) : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** A path as a shell word (quoted when it has anything but the safe characters). */
function shellWord(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The notes, one line each (without the `admission-lint: ` prefix); empty when there is nothing to say. */
export function inputNotes(notes: WalkNotes): string[] {
  const lines: string[] = [];
  const read = notes.kustomizations.map((dir) => ({ dir, summary: summarizeKustomization(dir) }));
  const overlays = read.flatMap(({ dir, summary }) => (summary !== undefined && summary.changes.length > 0 ? [{ dir, changes: summary.changes }] : []));
  if (overlays.length === 1) {
    const [{ dir, changes }] = overlays as [{ dir: string; changes: readonly string[] }];
    lines.push(`${dir} has a kustomization that was not built: its files were read as they are, without its ${joinWords(changes)}; lint the build: kubectl kustomize ${shellWord(dir)} | admission-lint -`);
  } else if (overlays.length > 1) {
    // The builds to lint are those of the kustomizations no other one builds on (config/default,
    // not the config/crd it lists): what a user applies.
    const listed = new Set(read.flatMap((k) => k.summary?.folders ?? []));
    const tops = overlays.filter((k) => !listed.has(realPath(resolve(k.dir))));
    // Not one that lists a file that is not there: kustomize cannot build it (hold-out 33: a pipeline's template).
    const buildable = tops.filter((k) => read.find((each) => each.dir === k.dir)?.summary?.missing !== true);
    const builds = buildable.length > 0 ? buildable : tops.length > 0 ? tops : overlays;
    const lint = builds.length === 1 ? 'lint its build' : `lint each of ${some(builds.map((k) => k.dir))}`;
    lines.push(`${plural(overlays.length, 'kustomization')} were not built (${some(overlays.map((k) => k.dir))}): their files were read as they are, without their patches, bases or namespaces; ${lint}: kubectl kustomize ${shellWord(builds[0]!.dir)} | admission-lint -`);
  }
  const charts = notes.charts;
  if (charts.length === 1) {
    const [{ dir, templates }] = charts as [{ dir: string; templates: number }];
    lines.push(`${dir} is a Helm chart: its ${plural(templates, 'template')} in templates/ ${templates === 1 ? 'was' : 'were'} not read (not YAML until rendered); lint what it renders: helm template ${shellWord(dir)} | admission-lint -`);
  } else if (charts.length > 1) {
    const templates = charts.reduce((sum, chart) => sum + chart.templates, 0);
    lines.push(`${plural(charts.length, 'Helm chart')} (${some(charts.map((c) => c.dir))}): their ${plural(templates, 'template')} were not read (not YAML until rendered); lint what each renders: helm template ${shellWord(charts[0]!.dir)} | admission-lint -`);
  }
  return lines;
}

/** Writes the notes to stderr, one `admission-lint: ` line each (input text made safe). */
export function writeInputNotes(notes: WalkNotes, io: { readonly stderr: { write(text: string): unknown } }): void {
  for (const line of inputNotes(notes)) io.stderr.write(guardText(`admission-lint: ${safeText(line)}\n`));
}

/** The notes of a command that walks its paths itself (defaults, simulate, report): one more walk, names only. */
export function notesOfPaths(paths: readonly string[]): WalkNotes {
  const notes = newWalkNotes();
  expandPaths(paths, notes);
  return notes;
}
