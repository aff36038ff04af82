import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project root: dist/src/cli/ → three levels up (also right for src/cli/ under vitest). */
export const PROJECT_ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url));

let version: string | undefined;

export function toolVersion(): string {
  version ??= (JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { version: string }).version;
  return version;
}
