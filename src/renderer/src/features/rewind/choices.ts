import { applyDecisions, reviewChange, type HunkDecision, type Review } from '../../../../shared/edit-review'
import type { PreviewFile } from '../../../../shared/ipc/contract'

/** One file's hunk choices (`undefined`: restored, the default). */
export type Decisions = ReadonlyArray<HunkDecision | undefined>

/** What the user chose in the preview, file by file. */
export interface PreviewChoices {
  /** Whether each file is restored; a conflict starts unchosen (kept), every other file chosen. */
  chosen: Readonly<Record<string, boolean>>
  decisions: Readonly<Record<string, Decisions>>
}

/** The choices a preview starts with: every file restored, except conflicts, which are kept. */
export function initialChoices(files: readonly PreviewFile[]): PreviewChoices {
  return { chosen: Object.fromEntries(files.map((file) => [file.path, !file.conflict])), decisions: {} }
}

/** The hunks of a file with both sides (restoring takes the file from `current` to `target`). */
export function reviewOf(file: PreviewFile): Review | undefined {
  return file.current !== undefined && file.target !== undefined ? reviewChange(file.current, file.target) : undefined
}

/**
 * The restore request for the choices: the chosen paths, the conflicts among them (to overwrite),
 * and for a file with some hunks kept, the text to write (the file now with only the restored
 * hunks applied). A chosen file whose every hunk is kept is not restored at all.
 */
export function restoreRequest(files: readonly PreviewFile[], choices: PreviewChoices): { paths: string[]; overwrite: string[]; contents: Record<string, string> } {
  const paths: string[] = []
  const overwrite: string[] = []
  const contents: Record<string, string> = {}
  for (const file of files) {
    if (!choices.chosen[file.path]) continue
    const decisions = choices.decisions[file.path] ?? []
    const review = decisions.includes('rejected') ? reviewOf(file) : undefined
    if (review) {
      const taken = review.hunks.map((hunk) => decisions[hunk.index] ?? 'accepted')
      if (!taken.includes('accepted')) continue
      contents[file.path] = applyDecisions(review, taken)
    }
    paths.push(file.path)
    if (file.conflict) overwrite.push(file.path)
  }
  return { paths, overwrite, contents }
}

/** How many files the choices restore, and how many hunks they keep as they are. */
export function countChoices(files: readonly PreviewFile[], choices: PreviewChoices): { files: number; keptHunks: number } {
  let count = 0
  let keptHunks = 0
  for (const file of files) {
    if (!choices.chosen[file.path]) continue
    count++
    keptHunks += (choices.decisions[file.path] ?? []).filter((decision) => decision === 'rejected').length
  }
  return { files: count, keptHunks }
}
