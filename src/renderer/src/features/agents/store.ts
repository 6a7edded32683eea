import { create } from 'zustand'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { emptyTree, foldTree, type AgentTree } from '../../../../shared/protocol/agent-tree'
import { api } from '../../api'
import { openView } from '../../lib/open-dialog'
import { conversationOf, foldConversation, type ConversationEntry } from './conversation'

/** The conversation opened from the tree (read-only). */
export interface OpenedAgent {
  sessionId: string
  agentId: string
  title: string
  entries: ConversationEntry[]
  error: string | null
}

/**
 * The tree of the session on screen, kept live: loaded from the host (`agents.tree`, rebuilt from
 * transcripts, so it survives a reload and a restart), then folded forward with every
 * `agent.event` of that session by the same fold the host uses. This store is the tree's own; the
 * chat's reducer folds only the main agent's events and knows nothing of it.
 */
export interface AgentTreeState {
  sessionId: string | null
  tree: AgentTree | null
  /** Nodes whose children are hidden. */
  folded: ReadonlySet<string>
  error: string | null
  opened: OpenedAgent | null
  /** Shows the tree of `sessionId` (null: no session yet, an idle main agent only). */
  show(sessionId: string | null): Promise<void>
  toggle(nodeId: string): void
  /** Stops a node and what is below it. */
  stop(nodeId: string): Promise<void>
  /** Opens an agent's conversation read-only. */
  open(agentId: string, title: string): Promise<void>
  closeConversation(): void
  clearError(): void
}

/** Events that arrived while the tree was loading, folded in once it has. */
let loading: { sessionId: string; events: AgentEvent[] } | null = null

export const useAgentTree = create<AgentTreeState>()((set, get) => ({
  sessionId: null,
  tree: null,
  folded: new Set(),
  error: null,
  opened: null,

  async show(sessionId) {
    if (!sessionId) {
      loading = null
      return set({ sessionId: null, tree: null, error: null })
    }
    loading = { sessionId, events: [] }
    set({ sessionId, tree: get().sessionId === sessionId ? get().tree : null, error: null })
    const tree = await api.invoke('agents.tree', { sessionId })
    if (get().sessionId !== sessionId) return
    const buffered = loading?.sessionId === sessionId ? loading.events : []
    loading = null
    // A session not written yet (its first prompt is on its way) has an empty tree.
    let next = tree.ok ? tree.value : emptyTree(sessionId)
    for (const event of buffered) next = foldTree(next, event)
    set({ tree: next, error: tree.ok || tree.error.code === 'NOT_FOUND' ? null : `Could not load the agent tree: ${tree.error.message}` })
  },

  toggle(nodeId) {
    const folded = new Set(get().folded)
    if (!folded.delete(nodeId)) folded.add(nodeId)
    set({ folded })
  },

  async stop(nodeId) {
    const sessionId = get().sessionId
    if (!sessionId) return
    const result = await api.invoke('agents.stop', { sessionId, nodeId })
    if (!result.ok) set({ error: `Could not stop it: ${result.error.message}` })
  },

  async open(agentId, title) {
    const sessionId = get().sessionId
    if (!sessionId) return
    set({ opened: { sessionId, agentId, title, entries: [], error: null } })
    openView('agent-conversation')
    const result = await api.invoke('agents.history', { sessionId, agentId })
    const opened = get().opened
    if (opened?.agentId !== agentId || opened.sessionId !== sessionId) return
    // Events that streamed in while the history loaded are in the history or come after it.
    if (result.ok) set({ opened: { ...opened, entries: conversationOf(result.value.events) } })
    else set({ opened: { ...opened, error: result.error.code === 'NOT_FOUND' ? 'Nothing of this agent is stored yet.' : result.error.message } })
  },

  closeConversation() {
    set({ opened: null })
  },

  clearError() {
    set({ error: null })
  },
}))

// Events are folded once a frame: eight agents streaming send many more events than frames.
let queued: AgentEvent[] = []
let scheduled = false

function flush(): void {
  scheduled = false
  const events = queued
  queued = []
  const state = useAgentTree.getState()
  let tree = state.tree
  let opened = state.opened
  for (const event of events) {
    if (event.sessionId !== state.sessionId) continue
    if (tree) tree = foldTree(tree, event)
    if (opened && opened.sessionId === event.sessionId && opened.agentId === event.agentId) opened = { ...opened, entries: foldConversation(opened.entries, event) }
  }
  if (tree !== state.tree || opened !== state.opened) useAgentTree.setState({ tree, opened })
}

/** One `agent.event` (fed by `app/event-feed.ts`): the tree's session's are folded once a frame. */
export function receiveTreeEvent(event: AgentEvent): void {
  if (event.sessionId !== useAgentTree.getState().sessionId) return
  if (loading?.sessionId === event.sessionId) loading.events.push(event)
  queued.push(event)
  if (scheduled) return
  scheduled = true
  // A hidden window gets no frames; a timer keeps its tree current all the same.
  if (document.hidden) setTimeout(flush, 100)
  else requestAnimationFrame(flush)
}

/** Reads the tree again from the host: the truth after a reconnect, when events were missed. */
export function reloadTree(): Promise<void> {
  return useAgentTree.getState().show(useAgentTree.getState().sessionId)
}
