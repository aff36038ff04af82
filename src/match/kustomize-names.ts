/**
 * The names the run's kustomize builds give an object: kustomize's `namePrefix` and `nameSuffix`
 * rename every object a kustomization builds, a base's first and then each overlay's around it
 * (`overlay-base-name`). A binding in such a tree often names its policy as the build names it
 * (`policyName: app-check` for a policy written `check`, under `namePrefix: app-`).
 *
 * The builds counted are those of the run's top kustomizations (those no other kustomization of
 * the run builds on: what `kubectl apply -k` is run on; a base under them is built only through
 * them). Only kustomization files kustomize reads count (`kustomization.yaml`,
 * `kustomization.yml`, `Kustomization`), and of each only its first document: a `kind:
 * Kustomization` document elsewhere, or a second document, is never built.
 */
import { basename, dirname, resolve } from 'node:path';
import { mayTargetKind, realPath, type KustomizationListing, type KustomizePatch, type NameAffixes } from '../parse/kustomize-patches.js';
import { POLICY_KINDS } from '../model/types.js';
import { memoKey, type RunScope } from '../run-scope.js';

/** A build that holds a file, and the prefix and suffix it puts around the file's objects' names. */
export interface BuildOfFile {
  /** The top kustomization file that is built. */
  readonly root: string;
  readonly prefix: string;
  readonly suffix: string;
  /** A kustomization on the way sets `namespace`: the build moves the file's namespaced objects into it. */
  readonly moves: boolean;
  /**
   * The namespace the build sets, when written as a string (the outermost kustomization's that
   * sets one): it is also the name the build gives a Namespace object of the file (kustomize's
   * namespace field specs: metadata/name of kind Namespace).
   */
  readonly namespace?: string;
}

/** Chains deeper than this are not followed (a hostile tree of folders listing each other). */
const MAX_DEPTH = 64;
/**
 * Builds of one file past this are not listed (folders listed by many overlays, each listed by
 * many more, multiply): the file is then taken as in no build (its names as written).
 */
const MAX_BUILDS = 1000;
const KUSTOMIZATION_FILES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

export class KustomizeNames {
  readonly #listings: readonly KustomizationListing[];
  readonly #builds = new Map<string, readonly BuildOfFile[] | null>();
  /** Every level's chain of each file (root: the kustomization that level ends at, as a real path); null: not followed. */
  readonly #levels = new Map<string, readonly { root: string; prefix: string; suffix: string }[] | null>();
  readonly #realPaths = new Map<string, string>();

  /** Kustomizations with a patch or replacement that may select a policy or a binding: it may rename, delete or rebind one. */
  readonly #patching: ReadonlySet<string>;

