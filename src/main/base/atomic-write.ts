import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Atomic file writes: readers see either the old content or the new, never half of it. The data
 * goes to a temp file beside the target (same folder, so the rename stays on one file system),
 * which is then renamed over it. Contract: when anything fails the temp file is removed and the
 * error is thrown; the target keeps its old content.
 */

/** Writes `file` atomically, creating its folder; `mode` applies to a new file (default 0o600). */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temp = tempNameFor(file)
  try {
    await writeFile(temp, data, { mode })
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** {@link writeFileAtomic} for callers that must not yield (settings edits answered in one step). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(file), { recursive: true })
  const temp = tempNameFor(file)
  try {
    writeFileSync(temp, data, { mode })
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function tempNameFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
}
