/** Folders of files for tests that lint a tree, each fresh, all removed after the test file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A function that writes `files` (relative paths, folders made as needed) into a fresh folder and returns its path. */
export function tempFolders(prefix: string): (files: Record<string, string>) => string {
  const work = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let counter = 0;
  return (files) => {
    const dir = join(work, `case-${++counter}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
}
