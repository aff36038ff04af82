/**
 * Kustomize patches are partial objects (a webhook's name and the fields to change), merged
 * onto a base by `kustomize build`. Linting one on its own reports fields it is not meant to
 * have, so files that a kustomization in their folder lists as patches are not linted as
 * objects (`kustomize build | admission-lint -` lints the merged result).
 */
import { groupBy, pushAll } from '../collections.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { readRegularFile } from '../load/sources.js';
import { KUSTOMIZATION_FILES } from './kustomize-fields.js';
import { kustomizationListings, kustomizePatches, MAX_PATCH_BYTES, realPath, type KustomizationListing, type KustomizePatch } from './kustomize-patches.js';

/** A patch file's text (a regular file of sane size only), for the kind and name it patches. */
export function readPatchFile(folder: string, path: string): string | undefined {
  const read = readRegularFile(resolve(folder, path), MAX_PATCH_BYTES);
  return read.kind === 'ok' ? Buffer.from(read.bytes).toString('utf8') : undefined;
}

/** A kustomization is a few lines; a larger one (or a link to a device) is not read. */
const MAX_KUSTOMIZATION_BYTES = 1024 * 1024;

/** Fields of a kustomization that change or add objects: what `kustomize build` does that reading its files does not. */
const CHANGES: readonly (readonly [string, string])[] = [
  ['patches', 'patches'],
  ['patchesStrategicMerge', 'patches'],
  ['patchesJson6902', 'patches'],
  ['namespace', 'namespace'],
  ['namePrefix', 'name prefix'],
  ['nameSuffix', 'name suffix'],
  ['commonLabels', 'labels'],
  ['labels', 'labels'],
  ['commonAnnotations', 'annotations'],
  ['replacements', 'replacements'],
  ['components', 'components'],
  ['images', 'images'],
  ['replicas', 'replicas'],
  ['helmCharts', 'Helm charts'],
  ['configMapGenerator', 'generators'],
  ['secretGenerator', 'generators'],
];

/** What building a kustomization would change, and the folders it builds on. */
export interface KustomizationSummary {
  /**
   * What building it would change that reading its files does not: patches applied, a namespace
   * or prefix set, resources from outside the folder (`../base`, a URL). Empty when it only lists
   * files of its folder.
   */
  readonly changes: readonly string[];
  /** The local folders it lists (`resources`, `bases`, `components`), resolved, symbolic links followed. */
  readonly folders: readonly string[];
  /** A local file or folder it lists is not there: kustomize fails to build it (a template whose file a pipeline writes). */
  readonly missing?: true;
}

