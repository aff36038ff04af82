import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';
import { KUSTOMIZATION_FILES, resourceEntries } from '../parse/kustomize-fields.js';

/**
 * The largest file read (64 MiB). Manifests are kilobytes; a file past this is reported as not
 * read (a finding), so a pull request cannot make the gate read gigabytes.
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** One input as the user named it. `path` is what every output shows. */
export interface SourceFile {
  readonly path: string;
  /** The decoded text, or null when the bytes are not UTF-8 (reported as a finding). */
  readonly text: string | null;
  /**
   * Set for one template's documents of a rendered stream (`helm template` output, src/load/helm.ts):
   * the stream's own path. `path` is then the template's, and positions are in the stream.
   */
  readonly renderedFrom?: string;
  /**
   * Offsets in `text` of the line feeds that were U+2028 or U+2029 in the file (decodeSource):
   * kubectl keeps those characters in the scalars they end, so a value there is not the one read.
   */
  readonly lineSeparators?: readonly number[];
}

export const STDIN_PATH = '<stdin>';

/**
 * What a folder walk found that changes how its files read, for the CLI to say: Helm charts (a
 * `Chart.yaml` beside a `templates/` folder), whose templates are not walked (they are not YAML
 * until rendered), and the folders that hold a kustomization (their files are read as they are,
 * not built).
 */
export interface WalkNotes {
  readonly charts: { readonly dir: string; readonly templates: number }[];
  readonly kustomizations: string[];
  /** The same folders as the walk reached them (not made for display): for reading their kustomization. */
  readonly kustomizationFolders: string[];
  /** Links to folders outside the walked one that hold a kustomization: not read, but it may build on the run's folders. */
  readonly linkedKustomizations: string[];
}

export function newWalkNotes(): WalkNotes {
  return { charts: [], kustomizations: [], kustomizationFolders: [], linkedKustomizations: [] };
}
/**
 * The extensions `kubectl apply -R -f DIR` reads, compared as kubectl compares them (cli-runtime's
 * FileExtensions against filepath.Ext): case-sensitively, so `A.YAML` is not applied, and not read.
 */
const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

