import { describeOutcome, type HunkDecision } from '../../../shared/edit-review'
import { parseNotebook } from '../../tools/notebook'
import type { ToolPreview } from '../../tools/types'
import type { DecisionPreview } from '../types'

/** What the user approved in the diff view: the exact text to write and the per-hunk choices. */
export interface ApprovedEdit {
  finalContent: string
  hunks: HunkDecision[]
}

/** The engine-facing decision for an approved edit (restated so governance does not import the engine). */
export type EditDecision =
  | { behavior: 'allow'; updatedInput?: unknown; runAs?: string; userNote?: string }
  | { behavior: 'deny'; message: string }

/**
 * Turns an approved edit into the call that writes exactly it. The note is computed here from the
 * preview the gate showed (not from the renderer's account), so the model learns what really landed:
 * nothing extra when the proposal was taken as is; which hunks when part of it was; the user's
 * changes as a unified diff when the text was edited.
 */
export function decisionForEdit(preview: ToolPreview | DecisionPreview | undefined, edit: ApprovedEdit): EditDecision {
  if (!preview || preview.kind !== 'diff') {
    return { behavior: 'deny', message: 'The approval carried edited content, but this call had no diff to edit; nothing was changed.' }
  }
  const outcome = describeOutcome(preview.filePath, preview.before, preview.after, edit.finalContent, edit.hunks)
  switch (outcome.kind) {
    case 'as_proposed':
      return { behavior: 'allow' }
    case 'rejected':
      return { behavior: 'deny', message: `The user rejected every hunk of this change; ${preview.filePath} was not modified.` }
    case 'partial':
    case 'user_changes':
      // A notebook's approval diff is its JSON: what the user kept must still be a notebook, or nothing is written.
      if (/\.ipynb$/i.test(preview.filePath) && typeof parseNotebook(edit.finalContent) === 'string') {
        return { behavior: 'deny', message: `The change the user approved would leave ${preview.filePath} not a valid notebook (${parseNotebook(edit.finalContent) as string}); it was not modified.` }
      }
      return { behavior: 'allow', runAs: 'Write', updatedInput: { file_path: preview.filePath, content: edit.finalContent }, userNote: outcome.note }
  }
}
