import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { runPrint } from '../../src/cli/print'

/** What one in-process `sous -p` run printed, and its exit code. */
export interface HeadlessRun {
  code: number
  stdout: string
  stderr: string
}

/** How a test file's runs are set up. */
export interface HeadlessOptions {
  /** `SOUS_HOME` inside the temp home (default: the temp home itself). */
  sousHome?: (home: string) => string
  /** Pass this process's `PATH` on (for children found by name, such as `node`). */
  inheritPath?: boolean
}

/** A test file's headless runs: a fresh temp home and project per test, and the runner. */
export interface Headless {
  /** The test's temp `HOME`. */
  readonly home: string
  /** The test's temp project folder (`--cwd`). */
  readonly project: string
  /** Runs `sous -p --cwd <project> …args` in-process against the scripted server. */
  sous(args: string[], options?: { env?: Record<string, string>; stdin?: string }): Promise<HeadlessRun>
}

/**
 * `sous -p` in-process for a test file: the real CLI, model service and SDK against the scripted
 * model server, with a temp `HOME` and project made before each test and removed after it.
 */
export function useHeadless(server: { readonly url: string }, options: HeadlessOptions = {}): Headless {
  let home: string | undefined
  let project: string | undefined
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sous-home-'))
    project = await mkdtemp(join(tmpdir(), 'sous-project-'))
  })
  afterEach(async () => {
    for (const folder of [home, project]) if (folder) await rm(folder, { recursive: true, force: true })
    home = project = undefined
  })
  const current = (folder: string | undefined, what: string): string => {
    if (!folder) throw new Error(`The ${what} folder exists only while a test runs.`)
    return folder
  }
  return {
    get home() {
      return current(home, 'home')
    },
    get project() {
      return current(project, 'project')
    },
    async sous(args, run = {}) {
      const userHome = current(home, 'home')
      let stdout = ''
      let stderr = ''
      const env = {
        ...(options.inheritPath && { PATH: process.env['PATH'] }),
        SOUS_HOME: options.sousHome ? options.sousHome(userHome) : userHome,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
        HOME: userHome,
        ...run.env,
      }
      const code = await runPrint(['-p', '--cwd', current(project, 'project'), ...args], env, {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        ...(run.stdin !== undefined && { stdin: run.stdin }),
      })
      return { code, stdout, stderr }
    },
  }
}
