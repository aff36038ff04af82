// The file walk the CLI does (src/load/sources.ts): recursive, sorted, .yaml/.yml/.json,
// skipping node_modules and dot-folders. Shared by both baselines so they do the same I/O.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const EXT = /\.(ya?ml|json)$/i;

export function walk(dir, out = []) {
  const entries = readdirSync(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      walk(full, out);
    } else if (entry.isFile() && EXT.test(entry.name)) out.push(full);
  }
  return out;
}
