import { create } from 'zustand'
import type { CheckpointRow, PreviewFile, RequestInput, RequestOutput } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** What the user came to do: rewind (restore) or fork from a checkpoint. */
export type RewindIntent = 'rewind' | 'fork'

/** The preview of one checkpoint: the files a restore would change, and what restore leaves alone. */
export interface RewindPreview {
  checkpointId: string
  files: PreviewFile[]
  skipped: Array<{ path: string; why: string }>
}

/**
 * The rewind picker: open for one session (from a turn's marker, `/rewind`, Esc Esc or the
 * palette), its checkpoints, the one chosen and its preview. The per-file and per-hunk choices
 * live in the dialog; this store talks to `checkpoints.*`.
 */
export interface RewindState {
  /** The session the picker is open for; null when closed. */
  sessionId: string | null
  intent: RewindIntent
  checkpoints: CheckpointRow[]
  /** The checkpoint chosen in the list. */
  selected: string | null
  preview: RewindPreview | null
  loading: boolean
  /** Why the last request failed (shown in the dialog). */
  error: string | null
  /** Opens the picker; `turnId` preselects the checkpoint taken before that turn. */
  open(sessionId: string, options?: { intent?: RewindIntent; turnId?: string }): Promise<void>
  close(): void
  select(checkpointId: string): Promise<void>
  /** Restores; resolves to what to tell the user, or null when it failed (the error is in the store). */
  restore(choice: Omit<RequestInput<'checkpoints.restore'>, 'sessionId' | 'checkpointId'>): Promise<RequestOutput<'checkpoints.restore'> | null>
  /** Forks the chosen checkpoint; resolves to the new session's id, or null when it failed. */
  fork(): Promise<string | null>
}

export const useRewind = create<RewindState>()((set, get) => ({
  sessionId: null,
  intent: 'rewind',
  checkpoints: [],
  selected: null,
  preview: null,
  loading: false,
  error: null,

  async open(sessionId, options = {}) {
    set({ sessionId, intent: options.intent ?? 'rewind', checkpoints: [], selected: null, preview: null, loading: true, error: null })
    const listed = await api.invoke('checkpoints.list', { sessionId })
    if (get().sessionId !== sessionId) return
    if (!listed.ok) return set({ loading: false, error: listed.error.message })
    const checkpoints = listed.value.checkpoints
    set({ checkpoints, loading: false })
    // The newest with the turn's id: a turn rewound away may have had the same id as the one on screen.
    const chosen = options.turnId ? checkpoints.findLast((checkpoint) => checkpoint.turnId === options.turnId) : checkpoints.findLast((checkpoint) => checkpoint.kind === 'prompt')
    if (chosen) await get().select(chosen.id)
    else if (options.turnId) set({ error: 'No checkpoint was taken before this turn (a /compact, or checkpoints were off): choose one from the list.' })
  },

  close() {
    set({ sessionId: null, checkpoints: [], selected: null, preview: null, loading: false, error: null })
  },

  async select(checkpointId) {
    const { sessionId } = get()
    if (!sessionId) return
    set({ selected: checkpointId, preview: null, loading: true, error: null })
    const previewed = await api.invoke('checkpoints.preview', { sessionId, checkpointId })
    if (get().selected !== checkpointId) return
    if (!previewed.ok) return set({ loading: false, error: previewed.error.message })
    set({ loading: false, preview: { checkpointId, ...previewed.value } })
  },

  async restore(choice) {
    const { sessionId, selected } = get()
    if (!sessionId || !selected) return null
    set({ loading: true, error: null })
    const restored = await api.invoke('checkpoints.restore', { sessionId, checkpointId: selected, ...choice })
    set({ loading: false, ...(!restored.ok && { error: restored.error.message }) })
    return restored.ok ? restored.value : null
  },

  async fork() {
    const { sessionId, selected } = get()
    if (!sessionId || !selected) return null
    set({ loading: true, error: null })
    const forked = await api.invoke('checkpoints.fork', { sessionId, checkpointId: selected })
    set({ loading: false, ...(!forked.ok && { error: forked.error.message }) })
    return forked.ok ? forked.value.sessionId : null
  },
}))

/** What a restore did, in a sentence for the conversation. */
export function describeRestore(outcome: RequestOutput<'checkpoints.restore'>, mode: 'code' | 'conversation' | 'both'): string {
  const parts: string[] = []
  if (mode !== 'conversation') parts.push(`restored ${outcome.restored.length} file${outcome.restored.length === 1 ? '' : 's'}`)
  if (outcome.messages !== undefined) parts.push(`rewound the conversation to ${outcome.messages} message${outcome.messages === 1 ? '' : 's'}`)
  if (outcome.kept.length > 0) parts.push(`kept ${outcome.kept.length} file${outcome.kept.length === 1 ? '' : 's'} changed by someone else (${outcome.kept.slice(0, 3).join(', ')}${outcome.kept.length > 3 ? ', …' : ''})`)
  if (outcome.skipped.length > 0) parts.push(`left ${outcome.skipped.length} alone (${outcome.skipped[0]!.path}: ${outcome.skipped[0]!.why})`)
  return `Rewind: ${parts.join('; ') || 'nothing to change'}.`
}
