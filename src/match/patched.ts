/**
 * The kustomize patches and replacements of the run that change an object, with the selectors
 * of replacements evaluated on what the object's file writes (src/parse/kustomize-patches.ts
 * metadataSelectors): a replacement that selects objects by an annotation the object does not
 * carry leaves it as it is. Where a patch changes the object too (it may add what the selector
 * asks for), or a selector is in a form not read here, the object may be selected.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { groupBy } from '../collections.js';
import { isRecord } from '../json.js';
import { patchesChanging, realPath, type KustomizationListing, type KustomizePatch, type NameAffixes, type PatchNames, type PatchSelection } from '../parse/kustomize-patches.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { kustomizeNamesOf } from './kustomize-names.js';
import { parseSelectorString, selectorMatches, type Labels } from './selector.js';

export interface PatchedObject {
  readonly kind: string;
  readonly name: string | undefined;
  readonly file: string;
  readonly apiVersion?: string;
  /** The object as its file writes it (its metadata's labels and annotations are read). */
  readonly written: unknown;
}

/** What the run's patches are read with: the patches, and the kustomizations that give names on the way. */
export type PatchScope = Pick<RunScope, 'memo' | 'kustomizations' | 'kustomizePatches'>;

/**
 * The patches of the run that change an object (src/parse/kustomize-patches.ts patchesChanging),
 * its name tried as written and as the kustomizations below each patch's name it (`listedAs`: the
 * path the run's kustomizations list its file by, a rendered stream's own: src/match/namespaces.ts
 * streamOf).
 */
export function runPatchesChanging(run: PatchScope, object: { kind: string; name: string | undefined; file: string; apiVersion?: string }, listedAs: string): KustomizePatch[] {
  return patchesChanging(run.kustomizePatches, object, NEVER_PREFIXED.has(object.kind) ? AS_WRITTEN : patchNamesOf(run, listedAs));
}

const PATCH_NAMES = memoKey<Map<string, PatchNames>>('the names patches select the objects of each file by');

/** Which of the builds' names of an object a patch sees, by how it selects (PatchSelection). */
const SEEN: Readonly<Record<PatchSelection, 'below' | 'through' | 'anyLevel'>> = { target: 'below', legacy: 'through', replacement: 'anyLevel', content: 'anyLevel' };

/** Kinds kustomize's namePrefix and nameSuffix leave as named (its prefix-suffix field specs skip them): a patch sees their name as written (s47b C). */
const NEVER_PREFIXED: ReadonlySet<string> = new Set(['Namespace', 'CustomResourceDefinition', 'APIService']);
const AS_WRITTEN: PatchNames = () => [];

/**
 * For the objects of the file the run's kustomizations list as `listedAs`: the affixes each patch
 * may select them by (src/match/kustomize-names.ts affixesAt), none but the name as written for a
 * patch whose kustomization certainly does not build the file, and unknown (any pattern may
 * select) where what the patch's kustomization builds is not known (a folder the run was not
 * given on the way: s47a H3). One function per file and run, so that answers can be kept.
 */
export function patchNamesOf(run: PatchScope, listedAs: string): PatchNames {
  const byFile = run.memo.get(PATCH_NAMES, () => new Map<string, PatchNames>());
  let namesOf = byFile.get(listedAs);
  if (namesOf !== undefined) return namesOf;
  const names = kustomizeNamesOf(run);
  const built = run.memo.get(FILES_BUILT, () => builtByKustomization(run.kustomizations));
  const file = listedAs === '<stdin>' ? undefined : realPath(resolve(listedAs));
  const answers = new Map<string, NameAffixes>();
  namesOf = (patch, renamed = false) => {
    if (file === undefined) return [];
    const how = renamed ? 'anyLevel' : SEEN[patch.selection ?? 'target'];
    const key = `${patch.file}\0${how}`;
    if (answers.has(key)) return answers.get(key);
    const files = built(realPath(resolve(patch.file)));
    const answer = files === undefined ? undefined : files.has(file) ? names.affixesAt(listedAs, patch.file, how) : [];
    answers.set(key, answer);
    return answer;
  };
  byFile.set(listedAs, namesOf);
  return namesOf;
}

