import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { injectCspMeta } from './src/shared/csp'

/**
 * Three builds: the main process (plus the CLI, which shares its core), the sandboxed preload
 * (CommonJS, as sandboxed preloads must be) and the renderer, which the browser host serves too.
 */
const BUNDLED = ['@anthropic-ai/sdk', 'zod', 'ws', 'picomatch', 'ignore', 'turndown', 'tinyglobby']

export default defineConfig({
  main: {
    // Pure-JS dependencies are bundled (one file to load instead of hundreds: `sous -p` starts
    // faster, see bench/engine.bench.ts); native modules, wasm users and packages that ship
    // binaries stay external.
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED })],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve('src/main/index.ts'), cli: resolve('src/cli/index.ts') },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    // The CSP meta goes in at build time only: the dev server's refresh preamble is inline.
    plugins: [react(), { name: 'sous-csp-meta', apply: 'build', transformIndexHtml: injectCspMeta }],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
})
