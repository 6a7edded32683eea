import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { injectCspMeta } from './src/shared/csp'
import { monacoPreload } from './scripts/monaco-preload-plugin'

/**
 * Three builds: the main process (plus the CLI, which shares its core), the sandboxed preload
 * (CommonJS, as sandboxed preloads must be) and the renderer, which the browser host serves too.
 */
const BUNDLED = ['@anthropic-ai/sdk', 'zod', 'ws', 'picomatch', 'ignore', 'turndown', 'tinyglobby']

/**
 * The bundled SDK's free `Headers` and `FormData` are ours (src/main/services/model/sdk-globals.ts):
 * Node 20's globals live in undici, whose first use compiles all of it (~50 ms, ~12 MB of a cold
 * `sous -p`, bench/startup.bench.ts). Only the SDK's modules are rewritten; no global changes.
 */
function sdkGlobals(): Plugin {
  const globals = resolve('src/main/services/model/sdk-globals.ts')
  return {
    name: 'sous-sdk-globals',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').includes('/@anthropic-ai/sdk/')) return null
      const names = ['Headers', 'FormData'].filter((name) => new RegExp(`\\b${name}\\b`).test(code))
      if (names.length === 0) return null
      return { code: `import { ${names.join(', ')} } from ${JSON.stringify(globals)};\n${code}`, map: null }
    },
  }
}

export default defineConfig({
  main: {
    // Pure-JS dependencies are bundled (one file to load instead of hundreds: `sous -p` starts
    // faster, see bench/engine.bench.ts); native modules, wasm users and packages that ship
    // binaries stay external.
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED }), sdkGlobals()],
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
    plugins: [react(), { name: 'sous-csp-meta', apply: 'build', transformIndexHtml: injectCspMeta }, monacoPreload()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
})
