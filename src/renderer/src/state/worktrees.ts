import { create } from 'zustand'
import type { WorktreeAvailability, WorktreeInfo, WorktreeRow } from '../../../shared/ipc/contract'
import { api } from '../api'
import { looksLikeWorktreeFolder, markOf, type WorktreeMark } from './worktree-model'

/**
 * The renderer's worktree facts, read by several features: whether a project can have worktrees
 * (the "New session" checkbox), the worktrees of its repository (the session list's marks, the
 * cleanup list) and which open folders are worktrees (the project tab names the worktree and its
 * branch). Requests go through `worktrees.*`; nothing here changes a worktree.
 */
export interface WorktreeFacts {
  /** Per project path: whether worktrees can be made there (absent until asked). */
  availability: Record<string, WorktreeAvailability>
  /** Per project path: the worktrees of its repository, as `worktrees.list` gave them last. */
  rows: Record<string, WorktreeRow[]>
  /** Per worktree folder: its name and branch (null: looked up, not a worktree Sous knows). */
  marks: Record<string, WorktreeMark | null>
}

export const useWorktreeFacts = create<WorktreeFacts>()(() => ({ availability: {}, rows: {}, marks: {} }))

const asked = new Map<string, Promise<WorktreeAvailability>>()

/**
 * Whether `projectPath` can have worktrees, asked once per project (the answer is said once, beside
 * the checkbox); a failed request counts as unavailable, with its message.
 */
export function loadAvailability(projectPath: string): Promise<WorktreeAvailability> {
  let pending = asked.get(projectPath)
  if (!pending) {
    pending = api.invoke('worktrees.availability', { projectPath }).then((result) => {
      const availability: WorktreeAvailability = result.ok ? result.value : { available: false, reason: 'git-broken', message: `Worktrees are not available here: ${result.error.message}` }
      useWorktreeFacts.setState((now) => ({ availability: { ...now.availability, [projectPath]: availability } }))
      return availability
    })
    asked.set(projectPath, pending)
  }
  return pending
}

/** Lists the worktrees of `projectPath`'s repository again; resolves to them ([] when the request fails). */
export async function refreshWorktrees(projectPath: string): Promise<WorktreeRow[]> {
  const result = await api.invoke('worktrees.list', { projectPath })
  const rows = result.ok ? result.value.worktrees : []
  useWorktreeFacts.setState((now) => {
    const marks = { ...now.marks }
    for (const row of rows) if (row.state !== 'missing') marks[row.path] = markOf(row)
    return { rows: { ...now.rows, [projectPath]: rows }, marks }
  })
  return rows
}

/** Remembers a worktree just made (the answer of `session.create`), so its tab is named at once. */
export function learnWorktree(info: WorktreeInfo): void {
  useWorktreeFacts.setState((now) => ({ marks: { ...now.marks, [info.path]: markOf(info) } }))
}

/** Forgets a worktree that was removed (archived, cleaned up). */
export function forgetWorktree(path: string): void {
  useWorktreeFacts.setState((now) => ({ marks: { ...now.marks, [path]: null } }))
}

/**
 * Finds out whether an open folder is a worktree (a page reload brings a worktree's tab back with
 * nothing known about it). Only folders laid out as `.claude/worktrees/<name>` are asked about, once.
 */
export function lookUpWorktree(path: string): void {
  if (!looksLikeWorktreeFolder(path) || path in useWorktreeFacts.getState().marks) return
  useWorktreeFacts.setState((now) => ({ marks: { ...now.marks, [path]: null } }))
  void api.invoke('worktrees.list', { projectPath: path }).then((result) => {
    const row = result.ok ? result.value.worktrees.find((item) => item.path === path) : undefined
    if (row) useWorktreeFacts.setState((now) => ({ marks: { ...now.marks, [path]: markOf(row) } }))
  })
}

/** The worktree an open folder is (null: not one, or not known yet). */
export function useWorktreeMark(path: string | undefined): WorktreeMark | null {
  return useWorktreeFacts((state) => (path ? (state.marks[path] ?? null) : null))
}
