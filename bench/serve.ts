import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'

const root = resolve(import.meta.dirname, '..')

/** Where a benched `sous serve` keeps its data and whom it talks to. */
export interface ServeOptions {
  /** `SOUS_HOME`: sessions, settings, memories of the run. */
  sousHome: string
  /** `HOME`: the user's folder (Claude Code's `~/.claude` lives under it). */
  userHome: string
  /** The scripted model server's URL. */
  modelUrl: string
  /** Another build's `out/main/cli.js` to serve instead (a baseline; its renderer is the `renderer` folder beside its `main`). */
  cli?: string
}

/**
 * Starts the built `sous serve` (`out/main/cli.js`, so benches need `npm run build` first; another
 * build's with `SOUS_BENCH_SERVE_CLI=<its out/main/cli.js>`, for before/after) on a free loopback
 * port, and resolves with its URL once it listens. The caller kills the child.
 */
export async function startServe(options: ServeOptions): Promise<{ url: string; child: ChildProcess }> {
  const other = options.cli ?? process.env.SOUS_BENCH_SERVE_CLI
  const cli = other === undefined ? join(root, 'out/main/cli.js') : resolve(other)
  // A baseline's own renderer: left to itself, serve would find this build's `out/renderer` above it.
  const rendererFlag = other === undefined ? [] : ['--renderer-dir', resolve(cli, '..', '..', 'renderer')]
  const child = spawn(process.execPath, [...nodeFlags(), cli, 'serve', '--port', '0', ...rendererFlag], {
    cwd: root,
    env: { ...process.env, HOME: options.userHome, SOUS_HOME: options.sousHome, ANTHROPIC_BASE_URL: options.modelUrl, ANTHROPIC_API_KEY: 'sk-ant-bench-not-a-real-key' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const found = /Sous listening on (http:\/\/\S+)/.exec(out)
      if (found?.[1]) resolveUrl(found[1])
    })
    child.once('exit', (code) => reject(new Error(`sous serve exited (${code}) before listening`)))
  })
  return { url, child }
}

/** Node flags for the served process from `SOUS_BENCH_SERVE_FLAGS` (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), to profile main during a bench. */
function nodeFlags(): string[] {
  return process.env.SOUS_BENCH_SERVE_FLAGS?.split(/\s+/).filter(Boolean) ?? []
}

/** The page size every browser bench renders at. */
export const BENCH_VIEWPORT = { width: 1280, height: 800 }

/** Debian's Chromium, headless, with nothing of its own running in the background to skew figures. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
}

/** Loads the served app in `page` and opens `project` the way a user does, until its chat is on screen. */
export async function openProject(page: Page, url: string, project: string): Promise<void> {
  await page.goto(url)
  await page.getByRole('textbox', { name: 'Project folder path' }).fill(project)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByRole('region', { name: 'Chat' }).waitFor()
}
