/** The test suites' walk of a folder for manifests. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.yaml`/`.yml` file under `dir` (and `.json` with `json`), sorted by name per folder; none when `dir` is missing (../shared on a machine without it). */
export function yamlFiles(dir: string, options: { readonly json?: boolean } = {}): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const wanted = options.json === true ? /\.(ya?ml|json)$/ : /\.ya?ml$/;
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path, options);
    return wanted.test(name) ? [path] : [];
  });
}
