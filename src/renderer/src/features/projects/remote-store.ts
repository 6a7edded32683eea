import { create } from 'zustand'
import type { EventPayload, RecentRemote, RemoteTarget } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { withProject } from './open-list'
import { useProjects } from './store'

/** The "Open remote project…" form: recent remotes, what is in flight, what went wrong. */
export interface RemoteProjectsState {
  recent: RecentRemote[]
  /** The user's named transport commands (preferences' `remoteTransports`). */
  named: Array<{ name: string; command: string }>
  busy: boolean
  error: string | null
  /** Asked from the command palette: the form takes the focus when it shows. */
  focusRequested: boolean
  /** Reads the recent remotes and the named transport commands. */
  loadRecent(): Promise<void>
  /** Connects over ssh and opens the folder there as a project tab; false (and why) on failure. */
  open(target: RemoteTarget): Promise<boolean>
  /** Shows the open panel with this form focused. */
  show(): void
  /** Each remote project's connection, when it is not simply up (project path → state). */
  connections: Record<string, { state: 'reconnecting' | 'lost'; message?: string }>
}

/** Folds a `remote.connection` event into the store (the project tab shows it). */
export function receiveRemoteConnection(event: EventPayload<'remote.connection'>): void {
  const connections = { ...useRemoteProjects.getState().connections }
  if (event.state === 'connected') delete connections[event.projectPath]
  else connections[event.projectPath] = { state: event.state, ...(event.message && { message: event.message }) }
  useRemoteProjects.setState({ connections })
}

export const useRemoteProjects = create<RemoteProjectsState>()((set, get) => ({
  recent: [],
  named: [],
  busy: false,
  error: null,
  focusRequested: false,
  connections: {},

  async loadRecent() {
    const [result, preferences] = await Promise.all([api.invoke('remote.recent', {}), api.invoke('settings.get', {})])
    if (result.ok) set({ recent: result.value })
    if (preferences.ok) set({ named: preferences.value.remoteTransports ?? [] })
  },

  async open(target) {
    if (get().busy) return false
    set({ busy: true, error: null })
    const result = await api.invoke('remote.open', target)
    if (!result.ok) {
      // ssh's own message and exit code, or the remote's ("not installed", "does not match"): as is.
      set({ busy: false, error: result.error.message })
      return false
    }
    set({ busy: false })
    useProjects.setState({ current: result.value, openProjects: withProject(useProjects.getState().openProjects, result.value), choosing: false })
    void get().loadRecent()
    return true
  },

  show() {
    useProjects.getState().setChoosing(true)
    set({ focusRequested: true, error: null })
  },
}))
