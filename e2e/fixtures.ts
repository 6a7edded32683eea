import { test as base, _electron, type Browser, type ElectronApplication, type Page } from '@playwright/test'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startChild, type Child } from './support/child'
import { startModelServer, type ModelServer } from './support/model-server'

/** Which host runs the renderer: `sous serve` in Chromium, or the Electron app. */
export type Host = 'browser' | 'electron'

export interface HostOptions {
  host: Host
}

interface WorkerFixtures {
  host: Host
  modelServer: ModelServer
  /** A fresh `$SOUS_HOME` for this worker. */
  sousHome: string
}

interface TestFixtures {
  /** The app's window, loaded and connected, with no project open. */
  app: Page
  /** A fresh project folder (canonical path) holding a README. */
  projectDir: string
}

const root = resolve(import.meta.dirname, '..')
const electronBinary = join(root, 'node_modules/electron/dist')

/**
 * Environment for the app: our temp homes, the scripted model, a dummy key, event checks on. HOME is a temp folder
 * too, so the terminal's shell does not run the machine's own ~/.bashrc (a slow `pyenv init`
 * waiting on a stale lock once made every shell start take a minute).
 */
function appEnv(sousHome: string, modelUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: join(sousHome, 'user-home'),
    SOUS_HOME: sousHome,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
    // Every event the app emits is checked against the contract (a malformed one throws in main).
    SOUS_CHECK_EVENTS: '1',
  }
}

/** Starts `sous serve` (built) on a free port with our temp homes (and `env` on top); the caller stops the child. */
export async function startServe(sousHome: string, modelUrl: string, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: Child }> {
  const child = await startChild({
    name: '`sous serve`',
    command: process.execPath,
    args: [join(root, 'out/main/cli.js'), 'serve', '--port', '0'],
    cwd: root,
    env: { ...appEnv(sousHome, modelUrl), ...env },
    ready: /Sous listening on (http:\/\/\S+)/,
  })
  return { url: child.announced[1] ?? '', child }
}

/**
 * Fills a fresh `$SOUS_HOME` for the app: the user's HOME inside it (see appEnv) with a plain shell
 * and a short prompt, and memory off — specs script every model request, and memory's side
 * requests (recall, extraction) would take steps meant for the conversation. The memory specs turn
 * it on (see e2e/support/memory.ts). Returns `home`.
 */
export async function prepareAppHome(home: string): Promise<string> {
  await mkdir(join(home, 'user-home'), { recursive: true })
  await writeFile(join(home, 'user-home', '.bashrc'), "PS1='\\W \\$ '\n")
  await writeFile(join(home, 'settings.json'), `${JSON.stringify({ sous: { autoMemory: false } }, null, 2)}\n`)
  return home
}

async function launchElectron(sousHome: string, modelUrl: string): Promise<ElectronApplication> {
  return _electron.launch({
    // --no-sandbox: CI runs as root, where Chromium refuses its sandbox.
    args: ['--no-sandbox', join(root, 'out/main/index.js')],
    cwd: root,
    env: appEnv(sousHome, modelUrl) as Record<string, string>,
  })
}

/** Starts something on first use and stops it at worker teardown (so the electron project never starts `sous serve`). */
function lazy<T>(start: () => Promise<T>): { get: () => Promise<T>; started: () => Promise<T> | undefined } {
  let value: Promise<T> | undefined
  return { get: () => (value ??= start()), started: () => value }
}

export const test = base.extend<TestFixtures & { electronGate: void }, WorkerFixtures & { lazyServe: () => Promise<string>; lazyChromium: () => Promise<Browser> }>({
  host: ['browser', { option: true, scope: 'worker' }],

  // Runs before everything else in a test, so a machine without Electron skips cleanly.
  electronGate: [
    async ({ host }, use, testInfo) => {
      testInfo.skip(
        host === 'electron' && !existsSync(electronBinary),
        `Electron binary not installed (${electronBinary} is missing): the electron project is skipped; the same specs run in Chromium against \`sous serve\`.`,
      )
      await use()
    },
    { auto: true },
  ],

  sousHome: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const home = await prepareAppHome(await mkdtemp(join(tmpdir(), 'sous-e2e-home-')))
      await use(home)
      await rm(home, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],

  modelServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startModelServer(root)
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],

  lazyServe: [
    async ({ sousHome, modelServer }, use) => {
      const serve = lazy(() => startServe(sousHome, modelServer.url))
      await use(async () => (await serve.get()).url)
      await (await serve.started()?.catch(() => undefined))?.child.stop()
    },
    { scope: 'worker' },
  ],

  lazyChromium: [
    async ({ playwright, launchOptions }, use) => {
      const chromium = lazy(() => playwright.chromium.launch(launchOptions))
      await use(chromium.get)
      await (await chromium.started()?.catch(() => undefined))?.close()
    },
    { scope: 'worker' },
  ],

  // eslint-disable-next-line no-empty-pattern
  projectDir: async ({}, use) => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-project-')))
    await writeFile(join(dir, 'README.md'), '# A test project\n')
    await use(dir)
    await rm(dir, { recursive: true, force: true })
  },

  app: async ({ host, sousHome, modelServer, lazyServe, lazyChromium, viewport }, use) => {
    if (host === 'electron') {
      const electronApp = await launchElectron(sousHome, modelServer.url)
      const window = await electronApp.firstWindow()
      await window.waitForLoadState('domcontentloaded')
      await use(window)
      await electronApp.close()
      return
    }
    const url = await lazyServe()
    const context = await (await lazyChromium()).newContext({ viewport })
    const page = await context.newPage()
    await page.goto(url)
    await use(page)
    await context.close()
  },
})

export { expect } from '@playwright/test'
