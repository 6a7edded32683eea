import { defineConfig } from 'vitest/config'

/** Unit and integration tests: the core on Node, real temp dirs, PTYs and child processes. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ['default'],
  },
})
