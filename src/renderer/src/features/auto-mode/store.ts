import { create } from 'zustand'
import type { AutoDecisionEntry } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** The decision log's state: one session's auto-mode decisions, and "ask me next time". */
export interface AutoDecisionsState {
  sessionId: string | null
  decisions: AutoDecisionEntry[]
  loading: boolean
  error: string | null
  /** What the last "ask me next time" did, for the status line. */
  said: string | null
  load(sessionId: string): Promise<void>
  askNextTime(decision: AutoDecisionEntry, scope: 'session' | 'project'): Promise<void>
  clear(): void
}

export const useAutoDecisions = create<AutoDecisionsState>()((set, get) => ({
  sessionId: null,
  decisions: [],
  loading: false,
  error: null,
  said: null,

  async load(sessionId) {
    set({ sessionId, loading: true, error: null, ...(get().sessionId !== sessionId && { decisions: [], said: null }) })
    const result = await api.invoke('session.autoDecisions', { sessionId })
    if (get().sessionId !== sessionId) return
    set(result.ok ? { decisions: result.value, loading: false } : { error: result.error.message, loading: false })
  },

  async askNextTime(decision, scope) {
    const { sessionId } = get()
    if (!sessionId) return
    const result = await api.invoke('session.askNextTime', { sessionId, decisionId: decision.id, scope })
    if (!result.ok) return set({ error: result.error.message })
    set({ said: `${decision.pattern} will ask you in auto mode ${scope === 'session' ? 'for the rest of this session' : 'in every session of this project'}.` })
    await get().load(sessionId)
  },

  clear() {
    set({ sessionId: null, decisions: [], loading: false, error: null, said: null })
  },
}))
