import { create } from 'zustand'
import type { Project } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { withProject } from './open-list'

/** Which project is open, the recent ones, and what went wrong last. */
export interface ProjectsState {
  /** The project on screen. */
  current: Project | null
  /** Every open project (one tab each), in the order they were opened. */
  openProjects: Project[]
  recent: Project[]
  /** A request is in flight; the open controls are disabled meanwhile. */
  busy: boolean
  error: string | null
  /** Whether the host can show a native folder picker (desktop only). */
  canPick: boolean
  /** The open panel is shown over an open project ("Open another…"). */
  choosing: boolean
  loadRecent(): Promise<void>
  /** Opens `path`; on failure keeps the current project and shows why. */
  open(path: string): Promise<boolean>
  pick(): Promise<void>
  /** Shows or hides the open panel while a project is open. */
  setChoosing(choosing: boolean): void
  /** Shows an error that did not come from a request (e.g. a drop without a path). */
  fail(message: string): void
  clearError(): void
  /** Brings an open project to the screen. */
  activate(path: string): void
  /** Closes a project's tab; the neighbour (or the open panel) takes its place. */
  closeProject(path: string): void
}


export const useProjects = create<ProjectsState>()((set, get) => ({
  current: null,
  openProjects: [],
  recent: [],
  busy: false,
  error: null,
  canPick: api.transport === 'electron',
  choosing: false,

  async loadRecent() {
    const result = await api.invoke('project.recent', {})
    if (result.ok) set({ recent: result.value })
    // A failure to list recent projects is not worth an alert; the list simply stays empty.
  },

  async open(path) {
    const trimmed = path.trim()
    if (!trimmed) {
      set({ error: 'Type the full path of a folder to open.' })
      return false
    }
    if (get().busy) return false
    set({ busy: true, error: null })
    const result = await api.invoke('project.open', { path: trimmed })
    if (!result.ok) {
      // The host names the path and the problem ("Not a folder: /x"); say it as is.
      set({ busy: false, error: result.error.message })
      return false
    }
    set({ busy: false, current: result.value, openProjects: withProject(get().openProjects, result.value), choosing: false })
    void get().loadRecent()
    return true
  },

  async pick() {
    if (get().busy) return
    set({ busy: true, error: null })
    const result = await api.invoke('project.pick', {})
    if (!result.ok) {
      const message =
        result.error.code === 'UNAVAILABLE'
          ? 'This host cannot show a folder picker; type a path or drop a folder instead.'
          : `Could not choose a folder: ${result.error.message}`
      set({ busy: false, error: message })
      return
    }
    if (!result.value) return set({ busy: false }) // The user cancelled.
    set({ busy: false, current: result.value, openProjects: withProject(get().openProjects, result.value), choosing: false })
    void get().loadRecent()
  },

  setChoosing(choosing) {
    set({ choosing, error: null })
  },
  fail(message) {
    set({ error: message })
  },
  clearError() {
    set({ error: null })
  },
  activate(path) {
    const project = get().openProjects.find((p) => p.path === path)
    if (project) set({ current: project, choosing: false })
  },
  closeProject(path) {
    const open = get().openProjects
    const at = open.findIndex((p) => p.path === path)
    if (at === -1) return
    const rest = open.filter((p) => p.path !== path)
    const current = get().current?.path === path ? (rest[at] ?? rest[at - 1] ?? null) : get().current
    set({ openProjects: rest, current })
  },
}))
