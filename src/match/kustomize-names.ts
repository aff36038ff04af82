/**
 * The names the run's kustomizations give an object: kustomize's `namePrefix` and `nameSuffix`
 * rename every object a kustomization builds, a base's first and then each overlay's around it
 * (`overlay-base-name`). A binding in such a tree often names its policy as the build names it
 * (`policyName: app-check` for a policy written `check`, under `namePrefix: app-`): in every
 * build of a kustomization that holds both, the names agree. Each kustomization of the run that
 * builds a file, directly or through the folders it lists, is a build of its own: two objects
 * meet in a build when a kustomization builds both files.
 */
import { dirname, resolve } from 'node:path';
import { realPath, type KustomizationListing } from '../parse/kustomize-patches.js';

/** A build that holds a file, and the prefix and suffix it puts around the file's objects' names. */
export interface BuildOfFile {
  /** The kustomization file that is built. */
  readonly root: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** Chains deeper than this are not followed (a hostile tree of folders listing each other). */
const MAX_DEPTH = 64;
/**
 * Builds of one file past this are not listed (folders listed by many overlays, each listed by
 * many more, multiply): a name they would give is then not known, and judged as unknown names are.
 */
const MAX_BUILDS = 1000;

export class KustomizeNames {
  readonly #listings: readonly KustomizationListing[];
  readonly #builds = new Map<string, readonly BuildOfFile[]>();

  constructor(listings: readonly KustomizationListing[]) {
    this.#listings = listings;
  }

  /** Every kustomization of the run that builds `file`, with the prefix and suffix its build gives the file's objects. */
  buildsOf(file: string): readonly BuildOfFile[] {
    if (this.#listings.length === 0 || file === '<stdin>') return [];
    const path = realPath(resolve(file));
    let builds = this.#builds.get(path);
    if (builds === undefined) {
      const unique = new Map(this.#buildsOfPath(path, new Set(), 0, { left: MAX_BUILDS }).map((build) => [`${build.root}\0${build.prefix}\0${build.suffix}`, build]));
      builds = [...unique.values()];
      this.#builds.set(path, builds);
    }
    return builds;
  }

  #buildsOfPath(path: string, seen: Set<string>, depth: number, budget: { left: number }): readonly BuildOfFile[] {
    if (depth > MAX_DEPTH || seen.has(path) || budget.left <= 0) return [];
    seen.add(path);
    const builds: BuildOfFile[] = [];
    for (const listing of this.#listings) {
      if (!listing.resources.includes(path)) continue;
      const prefix = listing.namePrefix ?? '';
      const suffix = listing.nameSuffix ?? '';
      if (--budget.left < 0) break;
      builds.push({ root: listing.file, prefix, suffix });
      // The overlays that list this kustomization's folder build it too, their names around its own.
      for (const outer of this.#buildsOfPath(dirname(realPath(resolve(listing.file))), seen, depth + 1, budget)) {
        builds.push({ root: outer.root, prefix: outer.prefix + prefix, suffix: suffix + outer.suffix });
      }
    }
    seen.delete(path);
    return builds;
  }
}
