import { create } from 'zustand'
import type { EventPayload, ExtensionsOverview, HooksOverview, McpServerStatus } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** How long a listing stays fresh for `/` completion before it is asked for again. */
const FRESH_MS = 2000
/** Hook runs kept per project (the main side sends at most this many too). */
const RUNS_KEPT = 50

/**
 * What extends the agent in the project on screen — MCP servers (live through `mcp.status`),
 * skills, custom commands, hooks and their runs (live through `hooks.ran`). The view's section
 * is in `section.ts`. The shell reads `overview.slashCommands` for the composer's `/` completion.
 */
export interface ExtensionsState {
  projectPath: string | null
  overview: ExtensionsOverview | null
  hooks: HooksOverview | null
  /** When `overview` was read (ms). */
  readAt: number
  /** The last request that failed, in words. */
  error: string | null
  /** Server (or `server/tool`) whose action is on its way. */
  busy: string | null
  /** Reads the project's extensions (again); the hooks too when `withHooks`. */
  load(projectPath: string, withHooks?: boolean): Promise<void>
  /** Reads them again unless they were read a moment ago (typing `/`). */
  refresh(projectPath: string): void
  restart(server: string): Promise<void>
  approve(server: string): Promise<void>
  setEnabled(server: string, enabled: boolean, tool?: string): Promise<void>
}

export const useExtensions = create<ExtensionsState>()((set, get) => {
  /** Runs one request about the project on screen and reads the overview again afterwards. */
  async function act(key: string, request: (projectPath: string) => Promise<{ ok: true } | { ok: false; error: { message: string } }>): Promise<void> {
    const projectPath = get().projectPath
    if (!projectPath || get().busy) return
    set({ busy: key, error: null })
    const result = await request(projectPath)
    if (get().projectPath !== projectPath) return
    set({ busy: null, ...(!result.ok && { error: result.error.message }) })
    await get().load(projectPath)
  }

  return {
    projectPath: null,
    overview: null,
    hooks: null,
    readAt: 0,
    error: null,
    busy: null,

    async load(projectPath, withHooks = false) {
      if (get().projectPath !== projectPath) set({ projectPath, overview: null, hooks: null, error: null, busy: null })
      const [overview, hooks] = await Promise.all([
        api.invoke('extensions.list', { projectPath }),
        withHooks || get().hooks ? api.invoke('hooks.list', { projectPath }) : undefined,
      ])
      if (get().projectPath !== projectPath) return
      if (!overview.ok) return set({ error: `Could not list the extensions: ${overview.error.message}` })
      set({ overview: overview.value, readAt: Date.now() })
      if (hooks) set(hooks.ok ? { hooks: hooks.value } : { error: `Could not list the hooks: ${hooks.error.message}` })
    },

    refresh(projectPath) {
      if (get().projectPath === projectPath && Date.now() - get().readAt < FRESH_MS) return
      set({ readAt: Date.now() })
      void get().load(projectPath)
    },

    restart: (server) => act(server, (projectPath) => api.invoke('mcp.restart', { projectPath, server })),
    approve: (server) => act(server, (projectPath) => api.invoke('mcp.approve', { projectPath, server })),
    setEnabled(server, enabled, tool) {
      // Shown at once, so a switch follows the click; the listing read afterwards has the last word.
      const { overview, busy } = get()
      if (overview && !busy) set({ overview: { ...overview, servers: overview.servers.map((entry) => (entry.name === server ? switched(entry, enabled, tool) : entry)) } })
      return act(tool ? `${server}/${tool}` : server, (projectPath) => api.invoke('mcp.setEnabled', { projectPath, server, enabled, ...(tool && { tool }) }))
    },
  }
})

/** A server as it looks once it, or one of its tools (by the server's own name), is turned on or off. */
function switched(server: McpServerStatus, enabled: boolean, tool: string | undefined): McpServerStatus {
  if (!tool) return { ...server, turnedOff: !enabled }
  return { ...server, tools: server.tools.map((entry) => (entry.serverName === tool ? { ...entry, enabled } : entry)) }
}

/** `mcp.status` (fed by `app/event-feed.ts`): servers change on their own (connecting, crashing, new tools); the view follows them live. */
export function receiveMcpStatus({ projectPath, servers }: EventPayload<'mcp.status'>): void {
  const { projectPath: shown, overview } = useExtensions.getState()
  if (projectPath !== shown || !overview) return
  useExtensions.setState({ overview: { ...overview, servers } })
}

/** `hooks.ran` (fed by `app/event-feed.ts`): the hook inspector's log grows as hooks run. */
export function receiveHookRun({ projectPath, run }: EventPayload<'hooks.ran'>): void {
  const { projectPath: shown, hooks } = useExtensions.getState()
  if (projectPath !== shown || !hooks) return
  useExtensions.setState({ hooks: { ...hooks, runs: [...hooks.runs, run].slice(-RUNS_KEPT) } })
}
