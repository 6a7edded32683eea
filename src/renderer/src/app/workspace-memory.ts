import { useProjects } from '../features/projects/store'
import { useTerminals, type SavedShell } from '../features/terminal/store'

/**
 * What a page reload must not lose: the open projects and the one on screen, the session each
 * project's chat showed, and each project's shell tabs with the PTYs behind them (still running in
 * the host, taken up again with their recent output). Kept in `sessionStorage`, which a reload
 * keeps and another tab or a second device does not share (their terminals are their own).
 */
export interface SavedWorkspace {
  projects: string[]
  current: string | null
  sessions: Record<string, string | null>
  terminals: Record<string, { shells: SavedShell[]; active?: string }>
}

const KEY = 'sous.workspace'

/** The saved workspace, or null when there is none or it does not read as one (nothing is restored then). */
export function readSavedWorkspace(storage: Pick<Storage, 'getItem'> = sessionStorage): SavedWorkspace | null {
  let value: unknown
  try {
    value = JSON.parse(storage.getItem(KEY) ?? 'null')
  } catch {
    return null
  }
  return isSavedWorkspace(value) ? value : null
}

function isSavedWorkspace(value: unknown): value is SavedWorkspace {
  if (!value || typeof value !== 'object') return false
  const v = value as Partial<SavedWorkspace>
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string')
  const record = (r: unknown) => !!r && typeof r === 'object' && !Array.isArray(r)
  if (!strings(v.projects) || !(v.current === null || typeof v.current === 'string') || !record(v.sessions) || !record(v.terminals)) return false
  return Object.values(v.terminals!).every(
    (entry) => record(entry) && Array.isArray(entry.shells) && entry.shells.every((shell) => record(shell) && typeof shell.title === 'string' && (shell.ptyId === undefined || typeof shell.ptyId === 'string')),
  )
}

/** The workspace as it stands, to save. Pure over the stores' states. */
export function workspaceNow(sessions: Readonly<Record<string, string | null>>): SavedWorkspace {
  const { openProjects, current } = useProjects.getState()
  const { terminals, active } = useTerminals.getState()
  const projects = openProjects.map((project) => project.path)
  const saved: SavedWorkspace['terminals'] = {}
  for (const path of projects) {
    const mine = terminals.filter((t) => t.projectPath === path)
    saved[path] = {
      shells: mine.filter((t) => t.kind === 'shell').map((t) => ({ title: t.title, ...(t.ptyId !== undefined && t.status === 'running' && { ptyId: t.ptyId }) })),
      ...(mine.find((t) => t.key === active[path]) && { active: mine.find((t) => t.key === active[path])!.title }),
    }
  }
  return { projects, current: current?.path ?? null, sessions: Object.fromEntries(projects.map((path) => [path, sessions[path] ?? null])), terminals: saved }
}

let restored = false
let sessionsNow: Readonly<Record<string, string | null>> = {}

/** Writes the workspace down (once the saved one was restored: the empty start must not overwrite it). */
export function saveWorkspace(sessions: Readonly<Record<string, string | null>> = sessionsNow): void {
  sessionsNow = sessions
  if (!restored) return
  try {
    sessionStorage.setItem(KEY, JSON.stringify(workspaceNow(sessions)))
  } catch {
    // Storage full or denied: a reload then starts empty, as it did before.
  }
}

let restoring: Promise<void> | null = null

/**
 * Opens the saved projects again (their shell tabs first, so each takes up its PTY), then the one
 * that was on screen; from then on every change is saved. `onSessions` gets the session each
 * project showed before any project opens (opening one brings its session back). Once a page.
 */
export function restoreWorkspace(onSessions: (sessions: Record<string, string | null>) => void): Promise<void> {
  restoring ??= restore(onSessions)
  return restoring
}

async function restore(onSessions: (sessions: Record<string, string | null>) => void): Promise<void> {
  const saved = readSavedWorkspace()
  try {
    if (!saved) return
    onSessions(saved.sessions)
    for (const path of saved.projects) {
      const tabs = saved.terminals[path]
      if (tabs) useTerminals.getState().restore(path, tabs.shells, tabs.active)
      await useProjects.getState().open(path)
    }
    if (saved.current) useProjects.getState().activate(saved.current)
  } finally {
    restored = true
    useProjects.subscribe(() => saveWorkspace())
    useTerminals.subscribe(() => saveWorkspace())
    saveWorkspace()
  }
}
