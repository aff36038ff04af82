/** kubectl reads every file that lint --fix fixed (`kubectl annotate --local -f`, as kubectl apply decodes): slow suite. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixCases } from './fix-cases.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasKubectl)('kubectl reads the fixed files', async () => {
  const { cases } = await fixCases();
  it('every file kubectl read before --fix, it reads after', () => {
    const unread: string[] = [];
    for (const c of cases) {
      const before = spawnSync('kubectl', ['annotate', '--local', '-f', c.file, 'x=y', '-o', 'json'], { encoding: 'utf8' });
      const now = spawnSync('kubectl', ['annotate', '--local', '-f', c.fixedFile, 'x=y', '-o', 'json'], { encoding: 'utf8' });
      if (before.status === 0 && now.status !== 0) unread.push(`${c.file}: ${now.stderr.split('\n')[0]}`);
    }
    expect(cases.length).toBeGreaterThan(30);
    expect(unread).toEqual([]);
  }, 900_000);
});
