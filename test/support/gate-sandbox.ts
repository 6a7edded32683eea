import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeEach } from 'vitest'
import type { BashSandbox } from '../../src/main/governance/sandbox/bash-sandbox'
import { startBashSandbox } from '../../src/main/governance/gate/gate-sandbox'
import { loadSettings } from '../../src/main/governance/settings/load'
import type { MergedSettings } from '../../src/main/governance/settings/types'
import { sandboxPlatformProblem } from './sandbox-scratch'

/** The sandbox the gate starts for a project, and why tests that need it skip. */
export interface GateSandbox {
  /** The project's settings as the gate reads them (its own files trusted, as `sous -p`). */
  settings: MergedSettings
  started: Awaited<ReturnType<typeof startBashSandbox>>
  /** Why the sandboxed tests skip (for `skippedUnless`), or undefined when the sandbox runs. */
  unavailable: string | undefined
  /** The running sandbox (read it only in tests that run when `unavailable` is undefined). */
  sandbox: BashSandbox
}

/**
 * For a test file's top-level `await`, once its project is laid out under `base`: the project's
 * settings (`$SOUS_HOME` `sousHome`, home `base/home`, no managed policy), the sandbox the gate
 * starts from them, and after all the file's tests that sandbox stopped and `base` removed.
 * `off` is the skip reason when the settings turn the sandbox off.
 */
export async function startGateSandbox(o: { base: string; project: string; sousHome: string; off: string }): Promise<GateSandbox> {
  const home = join(o.base, 'home')
  const { settings } = loadSettings(o.project, { projectTrust: 'assume', sousHome: o.sousHome, home, managedPath: join(o.base, 'managed.json') })
  // Started while the file is collected, so a skipped test's title can say why.
  const started = await startBashSandbox(settings, { projectRoot: o.project, sousHome: o.sousHome, home })
  const unavailable = sandboxPlatformProblem() ?? (started?.state.available === false ? started.state.reason : started ? undefined : o.off)
  afterAll(async () => {
    await started?.dispose()
    rmSync(o.base, { recursive: true, force: true })
  })
  return { settings, started, unavailable, sandbox: (started?.state.available ? started.state.sandbox : undefined) as BashSandbox }
}

/**
 * For a test file whose tests share one OS sandbox over `project` (read when the hooks run: they
 * may be set in a `beforeAll`): an empty project folder before each test, and after them all the
 * sandbox stopped and `base` removed.
 */
export function freshProjectEach(world: () => { base: string; project: string; sandbox: BashSandbox | undefined }): void {
  afterAll(async () => {
    const { base, sandbox } = world()
    await sandbox?.dispose()
    rmSync(base, { recursive: true, force: true })
  })
  beforeEach(() => {
    const { project } = world()
    rmSync(project, { recursive: true, force: true })
    mkdirSync(project)
  })
}
