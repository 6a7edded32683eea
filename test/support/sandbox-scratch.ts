import { mkdtempSync, realpathSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, sep } from 'node:path'

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
