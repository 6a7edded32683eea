import { create } from 'zustand'

/** Where a terminal is in its life. */
export type TerminalStatus = 'starting' | 'running' | 'exited' | 'failed'

/** One terminal tab: a user shell on its own PTY, or a project's Agent terminal. */
export interface TerminalInfo {
  key: string
  projectPath: string
  kind: 'shell' | 'agent'
  title: string
  status: TerminalStatus
  /** Exit code once `exited`. */
  exitCode: number | null
  /** Why it could not start, once `failed`. */
  error: string | null
  /** Bumped to start a fresh shell in the same tab after the old one exited. */
  generation: number
  /** The host's id of the shell's PTY once it runs: a reloaded page takes that shell up again. */
  ptyId?: string
}

/** A shell tab as a reloaded page gets it back: its title and the PTY it was showing. */
export interface SavedShell {
  title: string
  ptyId?: string
}

export interface TerminalsState {
  terminals: TerminalInfo[]
  /** The selected tab of each project. */
  active: Record<string, string>
  /** Gives a project its Agent terminal and a first shell, once. */
  ensureProject(projectPath: string): void
  /**
   * Gives a project its Agent terminal and the shell tabs it had before the page was reloaded
   * (each takes up its PTY if that still runs), unless it has terminals already.
   */
  restore(projectPath: string, shells: readonly SavedShell[], activeTitle?: string): void
  /** Opens a new shell tab in a project and selects it; returns its key. */
  add(projectPath: string): string
  /** Closes a shell tab (its PTY is killed when the view unmounts); the Agent terminal stays. */
  close(key: string): void
  select(projectPath: string, key: string): void
  /** Selects the next (`+1`) or previous (`-1`) tab of a project, wrapping around. */
  cycle(projectPath: string, delta: 1 | -1): void
  /** Asks a terminal to open its find bar (the palette's "Find in terminal"). */
  searchRequests: Record<string, number>
  requestSearch(key: string): void
  update(key: string, patch: Partial<Pick<TerminalInfo, 'status' | 'exitCode' | 'error' | 'ptyId'>>): void
  restart(key: string): void
}

let counter = 0

/** The lowest "Terminal N" title not used in the project. Pure. */
export function nextShellTitle(terminals: readonly TerminalInfo[], projectPath: string): string {
  const used = new Set(terminals.filter((t) => t.projectPath === projectPath).map((t) => t.title))
  for (let n = 1; ; n++) if (!used.has(`Terminal ${n}`)) return `Terminal ${n}`
}

/** Which tab to select after closing `key`: its right neighbour, else its left one. Pure. */
export function neighbourAfterClose(terminals: readonly TerminalInfo[], key: string): string | undefined {
  const closing = terminals.find((t) => t.key === key)
  if (!closing) return undefined
  const same = terminals.filter((t) => t.projectPath === closing.projectPath)
  const at = same.findIndex((t) => t.key === key)
  return (same[at + 1] ?? same[at - 1])?.key
}

function shell(projectPath: string, title: string): TerminalInfo {
  return {
    key: `term-${++counter}`,
    projectPath,
    kind: 'shell',
    title,
    status: 'starting',
    exitCode: null,
    error: null,
    generation: 0,
  }
}

export const useTerminals = create<TerminalsState>()((set, get) => ({
  terminals: [],
  active: {},

  ensureProject(projectPath) {
    if (get().terminals.some((t) => t.projectPath === projectPath)) return
    const agent: TerminalInfo = { ...shell(projectPath, 'Agent'), kind: 'agent', status: 'running' }
    const first = shell(projectPath, 'Terminal 1')
    set((state) => ({
      terminals: [...state.terminals, agent, first],
      active: { ...state.active, [projectPath]: first.key },
    }))
  },

  restore(projectPath, shells, activeTitle) {
    if (get().terminals.some((t) => t.projectPath === projectPath)) return
    const agent: TerminalInfo = { ...shell(projectPath, 'Agent'), kind: 'agent', status: 'running' }
    const tabs = shells.map((saved) => ({ ...shell(projectPath, saved.title), ...(saved.ptyId !== undefined && { ptyId: saved.ptyId }) }))
    const active = [agent, ...tabs].find((t) => t.title === activeTitle) ?? tabs[0] ?? agent
    set((state) => ({ terminals: [...state.terminals, agent, ...tabs], active: { ...state.active, [projectPath]: active.key } }))
  },

  add(projectPath) {
    const term = shell(projectPath, nextShellTitle(get().terminals, projectPath))
    set((state) => ({
      terminals: [...state.terminals, term],
      active: { ...state.active, [projectPath]: term.key },
    }))
    return term.key
  },

  close(key) {
    const closing = get().terminals.find((t) => t.key === key)
    if (!closing || closing.kind === 'agent') return
    const neighbour = neighbourAfterClose(get().terminals, key)
    set((state) => ({
      terminals: state.terminals.filter((t) => t.key !== key),
      active:
        state.active[closing.projectPath] === key && neighbour
          ? { ...state.active, [closing.projectPath]: neighbour }
          : state.active,
    }))
  },

  select(projectPath, key) {
    set((state) => ({ active: { ...state.active, [projectPath]: key } }))
  },

  cycle(projectPath, delta) {
    const same = get().terminals.filter((t) => t.projectPath === projectPath)
    if (same.length === 0) return
    const at = same.findIndex((t) => t.key === get().active[projectPath])
    const next = same[(at + delta + same.length) % same.length]
    if (next) get().select(projectPath, next.key)
  },

  searchRequests: {},
  requestSearch(key) {
    set((state) => ({
      searchRequests: { ...state.searchRequests, [key]: (state.searchRequests[key] ?? 0) + 1 },
    }))
  },

  update(key, patch) {
    set((state) => ({ terminals: state.terminals.map((t) => (t.key === key ? { ...t, ...patch } : t)) }))
  },

  restart(key) {
    set((state) => ({
      terminals: state.terminals.map((t) =>
        t.key === key
          ? { ...t, status: 'starting', exitCode: null, error: null, generation: t.generation + 1, ptyId: undefined }
          : t,
      ),
    }))
  },
}))