  constructor(listings: readonly KustomizationListing[], patches: readonly KustomizePatch[] = []) {
    // A patch of their metadata that keeps the name (an annotation, the namespace) changes no name.
    this.#patching = new Set(patches.filter((patch) => patch.keepsName !== true && POLICY_KINDS.some((kind) => mayTargetKind(patch.target, kind))).map((patch) => patch.file));
    // The first document of each kustomization file kustomize reads; unreadable ones list nothing.
    // A folder with two kustomization files does not build (kustomize: "Found multiple
    // kustomization files"): none of them is counted.
    const seen = new Set<string>();
    const filesByFolder = new Map<string, Set<string>>();
    for (const listing of listings) {
      if (!KUSTOMIZATION_FILES.has(basename(listing.file))) continue;
      const folder = dirname(realPath(resolve(listing.file)));
      filesByFolder.set(folder, (filesByFolder.get(folder) ?? new Set()).add(basename(listing.file)));
    }
    this.#listings = listings.filter((listing) => {
      if (!KUSTOMIZATION_FILES.has(basename(listing.file)) || seen.has(listing.file)) return false;
      if ((filesByFolder.get(dirname(realPath(resolve(listing.file))))?.size ?? 0) > 1) return false;
      seen.add(listing.file);
      return true;
    });
  }

  /**
   * Every name a kustomization of the run gives objects of `file` on the way to a top build (a
   * base's, then each overlay's): kustomize's name references also match a policyName against
   * such an earlier name. Undefined where the builds are not followed.
   */
  namesOnTheWay(file: string, name: string): ReadonlySet<string> | undefined {
    if (this.#listings.length === 0 || file === '<stdin>') return new Set([name]);
    const levels = this.#levelsOf(file);
    return levels === null ? undefined : new Set([name, ...levels.map((level) => `${level.prefix}${name}${level.suffix}`)]);
  }

  /**
   * The prefixes and suffixes around the names of objects of `file` that a patch of the
   * kustomization `at` may select them by (kustomize's transformer order): those the
   * kustomizations below it on the way give (`below`: a `patches` target runs before its own
   * namePrefix); those with its own around them (`through`: a legacy patchesJson6902 runs after
   * it, and sees the name then and the one written, s47b A); or those of any level (`anyLevel`: a
   * strategic-merge patch without a target and a replacement select by any name the object had).
   * [] where no chain of the run's kustomizations leads from the file to it; undefined where the
   * builds are not followed or `at` is not one of the kustomizations followed.
   */
  affixesAt(file: string, at: string, how: 'below' | 'through' | 'anyLevel'): NameAffixes {
    if (this.#listings.length === 0 || file === '<stdin>') return [];
    const levels = this.#levelsOf(file);
    if (levels === null) return undefined;
    const kustomization = this.#real(at);
    const listing = this.#listings.find((each) => this.#real(each.file) === kustomization);
    if (listing === undefined) return undefined;
    const own = { prefix: listing.namePrefix ?? '', suffix: listing.nameSuffix ?? '' };
    // A chain's prefix is the outermost kustomization's first: this one's own is its start.
    const through = levels.filter((level) => level.root === kustomization);
    const below = through.map(({ prefix, suffix }) => ({ prefix: prefix.slice(own.prefix.length), suffix: suffix.slice(0, suffix.length - own.suffix.length) }));
    // Any level: also what the levels above another put around it (a name a rename gave there, s47a H4).
    const above = how === 'anyLevel' ? levels.flatMap((outer) => levels.filter((inner) => inner !== outer && outer.prefix.endsWith(inner.prefix) && outer.suffix.startsWith(inner.suffix)).map((inner) => ({ prefix: outer.prefix.slice(0, outer.prefix.length - inner.prefix.length), suffix: outer.suffix.slice(inner.suffix.length) }))) : [];
    const all = how === 'below' ? below : how === 'through' ? through : [...below, ...levels, ...above];
    return [...new Map(all.map(({ prefix, suffix }) => [`${prefix}\0${suffix}`, { prefix, suffix }])).values()];
  }

  /** Every level's chain of the file (each kustomization on the way, to a top build), kept; null when not followed. */
  #levelsOf(file: string): readonly { root: string; prefix: string; suffix: string }[] | null {
    const path = realPath(resolve(file));
    let levels = this.#levels.get(path);
    if (levels === undefined) {
      const budget = { left: MAX_BUILDS };
      const chains = this.#buildsOfPath(path, new Set(), 0, budget, true);
      levels = budget.left < 0 ? null : chains.map((build) => ({ root: this.#real(build.root), prefix: build.prefix, suffix: build.suffix }));
      this.#levels.set(path, levels);
    }
    return levels;
  }

  #real(file: string): string {
    let found = this.#realPaths.get(file);
    if (found === undefined) this.#realPaths.set(file, (found = realPath(resolve(file))));
    return found;
  }

  /**
   * Every top build of the run that holds `file`, with the prefix and suffix it gives the file's
   * objects; none when no kustomization builds it, or when the tree is past what is followed.
   */
  buildsOf(file: string): readonly BuildOfFile[] {
    return this.topBuildsOf(file) ?? [];
  }

  /**
   * Every top build of the run that holds `file` (none when no kustomization builds it), or
   * undefined when the tree is past what is followed (a component, a configuration, a patch that
   * may rename): its objects' names in the cluster are then not known.
   */
  topBuildsOf(file: string): readonly BuildOfFile[] | undefined {
    if (this.#listings.length === 0 || file === '<stdin>') return [];
    const path = realPath(resolve(file));
    let builds = this.#builds.get(path);
    if (builds === undefined) {
      const budget = { left: MAX_BUILDS };
      const all = this.#buildsOfPath(path, new Set(), 0, budget, false);
      // One per root, names and namespace; it moves when one of its chains does.
      const unique = new Map<string, BuildOfFile>();
      for (const build of all) {
        const key = `${build.root}\0${build.prefix}\0${build.suffix}\0${build.namespace ?? ''}`;
        const seen = unique.get(key);
        unique.set(key, seen === undefined ? build : { ...seen, moves: seen.moves || build.moves });
      }
      builds = budget.left < 0 ? null : [...unique.values()];
      this.#builds.set(path, builds);
    }
    return builds ?? undefined;
  }

  /** The top builds of `path` (a file, or a kustomization's folder): each chain of kustomizations up to one that nothing builds on. */
  #buildsOfPath(path: string, seen: Set<string>, depth: number, budget: { left: number }, everyLevel: boolean): BuildOfFile[] {
    if (depth > MAX_DEPTH || seen.has(path) || budget.left < 0) return [];
    seen.add(path);
    const builds: BuildOfFile[] = [];
    for (const listing of this.#listings) {
      if (!listing.resources.includes(path)) continue;
      // A component's transformers (its own namePrefix) apply to all that lists it builds, and
      // configurations or transformers may prefix other fields (a policyName): not followed.
      if (listing.component === true || listing.hasComponents === true || listing.configures === true || this.#patching.has(listing.file)) {
        budget.left = -1;
        break;
      }
      const prefix = listing.namePrefix ?? '';
      const suffix = listing.nameSuffix ?? '';
      const moves = listing.moves === true;
      const outer = this.#buildsOfPath(dirname(realPath(resolve(listing.file))), seen, depth + 1, budget, everyLevel);
      if (everyLevel || this.#isTop(listing)) {
        if (--budget.left < 0) break;
        builds.push({ root: listing.file, prefix, suffix, moves, ...(listing.namespace !== undefined ? { namespace: listing.namespace } : {}) });
      }
      for (const build of outer) {
        if (--budget.left < 0) break;
        const namespace = build.namespace ?? listing.namespace;
        builds.push({ root: build.root, prefix: build.prefix + prefix, suffix: suffix + build.suffix, moves: moves || build.moves, ...(namespace !== undefined ? { namespace } : {}) });
      }
    }
    seen.delete(path);
    return builds;
  }

  /** Whether no kustomization of the run builds on this one's folder. */
  #isTop(listing: KustomizationListing): boolean {
    const folder = dirname(realPath(resolve(listing.file)));
    return !this.#listings.some((other) => other !== listing && other.resources.includes(folder));
  }
}

const KUSTOMIZE_NAMES = memoKey<KustomizeNames>('the names the run\'s kustomize builds give');

/** The run's KustomizeNames, made once per run. */
export function kustomizeNamesOf(scope: Pick<RunScope, 'memo' | 'kustomizations' | 'kustomizePatches'>): KustomizeNames {
  return scope.memo.get(KUSTOMIZE_NAMES, () => new KustomizeNames(scope.kustomizations, scope.kustomizePatches));
}
