/**
 * The kustomize patches and replacements of the run that change an object, with the selectors
 * of replacements evaluated on what the object's file writes (src/parse/kustomize-patches.ts
 * metadataSelectors): a replacement that selects objects by an annotation the object does not
 * carry leaves it as it is. Where a patch changes the object too (it may add what the selector
 * asks for), or a selector is in a form not read here, the object may be selected.
 */
import { isRecord } from '../json.js';
import { patchesChanging, type KustomizePatch } from '../parse/kustomize-patches.js';
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

function stringsOf(value: unknown): Labels {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
}

function mayMatch(text: string | undefined, values: Labels): boolean {
  if (text === undefined) return true;
  const selector = parseSelectorString(text);
  return selector === undefined || selectorMatches(selector, values) !== false;
}
