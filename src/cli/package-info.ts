import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Lazy } from '../cache.js';

/**
 * The project root (where package.json and rules/*.md are): the folder that holds dist/ for the
 * built CLI (dist/src/cli/package-info.js, or the bundle in dist/), two levels up from
 * src/cli/ for the sources under vitest.
 */
export const PROJECT_ROOT = projectRoot(import.meta.url);

export function projectRoot(url: string): string {
  const dist = url.lastIndexOf('/dist/');
  return fileURLToPath(dist >= 0 ? url.slice(0, dist + 1) : new URL('../../', url));
}

const version = new Lazy<string>();

export function toolVersion(): string {
  return version.get(() => (JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { version: string }).version);
}
