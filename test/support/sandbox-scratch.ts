import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { BashSandbox } from '../../src/main/governance/sandbox/bash-sandbox'

/** Folders the sandbox leaves writable whatever the project: writes there prove nothing. */
function writableInSandbox(): string[] {
  return [tmpdir(), '/tmp', '/var/tmp', '/private/tmp', process.env.TMPDIR ?? ''].filter(Boolean).map((dir) => {
    try {
      return realpathSync(dir)
    } catch {
      return dir
    }
  })
}

/**
 * A scratch folder for sandbox tests that lies outside every folder the sandbox makes writable
 * (temp dirs), so "a write outside the project is refused" really tests the sandbox. Tries the
 * home folder, then the working directory (a checkout may itself live under /tmp).
 */
export function sandboxScratch(prefix: string): string {
  const temps = writableInSandbox()
  for (const candidate of [homedir(), process.cwd()]) {
    const real = realpathSync(candidate)
    if (temps.some((temp) => real === temp || real.startsWith(temp + sep))) continue
    return mkdtempSync(join(real, prefix))
  }
  throw new Error('No folder outside the temp dirs is available for sandbox tests.')
}

/**
 * A test title that says, in the test report itself, why the test is skipped: use it with
 * `it.skipIf(reason !== undefined)(skippedUnless(title, reason), …)`, where `reason` is known when
 * the file is collected (probe the sandbox with a top-level `await`). Without a reason the title
 * is unchanged.
 */
export function skippedUnless(title: string, reason: string | undefined): string {
  return reason === undefined ? title : `${title} [skipped: ${reason}]`
}

/** Why OS-sandbox tests cannot run here (they check Linux's bubblewrap), or undefined when they can. */
export function sandboxPlatformProblem(): string | undefined {
  return process.platform === 'linux' ? undefined : `the sandbox checks run on Linux, not ${process.platform}`
}

/**
 * Why the OS sandbox cannot run here, or undefined when it can: starts it over a scratch project
 * (the library probes with a wrapped `true`) and stops it again. For a top-level `await` in a test
 * file whose sandboxed tests skip, with {@link skippedUnless}, when it says why.
 */
export async function sandboxUnavailable(): Promise<string | undefined> {
  const platform = sandboxPlatformProblem()
  if (platform) return platform
  const base = sandboxScratch('.sous-sandbox-probe-')
  try {
    mkdirSync(join(base, 'project'))
    const started = await BashSandbox.start({ projectRoot: join(base, 'project'), home: join(base, 'home') })
    if (!started.ok) return started.reason
    await started.sandbox.dispose()
    return undefined
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
