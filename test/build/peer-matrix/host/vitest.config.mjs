// The host app's own vitest run (test/build/peer-matrix.test.ts copies this folder into each host app).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['checks/*.check.ts'],
    // Generous: the matrix runs two host apps at once, beside the rest of the suite.
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
