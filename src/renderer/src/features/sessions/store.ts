import { create } from 'zustand'
import type { SessionMatch, SessionSummary } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { learnWorktree, refreshWorktrees, useWorktreeFacts } from '../../state/worktrees'
import { mergeSessionLists, sessionWorktrees, worktreeNameProblem } from '../../state/worktree-model'

/** The sessions sidebar of each open project: its stored sessions, a search, and what went wrong. */
export interface SessionsState {
  /** Stored sessions per project path, newest first. */
  lists: Record<string, SessionSummary[]>
  query: string
  /** Search every project's sessions, not only this one's. */
  allProjects: boolean
  /** Search results (across this project's sessions) for `query`; null when not searching. */
  matches: SessionMatch[] | null
  error: string | null
  refresh(projectPath: string): Promise<void>
  search(projectPath: string, query: string): Promise<void>
  setAllProjects(projectPath: string, all: boolean): Promise<void>
  rename(projectPath: string, sessionId: string, title: string): Promise<boolean>
  remove(projectPath: string, sessionId: string): Promise<boolean>
  /** Saves a session as a Markdown file (a download). */
  exportMarkdown(sessionId: string): Promise<void>
  /** Saves a session as a self-contained HTML replay (a download). */
  exportReplay(sessionId: string): Promise<void>
  clearError(): void
  /** "Run in a worktree" is ticked for the next new session, with this name (empty: a random one). */
  inWorktree: boolean
  worktreeName: string
  setInWorktree(on: boolean): void
  setWorktreeName(name: string): void
  /** A worktree session is being made (the button waits). */
  creating: boolean
  /** Why the last worktree session could not be made (the name field shows it). */
  createError: string | null
  /** What to say once in a new worktree session's own sidebar, by its worktree folder. */
  notices: Record<string, string>
  dismissNotice(path: string): void
  /**
   * Starts a session in a new worktree of `projectPath` (`session.create` with `worktree`);
   * resolves to the session and its folder, or null when it could not (then `createError` says why).
   */
  startInWorktree(projectPath: string): Promise<{ sessionId: string; path: string } | null>
}

export const useSessions = create<SessionsState>()((set, get) => ({
  lists: {},
  query: '',
  allProjects: false,
  matches: null,
  error: null,

  async refresh(projectPath) {
    // The project's worktree sessions belong in its list (marked there): their sessions' own
    // projects are the worktree folders. The worktree rows are listed when they change, not here.
    const worktrees = sessionWorktrees(useWorktreeFacts.getState().rows[projectPath] ?? [], projectPath)
    const [result, ...theirs] = await Promise.all([api.invoke('session.list', { projectPath }), ...worktrees.map((row) => api.invoke('session.list', { projectPath: row.path }))])
    if (result.ok) {
      const extra = theirs.flatMap((other) => (other.ok ? [other.value] : []))
      set((state) => ({ lists: { ...state.lists, [projectPath]: mergeSessionLists(result.value, extra) } }))
    }
    // A host without the agent has no sessions to list; the empty list says enough.
    else if (result.error.code !== 'UNAVAILABLE')
      set({ error: `Could not list sessions: ${result.error.message}` })
  },

  async search(projectPath, query) {
    set({ query })
    if (!query.trim()) return set({ matches: null })
    // This project's search covers its worktree sessions too, as its list does.
    const worktrees = get().allProjects ? [] : sessionWorktrees(useWorktreeFacts.getState().rows[projectPath] ?? [], projectPath)
    const [result, ...theirs] = await Promise.all([
      api.invoke('session.search', get().allProjects ? { query } : { query, projectPath }),
      ...worktrees.map((row) => api.invoke('session.search', { query, projectPath: row.path })),
    ])
    // A newer query may have been typed meanwhile; only the latest answer counts.
    if (get().query !== query) return
    if (result.ok) set({ matches: [...result.value, ...theirs.flatMap((other) => (other.ok ? other.value : []))], error: null })
    else set({ matches: [], error: `Search failed: ${result.error.message}` })
  },

  async setAllProjects(projectPath, all) {
    set({ allProjects: all })
    if (get().query) await get().search(projectPath, get().query)
  },

  async rename(projectPath, sessionId, title) {
    const result = await api.invoke('session.rename', { sessionId, title })
    if (!result.ok) {
      set({ error: `Could not rename: ${result.error.message}` })
      return false
    }
    await get().refresh(projectPath)
    if (get().query) await get().search(projectPath, get().query)
    return true
  },

  async remove(projectPath, sessionId) {
    const result = await api.invoke('session.delete', { sessionId })
    if (!result.ok) {
      set({ error: `Could not delete: ${result.error.message}` })
      return false
    }
    set((state) => ({ matches: state.matches?.filter((m) => m.summary.sessionId !== sessionId) ?? null }))
    await get().refresh(projectPath)
    return true
  },

  async exportMarkdown(sessionId) {
    const result = await api.invoke('session.export', { sessionId })
    if (!result.ok) return set({ error: `Could not export: ${result.error.message}` })
    download(result.value.markdown, 'text/markdown', result.value.fileName)
  },

  async exportReplay(sessionId) {
    const result = await api.invoke('session.exportReplay', { sessionId })
    if (!result.ok) return set({ error: `Could not export the replay: ${result.error.message}` })
    download(result.value.html, 'text/html', result.value.fileName)
  },

  clearError() {
    set({ error: null })
  },

  inWorktree: false,
  worktreeName: '',
  creating: false,
  createError: null,
  notices: {},
  setInWorktree(on) {
    set({ inWorktree: on, createError: null })
  },
  setWorktreeName(name) {
    set({ worktreeName: name, createError: null })
  },
  dismissNotice(path) {
    set((state) => {
      const { [path]: _gone, ...notices } = state.notices
      return { notices }
    })
  },

  async startInWorktree(projectPath) {
    const name = get().worktreeName.trim()
    const problem = worktreeNameProblem(name)
    if (problem) {
      set({ createError: problem })
      return null
    }
    if (get().creating) return null
    set({ creating: true, createError: null })
    const created = await api.invoke('session.create', { projectPath, worktree: name ? { name } : {} })
    if (!created.ok || !created.value.worktree) {
      set({ creating: false, createError: `No worktree session was started: ${created.ok ? 'the host made no worktree.' : created.error.message}` })
      return null
    }
    const { sessionId, worktree, notes = [] } = created.value
    learnWorktree(worktree)
    const notice = [`Started in the worktree ${worktree.name} (branch ${worktree.branch}) from ${worktree.baseCommit.slice(0, 8)}.`, ...notes].join(' ')
    set((state) => ({ creating: false, inWorktree: false, worktreeName: '', notices: { ...state.notices, [worktree.path]: notice } }))
    void refreshWorktrees(projectPath)
    return { sessionId, path: worktree.path }
  },
}))

/** Saves `text` as a file through the browser's download. */
function download(text: string, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
