/**
 * The objects a kustomization's patches change, read from the kustomization alone: each entry of
 * `patches`, `patchesStrategicMerge` and `patchesJson6902`, with its target (the `target` selector,
 * or the kind and name a strategic-merge patch names in its own text). `kubectl kustomize`
 * applies them to the resources; the linter reads the resources as written, so the objects they
 * change are named in the output (the `kustomize-patched` rule), never judged silently.
 */
import { resolve } from 'node:path';
import { isMap, isSeq, LineCounter, parseAllDocuments, type Node } from 'yaml';

/** Which objects a patch applies to; a field left out matches every object. */
export interface PatchTarget {
  readonly kind?: string;
  /** A name, or a regular expression kustomize matches the whole name against. */
  readonly name?: string;
  /** A label or annotation selector the linter does not evaluate: the target may be any object of the kind. */
  readonly selector?: boolean;
}

export interface KustomizePatch {
  /** The kustomization file. */
  readonly file: string;
  /** 1-based line of the patch entry in it. */
  readonly line: number;
  readonly target: PatchTarget;
  /** The patch file, as `readPatch` was given it (undefined for an inline patch). */
  readonly source?: string;
}

/** A kustomization is a few lines; a patch file is read at most this large. */
export const MAX_PATCH_BYTES = 1024 * 1024;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The target of a `target:` selector. */
function selectorTarget(value: unknown): PatchTarget | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const selector = value as Record<string, unknown>;
  const kind = str(selector.kind);
  const name = str(selector.name);
  const selects = str(selector.labelSelector) !== undefined || str(selector.annotationSelector) !== undefined;
  return { ...(kind === undefined ? {} : { kind }), ...(name === undefined ? {} : { name }), ...(selects ? { selector: true } : {}) };
}

/** The objects a strategic-merge patch names (each document's kind and metadata.name); a JSON 6902 list names none. */
function namedTargets(text: string): PatchTarget[] {
  const targets: PatchTarget[] = [];
  let documents;
  try {
    documents = parseAllDocuments(text, { logLevel: 'silent' });
  } catch {
    return [{}];
  }
  if (!Array.isArray(documents)) return [];
  for (const doc of documents) {
    const value: unknown = doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
    if (Array.isArray(value) || value === null) continue;
    if (typeof value !== 'object') {
      // Unreadable: it may change anything.
      targets.push({});
      continue;
    }
    const object = value as { kind?: unknown; metadata?: { name?: unknown } };
    const kind = str(object.kind);
    const name = str(object.metadata?.name);
    targets.push({ ...(kind === undefined ? {} : { kind }), ...(name === undefined ? {} : { name }) });
  }
  return targets;
}

/** `kind: Kustomization` at the start of a line: a kustomization inside a stream. */
export const KUSTOMIZATION_KIND = /^kind:[ \t]*["']?Kustomization\b/m;

/**
 * The patches of the kustomizations in a text: every document of a kustomization file (`whole`),
 * else the documents of kind Kustomization. `readPatch` reads a patch file named by a relative
 * path (undefined when it cannot be read: the patch may then change anything).
 */
export function kustomizePatches(file: string, text: string, whole: boolean, readPatch: (path: string) => string | undefined): KustomizePatch[] {
  const lineCounter = new LineCounter();
  let documents;
  try {
    documents = parseAllDocuments(text, { lineCounter, logLevel: 'silent' });
  } catch {
    return [];
  }
  if (!Array.isArray(documents)) return [];
  const out: KustomizePatch[] = [];
  const lineOf = (node: Node | null | undefined): number => lineCounter.linePos(node?.range?.[0] ?? 0).line;
  const contentTargets = (inline: unknown, path: unknown): PatchTarget[] => {
    if (typeof inline === 'string') return namedTargets(inline);
    if (typeof path === 'string') {
      const read = readPatch(path);
      return read === undefined ? [{}] : namedTargets(read);
    }
    return [];
  };
  for (const doc of documents) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    if (!whole && (root.get('kind') as unknown) !== 'Kustomization') continue;
    for (const field of ['patches', 'patchesJson6902', 'patchesStrategicMerge'] as const) {
      const list = root.get(field, true);
      if (!isSeq(list)) continue;
      for (const item of list.items) {
        const entry: unknown = (item as { toJSON?: () => unknown } | null)?.toJSON?.();
        const line = lineOf(item as Node | null);
        let targets: PatchTarget[];
        let source: string | undefined;
        if (field === 'patchesStrategicMerge') {
          // A file path, or an inline patch (text with a line break).
          if (typeof entry !== 'string') continue;
          if (!entry.includes('\n')) source = entry;
          targets = source === undefined ? namedTargets(entry) : contentTargets(undefined, entry);
        } else {
          if (typeof entry !== 'object' || entry === null) continue;
          const { target, patch, path } = entry as { target?: unknown; patch?: unknown; path?: unknown };
          if (typeof patch !== 'string' && typeof path === 'string') source = path;
          const selected = selectorTarget(target);
          targets = selected !== undefined ? [selected] : contentTargets(patch, path);
        }
        for (const target of targets) out.push({ file, line, target, ...(source === undefined ? {} : { source }) });
      }
    }
  }
  return out;
}

/**
 * The patches that change an object of this kind and name in `file`. A patch file's own object
 * (linted when it is complete, src/engine/load-run.ts) is not changed by the patch it is.
 */
export function patchesChanging(patches: readonly KustomizePatch[], object: { kind: string; name: string | undefined; file: string }): KustomizePatch[] {
  const own = object.file === '<stdin>' ? undefined : resolve(object.file);
  return patches.filter((patch) => (own === undefined || patch.source !== own) && targets(patch.target, object.kind, object.name));
}

/** Whether a patch target selects an object of this kind and name. */
export function targets(target: PatchTarget, kind: string, name: string | undefined): boolean {
  if (target.kind !== undefined && !matchesWhole(target.kind, kind)) return false;
  if (target.name !== undefined && (name === undefined || !matchesWhole(target.name, name))) return false;
  return true;
}

/**
 * kustomize matches selector fields as regular expressions over the whole value. A pattern with
 * an expression's characters is taken to match (it may: the object is named, never judged
 * silently); it is not run, so a hostile pattern costs nothing.
 */
function matchesWhole(pattern: string, value: string): boolean {
  return pattern === value || /[.*+?^${}()|[\]\\]/.test(pattern);
}
