import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';

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
}

export const STDIN_PATH = '<stdin>';
const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

function isManifestName(name: string): boolean {
  const lower = name.toLowerCase();
  return MANIFEST_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Keeps the display path in the user's own terms: relative stays relative, `/` separators. */
function displayPath(path: string): string {
  return path.split('\\').join('/');
}

function walk(dir: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read folder ${displayPath(dir)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Dot-folders (.git, .github caches) and dependencies are never manifests to lint.
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      walk(full, out);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && isManifestName(entry.name)) {
      // A symlink is linted only when it points at a file; links to folders are not followed (loops).
      if (entry.isSymbolicLink()) {
        try {
          if (!statSync(full).isFile()) continue;
        } catch {
          continue;
        }
      }
      out.push(full);
    }
  }
}

/**
 * Expands the user's paths into the files to lint, in a stable order. Fails before any output
 * when a path does not exist, so a typo never looks like a clean result.
 */
export function expandPaths(paths: readonly string[]): string[] {
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
    if (stats.isDirectory()) walk(given, files);
    else files.push(given);
  }
  return [...new Set(files)];
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
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/\r(?!\n)|[\u0085\u2028\u2029]/.test(out)) out = out.replace(/\r(?!\n)|[\u0085\u2028\u2029]/g, '\n');
  if (out.includes('\ufeff')) out = out.replace(/^(---[ \t]*(?:#[^\n]*)?\r?\n)\ufeff/gm, '$1');
  return out;
}

export function decode(bytes: Uint8Array): string | null {
  try {
    return normalizeBreaks(utf8.decode(bytes));
  } catch {
    return null;
  }
}

/** One input's bytes, before they are decoded (most files of a repository never are). */
export interface RawSource {
  readonly path: string;
  readonly bytes: Uint8Array;
}

export function readBytes(file: string, readStdin: () => Uint8Array): RawSource {
  if (file === '-') return { path: STDIN_PATH, bytes: readStdin() };
  try {
    return { path: displayPath(file), bytes: readFileSync(file) };
  } catch (error) {
    throw new InputError(`cannot read ${displayPath(file)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export function readStdinSync(): Uint8Array {
  try {
    return readFileSync(0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No stdin at all (closed descriptor) reads as empty input rather than a crash.
    if (code === 'EAGAIN' || code === 'EOF' || code === 'EBADF') return new Uint8Array();
    throw new InputError(`cannot read standard input: ${code ?? String(error)}`);
  }
}
