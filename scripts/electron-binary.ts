import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Makes `npm start` (and `npm run dev`) work right after `npm install`. Electron 45 no longer
 * downloads its binary when it is installed: its own `require('electron')` fetches it on first
 * use, but electron-vite only reads `node_modules/electron/path.txt` and stops with "Electron
 * uninstall" when it is missing. This runs Electron's installer (`install-electron`) when needed,
 * then proves node-pty's N-API build loads under Electron's Node (no rebuild is needed for N-API;
 * a failure here would otherwise surface as a crash inside the app).
 *
 * `ELECTRON_SKIP_BINARY_DOWNLOAD=1` (CI, machines that cannot reach Electron's downloads) is
 * respected: nothing is fetched, and the message points to `npm run serve`.
 */

/** Where Electron's binary is, or why there is none. */
export type ElectronBinary = { kind: 'ready'; path: string } | { kind: 'missing'; skipDownload: boolean }

/** Finds the binary electron-vite will start (`ELECTRON_EXEC_PATH`, else `path.txt` under `electronDir`). */
export function findElectronBinary(env: NodeJS.ProcessEnv, electronDir: string): ElectronBinary {
  const skipDownload = Boolean(env.ELECTRON_SKIP_BINARY_DOWNLOAD && env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '0')
  if (env.ELECTRON_EXEC_PATH) return existsSync(env.ELECTRON_EXEC_PATH) ? { kind: 'ready', path: env.ELECTRON_EXEC_PATH } : { kind: 'missing', skipDownload }
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return { kind: 'missing', skipDownload }
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? { kind: 'ready', path: binary } : { kind: 'missing', skipDownload }
}

/** What to tell someone who has no binary and asked not to download one. */
export const NO_BINARY_MESSAGE = [
  'sous: no Electron binary is installed, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so none is downloaded.',
  '  To use the desktop app: unset ELECTRON_SKIP_BINARY_DOWNLOAD and run `npm start` again (or `npx install-electron`).',
  '  Without Electron: `npm run serve` opens the same app in a browser.',
].join('\n')

/** Runs `node-pty` under Electron's own Node; the error text when it does not load. */
export function nodePtyLoadsUnder(binary: string, projectRoot: string): string | undefined {
  const run = spawnSync(binary, ['-e', "require('node-pty'); process.stdout.write('node-pty ok')"], {
    cwd: projectRoot,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (run.status === 0 && run.stdout.includes('node-pty ok')) return undefined
  return (run.error?.message ?? run.stderr.trim()) || `exit ${run.status ?? 'unknown'}`
}

function main(): number {
  const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const electronDir = dirname(createRequire(join(projectRoot, 'package.json')).resolve('electron/package.json'))
  let binary = findElectronBinary(process.env, electronDir)
  if (binary.kind === 'missing' && binary.skipDownload) {
    console.error(NO_BINARY_MESSAGE)
    return 1
  }
  if (binary.kind === 'missing') {
    console.log('sous: installing the Electron binary (once)…')
    spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'inherit' })
    binary = findElectronBinary(process.env, electronDir)
    if (binary.kind === 'missing') {
      console.error('sous: the Electron binary could not be installed (see above). `npm run serve` runs the app in a browser instead.')
      return 1
    }
  }
  const problem = nodePtyLoadsUnder(binary.path, projectRoot)
  if (problem) {
    console.error(`sous: node-pty does not load under Electron (${binary.path}): ${problem}`)
    return 1
  }
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main()
