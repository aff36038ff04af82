/**
 * What a kustomization file names, read from its text alone: the files it applies
 * (`resources`, `crds`, `components` and the older `bases`). `kubectl apply -k` and
 * `kubectl kustomize` read a file named there whatever its extension, and wherever it is (a
 * dot-folder too), so a folder walk reads it as well (src/load/sources.ts).
 */
import { parse } from 'yaml';

/** The names a kustomization file has (kustomize's konfig.RecognizedKustomizationFileNames). */
export const KUSTOMIZATION_FILES: readonly string[] = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const RESOURCE_FIELDS = ['resources', 'crds', 'components', 'bases'] as const;

/** The entries of the fields that name files to apply; URLs and non-strings are left out. */
export function resourceEntries(text: string): string[] {
  let document: unknown;
  try {
    document = parse(text, { logLevel: 'silent' });
  } catch {
    return [];
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return [];
  const entries: string[] = [];
  for (const field of RESOURCE_FIELDS) {
    const list = (document as Record<string, unknown>)[field];
    if (!Array.isArray(list)) continue;
    for (const entry of list) if (typeof entry === 'string' && entry !== '' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) && !entry.includes('\n')) entries.push(entry);
  }
  return entries;
}
