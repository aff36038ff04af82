/**
 * Fields of an object that the kustomizations listing its file fill in as they build it, so that
 * what the API server receives is not what the file writes there:
 * - kustomize `vars`: `$(NAME)` is replaced by the value of the var NAME in the fields its
 *   varReference field specs name. Only field specs the kustomization's own `configurations`
 *   add are counted (kustomize's defaults name pod-spec fields, Ingress, Service ports and
 *   metadata, never a webhook's);
 * - the namespace transformer: a kustomization with `namespace` writes it into the fields its
 *   namespace field specs name, and creates the field when a spec says `create: true`
 *   (kustomize api/filters/namespace).
 * A file is judged so only when at least one kustomization of the run lists it among its
 * resources and every one that does fills the field; `kubectl apply -k` applies the build, not
 * the file. Nothing is concluded about the built value itself: it is not known here. (Whether
 * the build succeeds at all, a var's objref among its resources, say, is not checked: a build
 * that fails applies nothing.)
 */
import { dirname, resolve, sep } from 'node:path';
import type { FieldPath } from '../field-path.js';
import { splitApiVersion } from '../kube/api-version.js';
import { realPath, type ConfiguredFieldSpec, type KustomizationListing } from '../parse/kustomize-patches.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { placeholderIn } from '../text/placeholder.js';

export interface BuiltObject {
  readonly kind: string;
  readonly apiVersion: string | undefined;
  /** The file the object is written in. */
  readonly file: string;
}

const LISTED_BY = memoKey<(file: string) => readonly KustomizationListing[]>('the kustomizations that list each file');

/** The kustomizations of the run that list a file among their resources (by real path). */
export function listingsOf(run: Pick<RunScope, 'kustomizations' | 'memo'>, file: string): readonly KustomizationListing[] {
  const byFile = run.memo.get(LISTED_BY, () => {
    const index = new Map<string, KustomizationListing[]>();
    for (const listing of run.kustomizations) {
      for (const resource of listing.resources) {
        const list = index.get(resource);
        if (list === undefined) index.set(resource, [listing]);
        else if (!list.includes(listing)) list.push(listing);
      }
    }
    return (path: string) => index.get(realPath(resolve(path))) ?? [];
  });
  return byFile(file);
}

/** A field path as kustomize's field specs write it: the keys, without list indices (`webhooks/name`). */
function specPath(path: FieldPath): string {
  return path.filter((segment): segment is string => typeof segment === 'string').join('/');
}

/**
 * Whether a field spec names the field: its path (a leading `/` and `[]` list markers are
 * kustomize's optional spellings), and its kind, group and version where it gives them (kyaml
 * resid Gvk.IsSelected: an empty one selects any).
 */
function specMatches(spec: ConfiguredFieldSpec, object: BuiltObject, path: string): boolean {
  const { group, version } = splitApiVersion(object.apiVersion ?? '');
  return (
    spec.path.replace(/^\//, '').replace(/\[\]/g, '') === path &&
    (spec.kind === undefined || spec.kind === '' || spec.kind === object.kind) &&
    (spec.group === undefined || spec.group === '' || spec.group === group) &&
    (spec.version === undefined || spec.version === '' || spec.version === version)
  );
}

const VAR_REFERENCE = /\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g;

/** Whether the value's placeholders are all `$(NAME)` of vars the kustomization declares. */
function onlyDeclaredVars(value: string, names: readonly string[]): boolean {
  let found = false;
  for (const match of value.matchAll(VAR_REFERENCE)) {
    if (!names.includes(match[1]!)) return false;
    found = true;
  }
  return found && placeholderIn(value.replace(VAR_REFERENCE, 'x')) === undefined;
}

function fills(listing: KustomizationListing, object: BuiltObject, path: FieldPath, written: unknown): boolean {
  if (listing.unreadable === true || listing.fieldSpecs === undefined) return false;
  // kustomize loads a listed file only from within the kustomization's folder (its load
  // restrictions): one elsewhere, or a link that leads elsewhere, fails the build, so no build fills it.
  const root = realPath(dirname(resolve(listing.file)));
  const file = realPath(resolve(object.file));
  if (!file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return false;
  const at = specPath(path);
  if (typeof written === 'string' && listing.varNames !== undefined && onlyDeclaredVars(written, listing.varNames)) {
    return listing.fieldSpecs.some((spec) => spec.transformer === 'varReference' && specMatches(spec, object, at));
  }
  if (written == null || written === '') {
    return listing.namespace !== undefined && /^webhooks\/clientConfig\/service\/namespace$/.test(at) && listing.fieldSpecs.some((spec) => spec.transformer === 'namespace' && spec.create && specMatches(spec, object, at));
  }
  return false;
}

/**
 * Whether every kustomization of the run that lists the object's file (one at least) writes the
 * field at `path` as it builds it, where the file writes `written` (undefined: nothing).
 */
export function filledByBuild(run: Pick<RunScope, 'kustomizations' | 'memo'>, object: BuiltObject, path: FieldPath, written: unknown): boolean {
  const listings = listingsOf(run, object.file);
  return listings.length > 0 && listings.every((listing) => fills(listing, object, path, written));
}
