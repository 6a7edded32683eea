import { create } from 'zustand'
import type { SessionMatch, SessionSummary } from '../../../../shared/ipc/contract'
import { api } from '../../api'

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
}

export const useSessions = create<SessionsState>()((set, get) => ({
  lists: {},
  query: '',
  allProjects: false,
  matches: null,
  error: null,

  async refresh(projectPath) {
    const result = await api.invoke('session.list', { projectPath })
    if (result.ok) set((state) => ({ lists: { ...state.lists, [projectPath]: result.value } }))
    // A host without the agent has no sessions to list; the empty list says enough.
    else if (result.error.code !== 'UNAVAILABLE')
      set({ error: `Could not list sessions: ${result.error.message}` })
  },

  async search(projectPath, query) {
    set({ query })
    if (!query.trim()) return set({ matches: null })
    const result = await api.invoke('session.search', get().allProjects ? { query } : { query, projectPath })
    // A newer query may have been typed meanwhile; only the latest answer counts.
    if (get().query !== query) return
    if (result.ok) set({ matches: result.value, error: null })
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
