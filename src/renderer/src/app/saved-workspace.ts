import type { SavedShell } from '../features/terminal/store'

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

/** Where it is kept. */
export const KEY = 'sous.workspace'

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

