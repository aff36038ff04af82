/**
 * Property-based fuzzing (quick, seeded): mutated fixtures and raw bytes never make the linter
 * throw, every finding lies inside the file, the JSON output parses; a few spawned CLI runs exit
 * 0 or 1 with valid JSON. The long run is `npm run fuzz` (test/fuzz/long-run.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestText, rawBytes, seedObjects, seedTexts } from './fuzz/generators.js';
import { checkBytes, checkText } from './fuzz/properties.js';

/** `npm run fuzz` sets FUZZ_RUNS (default there 50000) and may set FUZZ_SEED; `npm test` runs the quick, fixed-seed set. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const LONG = 24 * 3600_000;
const texts = seedTexts();
const objects = seedObjects(texts);
const BIN = join(import.meta.dirname, '..', 'bin', 'admission-lint.js');

describe('fuzz (quick, seeded)', () => {
  it('has seeds from the fixtures', () => {
    expect(texts.length).toBeGreaterThan(50);
    expect(objects.length).toBeGreaterThan(50);
  });

  it('mutated manifests: no throw, every finding inside the text, JSON parses', async () => {
    await fc.assert(fc.asyncProperty(manifestText(texts, objects), (text) => checkText(text)), { seed: SEED, numRuns: RUNS });
  }, RUNS > 2000 ? LONG : 120_000);

  it('raw bytes: no throw, positions inside the text, JSON parses', async () => {
    await fc.assert(fc.asyncProperty(rawBytes, (bytes) => checkBytes(bytes)), { seed: SEED, numRuns: Math.ceil(RUNS / 2) });
  }, RUNS > 2000 ? LONG : 60_000);

  it('spawned CLI: exit 0 or 1 and valid JSON', () => {
    fc.assert(
      fc.property(manifestText(texts, objects), (text) => {
        const result = spawnSync(process.execPath, [BIN, '--format', 'json', '-'], { input: text, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
        // Blank input is refused (exit 2, one line on stderr): the command before the pipe failed.
        if (/^[ \t\r\n]*$/.test(text)) {
          expect({ status: result.status, stderr: result.stderr.split('\n')[0] }).toEqual({ status: 2, stderr: 'admission-lint: standard input ("-") is empty: nothing to lint' });
          return;
        }
        if (result.status !== 0 && result.status !== 1) throw new Error(`exit ${result.status}: ${result.stderr}`);
        JSON.parse(result.stdout);
      }),
      { seed: SEED, numRuns: Math.max(15, Math.ceil(RUNS / 200)) },
    );
  }, RUNS > 2000 ? LONG : 60_000);
});
