import { useProjects } from '../features/projects/store'
import { useTerminals } from '../features/terminal/store'
import { KEY, readSavedWorkspace, type SavedWorkspace } from './saved-workspace'

// Saving and restoring the workspace a page reload must not lose (see saved-workspace.ts): here, in
// the shell, because it joins the projects and the terminals, features that never import each other.

/** The workspace as it stands, to save, read from the projects' and the terminals' stores. */
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