export function patchesOf(run: PatchScope, object: PatchedObject, listedAs: string): KustomizePatch[] {
  const all = runPatchesChanging(run, object, listedAs);
  if (all.some((patch) => patch.target.metadataSelectors === undefined)) return all;
  const metadata = isRecord(object.written) && isRecord(object.written.metadata) ? object.written.metadata : {};
  const labels = stringsOf(metadata.labels);
  const annotations = stringsOf(metadata.annotations);
  return all.filter((patch) => {
    const selectors = patch.target.metadataSelectors!;
    return mayMatch(selectors.labels, labels) && mayMatch(selectors.annotations, annotations);
  });
}

/** Resources past this many are not followed: what the kustomization builds is then unknown. */
const MAX_REACHED = 4096;

/**
 * The files a kustomization builds: its resources, and those of the kustomizations in the
 * folders it lists, transitively; undefined when that is not known (a kustomization that could
 * not be read, a folder without one the run read, a URL, more than MAX_REACHED).
 */
function filesBuilt(listing: KustomizationListing, inFolder: (folder: string) => readonly KustomizationListing[]): ReadonlySet<string> | undefined {
  const files = new Set<string>();
  const seen = new Set<KustomizationListing>([listing]);
  const queue = [listing];
  for (let at = 0; at < queue.length; at++) {
    const current = queue[at]!;
    // A Component's patches apply to what the kustomization that lists it builds (s38d 8).
    if (current.unreadable === true || current.component === true) return undefined;
    for (const resource of current.resources) {
      if (files.size + seen.size > MAX_REACHED) return undefined;
      let file = false;
      try {
        file = statSync(resource).isFile();
      } catch {
        return undefined;
      }
      if (file) {
        files.add(realPath(resource));
        continue;
      }
      const there = inFolder(realPath(resource));
      if (there.length === 0) return undefined;
      for (const other of there) {
        if (seen.has(other)) continue;
        seen.add(other);
        queue.push(other);
      }
    }
  }
  return files;
}

/**
 * patchesOf, less the patches of a kustomization that certainly does not build the object's file
 * (`stream`: a rendered stream's own path; an overlay of another base, a patch fragment no
 * kustomization lists: hold-out 14). A patch whose kustomization is not among the run's, or
 * whose files are not known (a Component's among them), is kept.
 */
export function patchesBuilding(object: PatchedObject, run: PatchScope, stream: string): KustomizePatch[] {
  // A rendered stream's template is not a file: the stream is what a kustomization lists (s38d 8).
  const real = run.memo.get(REAL_PATHS, () => {
    const known = new Map<string, string>();
    return (path: string): string => {
      let found = known.get(path);
      if (found === undefined) known.set(path, (found = realPath(resolve(path))));
      return found;
    };
  });
  const file = real(stream);
  const built = run.memo.get(FILES_BUILT, () => builtByKustomization(run.kustomizations));
  return patchesOf(run, object, stream).filter((patch) => {
    const files = built(real(patch.file));
    return files === undefined || files.has(file);
  });
}

/** Real paths of the run's kustomizations and streams, each asked of the file system once (s39a 7: once per object and patch). */
const REAL_PATHS = memoKey<(path: string) => string>('real paths of kustomizations and streams');

/** filesBuilt of each kustomization of the run, by its file's real path, found once per run. */
const FILES_BUILT = memoKey<(kustomization: string) => ReadonlySet<string> | undefined>('the files each kustomization builds');

function builtByKustomization(listings: readonly KustomizationListing[]): (kustomization: string) => ReadonlySet<string> | undefined {
  const files = new Map(listings.map((listing) => [listing, realPath(resolve(listing.file))]));
  const byFile = new Map<string, KustomizationListing>();
  for (const [listing, file] of files) if (!byFile.has(file)) byFile.set(file, listing);
  const byFolder = groupBy(listings, (listing) => dirname(files.get(listing)!));
  const answers = new Map<string, ReadonlySet<string> | undefined>();
  return (kustomization) => {
    const listing = byFile.get(kustomization);
    // A patch of a kustomization that is not among the run's: kept (nothing known of what it builds).
    if (listing === undefined) return undefined;
    if (!answers.has(kustomization)) answers.set(kustomization, filesBuilt(listing, (folder) => byFolder.get(folder) ?? []));
    return answers.get(kustomization);
  };
}

function stringsOf(value: unknown): Labels {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
}

function mayMatch(text: string | undefined, values: Labels): boolean {
  if (text === undefined) return true;
  const selector = parseSelectorString(text);
  return selector === undefined || selectorMatches(selector, values) !== false;
}
