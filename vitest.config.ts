import { defineConfig } from 'vitest/config';

/**
 * Suites that install or run real tools (pre-commit, Chromium, kubectl, the SARIF validator, npm),
 * rebuild the bundle, read tens of thousands of files, or compare every position of every
 * document of the fixtures and corpora: `npm run test:slow`, which CI runs too.
 * `npm test` runs everything else, for fast feedback.
 */
export const SLOW_TESTS = [
  'test/pre-commit.test.ts',
  'test/package-tarball.test.ts',
  'test/package-standalone-committed.test.ts',
  'test/report-html-chromium.test.ts',
  'test/kubectl-differential.test.ts',
  'test/simple-yaml-kubectl.test.ts',
  'test/format-sarif.test.ts',
  'test/build-bundle.test.ts',
  'test/hostile-inputs.test.ts',
  'test/probe.test.ts',
  'test/fix-kubectl.test.ts',
  'test/positions-on-demand.test.ts',
  'test/linear-reading.test.ts',
];

const slow = process.env.ADMISSION_LINT_TESTS === 'slow';

export default defineConfig({
  test: {
    include: slow ? SLOW_TESTS : ['test/**/*.test.ts'],
    exclude: slow ? [] : SLOW_TESTS,
    // Every temporary folder a test makes is in one, removed when the run ends.
    globalSetup: ['test/global-temp.ts'],
    // e2e tests spawn the built bin (npm test builds first).
    testTimeout: 20000,
  },
});
