import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Fails fast, with the fix, when the build the e2e tests drive is missing. */
export default function globalSetup(): void {
  const root = resolve(import.meta.dirname, '..')
  const needed = ['out/main/cli.js', 'out/main/index.js', 'out/renderer/index.html']
  const missing = needed.filter((file) => !existsSync(join(root, file)))
  if (missing.length > 0) {
    throw new Error(`e2e tests drive the built app, but ${missing.join(', ')} is missing. Run \`npm run build\` first (\`npm test\` does).`)
  }
  if (!existsSync(join(root, 'node_modules/electron/dist'))) {
    console.log('e2e: no Electron binary (node_modules/electron/dist) on this machine; the electron project will be skipped.')
  }
}
