import { create } from 'zustand'
import type { WorktreeLoss } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { forgetWorktree, refreshWorktrees } from '../../state/worktrees'
import { removedSentence } from '../../state/worktree-model'

/** The session whose worktree is to be archived, as chosen from its row or the palette. */
export interface ArchiveTarget {
  sessionId: string
  /** Its title, when known (from the session list). */
  title?: string
}

/**
 * The Worktrees dialog: archiving a session's worktree (refused while it holds work the base
 * lacks, then forced only when asked, saying what is lost) and cleaning up worktrees whose session
 * is gone. Each refusal is kept beside the worktree it is about, until acted on.
 */
export interface WorktreesState {
  target: ArchiveTarget | null
  /** What archiving `target` would lose (the core refused without `force`). */
  archiveLoss: WorktreeLoss | null
  /** Per worktree folder listed for cleanup: what removing it would lose (refused without `force`). */
  cleanupLoss: Record<string, WorktreeLoss>
  /** What is running, shown as the dialog's status. */
  busy: string | null
  /** What was done last (its status line). */
  done: string | null
  error: string | null
  /** Chooses the session to archive (the dialog opens on it). */
  choose(target: ArchiveTarget | null): void
  /** Archives the target session's worktree; resolves to the folder removed, if one was. */
  archive(projectPath: string, force: boolean): Promise<string | null>
  /** Removes one worktree listed for cleanup; resolves to the folder removed, if it was. */
  cleanup(projectPath: string, path: string, force: boolean): Promise<string | null>
}

export const useWorktrees = create<WorktreesState>()((set, get) => ({
  target: null,
  archiveLoss: null,
  cleanupLoss: {},
  busy: null,
  done: null,
  error: null,

  choose(target) {
    set({ target, archiveLoss: null, error: null, done: null })
  },

  async archive(projectPath, force) {
    const { target, busy } = get()
    if (!target || busy) return null
    set({ busy: 'Archiving…', error: null, done: null })
    const result = await api.invoke('worktrees.archive', { sessionId: target.sessionId, ...(force && { force }) })
    if (!result.ok) {
      set({ busy: null, error: `Not archived: ${result.error.message}` })
      return null
    }
    if (!result.value.removed) {
      set({ busy: null, archiveLoss: result.value.loss })
      return null
    }
    forgetWorktree(result.value.path)
    set({ busy: null, target: null, archiveLoss: null, done: `Archived the session. ${removedSentence(result.value)}` })
    await refreshWorktrees(projectPath)
    return result.value.path
  },

  async cleanup(projectPath, path, force) {
    if (get().busy) return null
    set({ busy: 'Removing…', error: null, done: null })
    const result = await api.invoke('worktrees.cleanup', { projectPath, paths: [path], ...(force && { force }) })
    const removal = result.ok ? result.value.results[0] : undefined
    if (!result.ok || !removal) {
      set({ busy: null, error: `Not removed: ${result.ok ? 'the host did not answer for it.' : result.error.message}` })
      return null
    }
    if (!removal.removed) {
      set((state) => ({ busy: null, cleanupLoss: { ...state.cleanupLoss, [path]: removal.loss } }))
      return null
    }
    forgetWorktree(path)
    set((state) => {
      const { [path]: _gone, ...cleanupLoss } = state.cleanupLoss
      return { busy: null, cleanupLoss, done: removedSentence(removal) }
    })
    await refreshWorktrees(projectPath)
    return path
  },
}))
