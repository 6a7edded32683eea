import { create } from 'zustand'
import type { ContextBreakdown } from '../../../../shared/ipc/context'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { api } from '../../api'

/** The context view's state: the figures of one session, and `/compact` from the view. */
export interface ContextState {
  sessionId: string | null
  breakdown: ContextBreakdown | null
  loading: boolean
  error: string | null
  /** What the last compaction request said (queued, or started). */
  compacting: string | null
  /** Loads the figures of a session (again). */
  load(sessionId: string): Promise<void>
  /** `/compact [instructions]` for the session on view. */
  compact(instructions: string): Promise<void>
  clear(): void
}

export const useContextView = create<ContextState>()((set, get) => ({
  sessionId: null,
  breakdown: null,
  loading: false,
  error: null,
  compacting: null,

  async load(sessionId) {
    set({ sessionId, loading: true, error: null, ...(get().sessionId !== sessionId && { breakdown: null, compacting: null }) })
    const result = await api.invoke('context.inspect', { sessionId })
    if (get().sessionId !== sessionId) return
    set(result.ok ? { breakdown: result.value, loading: false } : { error: result.error.message, loading: false })
  },

  async compact(instructions) {
    const { sessionId } = get()
    if (!sessionId) return
    set({ compacting: 'Compacting…', error: null })
    const trimmed = instructions.trim()
    const result = await api.invoke('context.compact', { sessionId, ...(trimmed && { instructions: trimmed }) })
    if (get().sessionId !== sessionId) return
    if (!result.ok) set({ compacting: null, error: result.error.message })
    else set({ compacting: result.value.queued ? 'Queued: the conversation is compacted before the running turn’s next request.' : 'Compacting…' })
  },

  clear() {
    set({ sessionId: null, breakdown: null, loading: false, error: null, compacting: null })
  },
}))

// While the view is open, the figures follow the session: a compaction, a new request, a turn's end.
let reload: ReturnType<typeof setTimeout> | undefined
/** One `agent.event` (fed by `app/event-feed.ts`): the figures reload after what changes them. */
export function receiveContextEvent(event: AgentEvent): void {
  const { sessionId } = useContextView.getState()
  if (!sessionId || event.sessionId !== sessionId || event.parentToolUseId) return
  if (event.type === 'compaction') useContextView.setState({ compacting: null })
  if (event.type !== 'compaction' && event.type !== 'turn_end' && event.type !== 'context_status') return
  clearTimeout(reload)
  reload = setTimeout(() => void useContextView.getState().load(sessionId), 150)
}