/** The kustomization in `folder`, summed up; undefined when there is none or it cannot be read. */
export function summarizeKustomization(folder: string): KustomizationSummary | undefined {
  for (const name of KUSTOMIZATION_FILES) {
    const read = readRegularFile(join(folder, name), MAX_KUSTOMIZATION_BYTES);
    if (read.kind !== 'ok') continue;
    let document: unknown;
    try {
      document = parse(Buffer.from(read.bytes).toString('utf8'), { logLevel: 'silent' });
    } catch {
      return undefined;
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
    const fields = document as Record<string, unknown>;
    const changes = new Set<string>();
    for (const [key, what] of CHANGES) {
      const value = fields[key];
      if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) changes.add(what);
    }
    const listed = (key: string): string[] => (Array.isArray(fields[key]) ? (fields[key] as unknown[]).filter((entry): entry is string => typeof entry === 'string') : []);
    const resources = listed('resources');
    // A resource outside the folder (a base, a URL) is not among the files read here.
    if (resources.some((resource) => resource.includes('://') || resource.startsWith('..') || resource.startsWith('/') || /^[\w.-]+\.[a-z]+\/[\w.-]+\//.test(resource))) changes.add('resources from outside the folder');
    const local = [...resources, ...listed('bases'), ...listed('components')].filter((entry) => !isRemote(entry));
    const folders = local.map((entry) => realPath(resolve(folder, entry))).filter(isFolder);
    const missing = local.some((entry) => !existsSync(resolve(folder, entry)));
    return { changes: [...changes], folders, ...(missing ? { missing: true as const } : {}) };
  }
  return undefined;
}

/** A resource kustomize fetches: a URL, `github.com/…`, `git@…`. */
function isRemote(entry: string): boolean {
  return entry.includes('://') || entry.startsWith('git@') || /^[\w.-]+\.[a-z]+\/[\w.-]+\//.test(entry);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function patchPaths(text: string): string[] {
  let document: unknown;
  try {
    document = parse(text, { logLevel: 'silent' });
  } catch {
    return [];
  }
  if (typeof document !== 'object' || document === null) return [];
  const { patches, patchesStrategicMerge } = document as { patches?: unknown; patchesStrategicMerge?: unknown };
  const paths: string[] = [];
  if (Array.isArray(patches)) {
    for (const patch of patches) {
      const path = (patch as { path?: unknown } | null)?.path;
      if (typeof path === 'string') paths.push(path);
    }
  }
  if (Array.isArray(patchesStrategicMerge)) {
    // Entries are file paths, or inline patches (which contain a newline).
    for (const entry of patchesStrategicMerge) if (typeof entry === 'string' && !entry.includes('\n')) paths.push(entry);
  }
  return paths;
}

/**
 * Answers, per file, whether a kustomization beside it lists it as a patch, and collects what the
 * patches of every kustomization beside a file of the run change (`changes`). Caches per folder.
 */
/** The names in a folder, or undefined when it cannot be listed. */
function folderNames(folder: string): ReadonlySet<string> | undefined {
  try {
    return new Set(readdirSync(folder));
  } catch {
    return undefined;
  }
}

export class KustomizePatches {
  /** The folders whose kustomization (if any) was read. */
  private readonly visited = new Set<string>();
  /** Every patch file a kustomization read so far lists, wherever it is (`patches/x.yaml`, `../common/x.yaml`). */
  private readonly patchFiles = new Set<string>();
  /** The patches of the kustomizations read so far, in order. */
  readonly changes: KustomizePatch[] = [];
  /** The kustomizations read so far: what they list. */
  readonly listings: KustomizationListing[] = [];
  /** The kustomizations of folders above the run's files, by folder, read only to see what they list (isUnlisted). */
  private readonly aboveListings = new Map<string, readonly KustomizationListing[] | undefined>();

  /**
   * Whether a kustomization read so far (the one beside the file, and those beside the other
   * files of the run: src/engine/load-run.ts visits them all first) lists the file as a patch.
   */
  isPatch(file: string): boolean {
    if (file === '-') return false;
    this.visit(file);
    return this.patchFiles.has(resolve(file));
  }

  /**
   * Whether a file lies beside a kustomization (read, and readable) that does not list it, or in
   * a hidden folder below one of the run's kustomizations (a test fixture in `.chainsaw-test/`:
   * kustomize takes a folder's files only as listed), and no
   * kustomization read so far lists it, as a resource or as a patch: `kubectl apply -k` of its
   * folder never sends it (a scaffold's patch left commented out of the list).
   */
  isUnlisted(file: string): boolean {
    if (file === '-' || this.isPatch(file)) return false;
    const absolute = resolve(file);
    // Most files have no kustomization beside them or above them in the run: asked first, without a system call.
    const { byFolder } = this.index();
    if (byFolder.size === 0) return false;
    let under = (byFolder.get(dirname(absolute)) ?? []).length > 0;
    // Below a kustomization's folder, only inside a hidden folder (`.chainsaw-test/`): a plain
    // subfolder may be applied by other means (kubectl apply -R, a GitOps tool's directory source,
    // which generates a kustomization for a folder without one), and its objects linted so (s43b 4).
    let hidden = false;
    for (let folder = dirname(absolute); !under && dirname(folder) !== folder; folder = dirname(folder)) {
      if (basename(folder).startsWith('.')) hidden = true;
      under = hidden && (byFolder.get(dirname(folder)) ?? []).length > 0;
    }
    if (!under) return false;
    const real = realPath(absolute);
    const { files, anyUnreadable } = this.index();
    // One that could not be read may list anything.
    if (anyUnreadable || files.has(real) || files.has(absolute)) return false;
    const lists = (listing: KustomizationListing): boolean => listing.unreadable === true || listing.resources.includes(real) || listing.resources.includes(absolute);
    // kustomize lets a kustomization list files under its own folder only (its default load
    // restrictor, the one `kubectl apply -k` uses): the kustomizations of the folders above are
    // the others that may list it (s40 H2), read here even when the run did not reach them.
    for (let folder = dirname(dirname(absolute)); ; folder = dirname(folder)) {
      const above = this.listingsIn(folder);
      if (above === undefined || above.some(lists)) return false;
      if (dirname(folder) === folder) return true;
    }
  }

  /** The listings read so far by folder, and every resource they list: rebuilt when a kustomization was read since (all are, before the files are). */
  private indexed: { readonly count: number; readonly byFolder: ReadonlyMap<string, readonly KustomizationListing[]>; readonly files: ReadonlySet<string>; readonly anyUnreadable: boolean } | undefined;

  private index(): NonNullable<KustomizePatches['indexed']> {
    if (this.indexed?.count !== this.listings.length) {
      this.indexed = {
        count: this.listings.length,
        byFolder: groupBy(this.listings, (listing) => dirname(resolve(listing.file))),
        files: new Set(this.listings.flatMap((listing) => listing.resources)),
        anyUnreadable: this.listings.some((listing) => listing.unreadable === true),
      };
    }
    return this.indexed;
  }

  /** The kustomizations of a folder above a file (read once), or undefined when the folder cannot be listed. */
  private listingsIn(folder: string): readonly KustomizationListing[] | undefined {
    if (this.aboveListings.has(folder)) return this.aboveListings.get(folder);
    const present = folderNames(folder);
    let listings: KustomizationListing[] | undefined = present === undefined ? undefined : [];
    for (const name of KUSTOMIZATION_FILES) {
      if (listings === undefined || !present!.has(name)) continue;
      const read = readRegularFile(join(folder, name), MAX_KUSTOMIZATION_BYTES);
      listings = read.kind !== 'ok' ? undefined : [...listings, ...kustomizationListings(join(folder, name), folder, Buffer.from(read.bytes).toString('utf8'), true, (path) => readPatchFile(folder, path))];
    }
    this.aboveListings.set(folder, listings);
    return listings;
  }

  /** Reads the kustomization beside a file of the run, if it was not read yet. */
  visit(file: string): void {
    if (file !== '-') this.visitFolder(dirname(file));
  }

  /** A kustomization that is there and is not read (behind a link out of the walked folder): what it builds is not known. */
  notRead(file: string): void {
    this.listings.push({ file: file.split('\\').join('/'), resources: [], transformsAfterPatches: true, renames: true, unreadable: true });
  }

  /** Reads the kustomization in a folder of the run (one the walk found, perhaps with no manifest beside it), if it was not read yet. */
  visitFolder(shown: string): void {
    const folder = resolve(shown);
    if (this.visited.has(folder)) return;
    this.visited.add(folder);
    this.read(folder, shown);
  }

  private read(folder: string, shown: string): void {
    // One listing of the folder instead of an open per name: most folders have no kustomization,
    // and a failed open costs more than a listing. A folder that cannot be listed is tried by name.
    const present = folderNames(folder);
    for (const name of KUSTOMIZATION_FILES) {
      if (present !== undefined && !present.has(name)) continue;
      // Only a regular file of sane size: a pull request's kustomization.yaml may be a link to
      // /dev/zero or /dev/stdin. An unreadable one only means we lint its patches as objects.
      const read = readRegularFile(join(folder, name), MAX_KUSTOMIZATION_BYTES);
      if (read.kind !== 'ok') {
        // Named like a kustomization and not read: what it builds is not known (its patches are linted as objects).
        this.listings.push({ file: join(shown, name).split('\\').join('/'), resources: [], transformsAfterPatches: true, renames: true, unreadable: true });
        continue;
      }
      const text = Buffer.from(read.bytes).toString('utf8');
      for (const patch of patchPaths(text)) this.patchFiles.add(resolve(folder, patch));
      const patched = kustomizePatches(join(shown, name).split('\\').join('/'), text, true, (path) => readPatchFile(folder, path));
      pushAll(this.listings, kustomizationListings(join(shown, name).split('\\').join('/'), folder, text, true, (path) => readPatchFile(folder, path)));
      // A patch file's own objects are not changed by the patch they are (they are linted only when complete).
      pushAll(this.changes, patched.map((patch) => (patch.source === undefined ? patch : { ...patch, source: resolve(folder, patch.source) })));
    }
  }
}
