/**
 * The kustomize patches and replacements of the run that change an object, with the selectors
 * of replacements evaluated on what the object's file writes (src/parse/kustomize-patches.ts
 * metadataSelectors): a replacement that selects objects by an annotation the object does not
 * carry leaves it as it is. Where a patch changes the object too (it may add what the selector
 * asks for), or a selector is in a form not read here, the object may be selected.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isRecord } from '../json.js';
import { patchesChanging, realPath, type KustomizationListing, type KustomizePatch } from '../parse/kustomize-patches.js';
import { parseSelectorString, selectorMatches, type Labels } from './selector.js';

export interface PatchedObject {
  readonly kind: string;
  readonly name: string | undefined;
  readonly file: string;
  readonly apiVersion?: string;
  /** The object as its file writes it (its metadata's labels and annotations are read). */
  readonly written: unknown;
}

export function patchesOf(patches: readonly KustomizePatch[], object: PatchedObject): KustomizePatch[] {
  const all = patchesChanging(patches, object);
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
export function filesBuilt(listing: KustomizationListing, listings: readonly KustomizationListing[]): ReadonlySet<string> | undefined {
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
      const inFolder = listings.filter((other) => dirname(realPath(resolve(other.file))) === realPath(resource));
      if (inFolder.length === 0) return undefined;
      for (const other of inFolder) {
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
 * kustomization lists: hold-out 14). A patch whose kustomization is not among `listings`, or
 * whose files are not known (a Component's among them), is kept.
 */
export function patchesBuilding(patches: readonly KustomizePatch[], object: PatchedObject, listings: readonly KustomizationListing[], stream: string): KustomizePatch[] {
  // A rendered stream's template is not a file: the stream is what a kustomization lists (s38d 8).
  const file = realPath(resolve(stream));
  return patchesOf(patches, object).filter((patch) => {
    const own = realPath(resolve(patch.file));
    const listing = listings.find((each) => realPath(resolve(each.file)) === own);
    if (listing === undefined) return true;
    const built = filesBuilt(listing, listings);
    return built === undefined || built.has(file);
  });
}

function stringsOf(value: unknown): Labels {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
}

function mayMatch(text: string | undefined, values: Labels): boolean {
  if (text === undefined) return true;
  const selector = parseSelectorString(text);
  return selector === undefined || selectorMatches(selector, values) !== false;
}
