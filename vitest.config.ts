import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fuzz-free suite is fast; e2e tests spawn the built bin (npm test builds first).
    testTimeout: 20000,
  },
});
