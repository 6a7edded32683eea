import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git } from './git'

/** A three-way merge's outcome: the merged text, with diff3 conflict markers where `conflicts` > 0. */
export interface MergeOutcome {
  text: string
  conflicts: number
}

/** The side names the conflict markers carry. */
export interface MergeLabels {
  ours: string
  base: string
  theirs: string
}

/**
 * Merges `theirs` into `ours` against their common `base` with real git (`git merge-file -p
 * --diff3`, on three temporary files outside any repository, so no attribute or driver of the
 * project applies). Identical changes on both sides merge cleanly, as git merges them.
 * Contract: rejects only when git cannot run at all.
 */
export async function mergeFile(ours: string, base: string, theirs: string, labels: MergeLabels): Promise<MergeOutcome> {
  if (ours === base) return { text: theirs, conflicts: 0 }
  if (theirs === base || theirs === ours) return { text: ours, conflicts: 0 }
  const folder = await mkdtemp(join(tmpdir(), 'sous-merge-'))
  try {
    await Promise.all([writeFile(join(folder, 'ours'), ours), writeFile(join(folder, 'base'), base), writeFile(join(folder, 'theirs'), theirs)])
    // Exit status: the number of conflicts (capped at 127), negative on error.
    const codes = Array.from({ length: 127 }, (_, i) => i + 1)
    const result = await git(['merge-file', '-p', '--diff3', '-L', labels.ours, '-L', labels.base, '-L', labels.theirs, 'ours', 'base', 'theirs'], { cwd: folder, okCodes: codes })
    if (!result.ok) throw new Error(`git merge-file: ${result.error}`)
    return { text: result.stdout, conflicts: result.code }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** Whether a text still holds a conflict block (a resolution the user has not finished). */
export function hasConflictMarkers(text: string): boolean {
  return /^<{7}( |$)[\s\S]*?^={7}$[\s\S]*?^>{7}( |$)/m.test(text)
}