function isManifestName(name: string): boolean {
  return MANIFEST_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/**
 * A file's name as findings show it: one named as standard input is shown (`<stdin>`) is
 * `./<stdin>`, since the formats, --stdin-filename and --fix take `<stdin>` for standard input.
 */
export function fileNamed(path: string): string {
  return path === STDIN_PATH ? `./${path}` : path;
}

/** Keeps the display path in the user's own terms: relative stays relative, `/` separators (fileNamed). */
function displayPath(path: string): string {
  return fileNamed(path.split('\\').join('/'));
}

/** Whether `path` resolves to a place inside `root` (a real path), so a walk never leaves the folder it was given. */
function insideRoot(path: string, root: string): boolean {
  try {
    const real = realpathSync(path);
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    return false;
  }
}

function walk(dir: string, out: string[], root: string, notes: WalkNotes | undefined): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read folder ${displayPath(dir)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A Helm chart: Chart.yaml beside templates/. Its templates are Go templates, not YAML.
  const chart = entries.some((entry) => entry.name === 'Chart.yaml' && !entry.isDirectory()) && entries.some((entry) => entry.name === 'templates' && entry.isDirectory());
  if (notes !== undefined && entries.some((entry) => KUSTOMIZATION_FILES.includes(entry.name) && !entry.isDirectory())) {
    notes.kustomizations.push(displayPath(dir));
    notes.kustomizationFolders.push(dir);
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Every folder kubectl -R walks is read (dot-folders and node_modules too), except `.git`:
      // git's own data, which no commit can hold a file in.
      if (entry.name === '.git') continue;
      // A Helm chart's templates are Go templates, not YAML until rendered: counted and said.
      if (chart && entry.name === 'templates') {
        const templates: string[] = [];
        // Not linted, but a kustomization in there may build on the run's folders: recorded.
        const inner = notes === undefined ? undefined : { charts: [], kustomizations: [], kustomizationFolders: notes.kustomizationFolders, linkedKustomizations: notes.linkedKustomizations };
        walk(full, templates, root, inner);
        notes?.charts.push({ dir: displayPath(dir), templates: templates.length });
        continue;
      }
      walk(full, out, root, notes);
    } else if (entry.isSymbolicLink() && notes !== undefined && isFolder(full)) {
      // A link to a folder is not walked (loops), but a kustomization in it may build on the
      // run's folders (an overlay): inside the walked folder it is read with the others, from
      // its real folder, as kustomize resolves it (src/engine/load-run.ts); outside, or past
      // what is searched, it is not read, and counts as a kustomization of unknown effect.
      const found = kustomizationsUnder(full);
      if (found === undefined) notes.linkedKustomizations.push(full);
      else if (insideRoot(full, root)) notes.kustomizationFolders.push(...found.map((file) => dirname(realpathSync(file))));
      else notes.linkedKustomizations.push(...found);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && KUSTOMIZATION_FILES.includes(entry.name) && !isManifestName(entry.name)) {
      // `Kustomization` (no extension) is not a manifest, but what it names is applied.
      kustomizedFiles(full, dir, out, root);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && isManifestName(entry.name)) {
      // A symlink is linted only when it points at a regular file inside the folder being linted:
      // links to folders are not followed (loops), and a pull request's link to /etc/passwd or
      // to a file outside the repository is not read.
      if (entry.isSymbolicLink()) {
        try {
          if (!statSync(full).isFile() || !insideRoot(full, root)) continue;
        } catch {
          continue;
        }
      }
      out.push(full);
      if (KUSTOMIZATION_FILES.includes(entry.name)) kustomizedFiles(full, dir, out, root);
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Entries a search of a linked folder for kustomizations visits at most. */
const MAX_LINKED_ENTRIES = 2000;

/**
 * The kustomization files in a linked folder and the folders under it (links in it not
 * followed), or undefined when the search would visit more than MAX_LINKED_ENTRIES entries.
 */
function kustomizationsUnder(path: string): string[] | undefined {
  const found: string[] = [];
  let visited = 0;
  const folders = [path];
  for (let at = 0; at < folders.length; at++) {
    let entries;
    try {
      entries = readdirSync(folders[at]!, { withFileTypes: true });
    } catch {
      continue;
    }
    visited += entries.length;
    if (visited > MAX_LINKED_ENTRIES) return undefined;
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== '.git') folders.push(join(folders[at]!, entry.name));
      else if (KUSTOMIZATION_FILES.includes(entry.name) && !entry.isDirectory()) found.push(join(folders[at]!, entry.name));
    }
  }
  return found;
}

/** A kustomization is a few lines; a larger one (or a link to a device) is not read for this. */
const MAX_KUSTOMIZATION_BYTES = 1024 * 1024;

/**
 * The files a kustomization names (`resources` and the like) that the walk would not read for
 * their extension (`webhook.txt`): kustomize applies them, so they are read too. Only regular
 * files inside the folder being walked: a pull request's kustomization naming `../../etc/passwd`
 * or a device reads nothing.
 */
function kustomizedFiles(kustomization: string, dir: string, out: string[], root: string): void {
  const read = readRegularFile(kustomization, MAX_KUSTOMIZATION_BYTES);
  if (read.kind !== 'ok') return;
  for (const entry of resourceEntries(Buffer.from(read.bytes).toString('utf8'))) {
    const full = join(dir, entry);
    // A .yaml, .yml or .json file inside the folder is walked anyway.
    if (isManifestName(basename(full))) continue;
    try {
      if (!statSync(full).isFile() || !insideRoot(full, root)) continue;
    } catch {
      continue;
    }
    out.push(full);
  }
}

/**
 * Expands the user's paths into the files to lint, in a stable order. Fails before any output
 * when a path does not exist, so a typo never looks like a clean result. A folder walk skips a
 * Helm chart's `templates/` (a template named as a file is read); `notes` collects what the walk
 * found for the CLI to say.
 */
export function expandPaths(paths: readonly string[], notes?: WalkNotes): string[] {
  const files: string[] = [];
  for (const given of paths) {
    if (given === '-') {
      files.push('-');
      continue;
    }
    let stats;
    try {
      stats = statSync(given);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputError(`no such file or folder: ${displayPath(given)}`);
      throw new InputError(`cannot read ${displayPath(given)}: ${code ?? String(error)}`);
    }
    if (stats.isDirectory()) walk(given, files, realpathSync(given), notes);
    else if (stats.isFile()) files.push(given);
    // A device, FIFO or socket would be read forever or block: name it, exit 2.
    else throw new InputError(`not a regular file: ${displayPath(given)} (a device, FIFO or socket is not read)`);
  }
  // One path named twice (`a.yaml ./a.yaml`, a folder and a file in it) is linted once, under the
  // first name it was given: its findings would be reported twice otherwise. (A link is a name of
  // its own: it is linted, and never written through by --fix, as before.)
  const seen = new Set<string>();
  return files.filter((file) => {
    const key = file === '-' ? '-' : sameFileKey(file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What names one path however it is spelled: its absolute, normalized form. */
function sameFileKey(path: string): string {
  return resolve(path);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text as kubectl's YAML reader sees it. go-yaml (YAML 1.1) breaks lines at CR, LF, CRLF,
 * NEL (U+0085), LS and PS (U+2028, U+2029); `yaml` and our line scans break at LF and CRLF
 * only, so a comment "ended" by a lone CR or NEL would hide the line after it. Those breaks
 * become LF, at the same offsets. A byte-order mark at the start of the stream or of a document
 * (right after a `---` line) is dropped, as each document kubectl decodes starts afresh.
 */
export function normalizeBreaks(text: string): string {
  return normalized(text).text;
}

/**
 * normalizeBreaks, and the offsets (in the text it returns) of the line and paragraph separators
 * (U+2028, U+2029) it made line feeds. go-yaml ends a line at them too, but keeps the character
 * in the scalar it ends where `yaml` folds a line feed: there the value kubectl reads is not the
 * one the linter reads (src/parse/yaml.ts reports it).
 */
function normalized(text: string): { text: string; lineSeparators: number[] } {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let lineSeparators: number[] = [];
  if (/\r(?!\n)|[\u0085\u2028\u2029]/.test(out)) {
    out = out.replace(/\r(?!\n)|[\u0085\u2028\u2029]/g, (found: string, at: number) => {
      if (found === '\u2028' || found === '\u2029') lineSeparators.push(at);
      return '\n';
    });
  }
  if (out.includes('\ufeff')) {
    // A byte-order mark dropped moves every separator after it back by one.
    const dropped: number[] = [];
    out = out.replace(/^(---[ \t]*(?:#[^\n]*)?\r?\n)\ufeff/gm, (_: string, marker: string, at: number) => {
      dropped.push(at + marker.length);
      return marker;
    });
    if (dropped.length > 0) lineSeparators = lineSeparators.map((offset) => offset - dropped.filter((at) => at < offset).length);
  }
  return { text: out, lineSeparators };
}

export function decode(bytes: Uint8Array): string | null {
  return decodeSource(bytes)?.text ?? null;
}

/** decode, with the line separators it made line feeds (see normalized); null when the bytes are not UTF-8. */
export function decodeSource(bytes: Uint8Array): { readonly text: string; readonly lineSeparators: readonly number[] } | null {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  return normalized(text);
}

/** One input's bytes, before they are decoded (most files of a repository never are). */
export interface RawSource {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Set, with the file's size, when it is larger than MAX_FILE_BYTES and was not read. */
  readonly tooLarge?: number;
}

export function readBytes(file: string, readStdin: () => Uint8Array): RawSource {
  if (file === '-') {
    const bytes = readStdin();
    return bytes.length > MAX_FILE_BYTES ? { path: STDIN_PATH, bytes: new Uint8Array(), tooLarge: bytes.length } : { path: STDIN_PATH, bytes: asUtf8(bytes) };
  }
  const read = readRegularFile(file, MAX_FILE_BYTES);
  if (read.kind === 'error') throw new InputError(`cannot read ${displayPath(file)}: ${read.code}`);
  if (read.kind === 'not-regular') throw new InputError(`not a regular file: ${displayPath(file)} (a device, FIFO or socket is not read)`);
  if (read.kind === 'too-large') return { path: displayPath(file), bytes: new Uint8Array(), tooLarge: read.size };
  return { path: displayPath(file), bytes: asUtf8(read.bytes) };
}

/**
 * A UTF-16 file with a byte-order mark as UTF-8 bytes: go-yaml reads such a file (it looks for
 * the mark), so kubectl applies it; every later step reads UTF-8. Other bytes as they are (a
 * file that is not UTF-8 is reported where it is decoded).
 */
function asUtf8(bytes: Uint8Array): Uint8Array {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (encoding === undefined) return bytes;
  try {
    return new TextEncoder().encode(new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(2)));
  } catch {
    return bytes;
  }
}

export type RegularFileRead =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'too-large'; readonly size: number }
  | { readonly kind: 'not-regular' }
  | { readonly kind: 'error'; readonly code: string };

/**
 * Reads a file only if it is a regular file of at most `limit` bytes, deciding on the opened
 * descriptor (what is read is what was checked, even if the path is swapped in between). The
 * open does not block on a FIFO (O_NONBLOCK), and nothing is read from a device.
 */
export function readRegularFile(file: string, limit: number): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { kind: 'error', code: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: 'not-regular' };
    if (stats.size > limit) return { kind: 'too-large', size: stats.size };
    const bytes = Buffer.alloc(stats.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { kind: 'ok', bytes: at === bytes.length ? bytes : bytes.subarray(0, at) };
  } catch (error) {
    return { kind: 'error', code: (error as NodeJS.ErrnoException).code ?? String(error) };
  } finally {
    closeSync(fd);
  }
}

/** Reads standard input, at most one byte past MAX_FILE_BYTES (`< /dev/zero` must end). */
export function readStdinSync(): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.alloc(Math.min(1024 * 1024, MAX_FILE_BYTES + 1 - total));
      const n = readSync(0, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > MAX_FILE_BYTES) break;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No stdin at all (closed descriptor) reads as empty input rather than a crash.
    if (!(code === 'EAGAIN' || code === 'EOF' || code === 'EBADF')) throw new InputError(`cannot read standard input: ${code ?? String(error)}`);
  }
  return Buffer.concat(chunks);
}
