import { create } from 'zustand'
import type { EffortLevel, PermissionModeName } from '../../../../shared/ipc/contract'
import type { AgentEvent, PauseChoice } from '../../../../shared/protocol/agent-event'
import { api } from '../../api'
import { sessionOnScreen, showSession, useSessionOnScreen } from '../../state/session'
import { createFrameBatcher } from '../../lib/frame-batcher'
import { addPendingTurn, emptyTranscript, failTurn, isRunning, reduce, type Transcript } from './reducer'

/**
 * The conversation on screen. Which project and session it is lives in `state/session.ts` (the
 * session on screen, which other features follow too); the chat writes it when it starts or
 * leaves a session and reads it for every request.
 */
export interface ChatState {
  transcript: Transcript
  /** Between pressing Send and the engine accepting the prompt. */
  sending: boolean
  /** Stop was pressed and the turn has not ended yet. */
  stopping: boolean
  /** A request failed outside any turn (creating the session, stopping). */
  error: string | null
  /** The permission mode chosen here; sent to the session as soon as it exists. */
  mode: PermissionModeName
  /** Why the last mode switch failed, if it did. */
  modeError: string | null
  /** The OS sandbox is unavailable for this session's commands (shown as a banner until dismissed). */
  sandbox: { reason: string; unconfined: boolean } | null
  dismissSandbox(): void
  /** Answers the running turn's question at its request guard: go on, or stop. */
  continueTurn(proceed: boolean): Promise<void>
  /** Answers a pause of the budget guard or the loop brake (raise the cap to `raiseTo`, compact, continue, stop). */
  resumePause(pauseId: string, choice: PauseChoice, raiseTo?: number): Promise<void>
  /** `/think`: thinking on or off, and the effort level; resolves to what to tell the user. */
  setReasoning(change: { thinking?: boolean; effort?: EffortLevel }): Promise<string>
  setMode(mode: PermissionModeName): Promise<void>
  /** The model chosen with `/model` (null: the default); applied to sessions as they are created. */
  model: string | null
  /** Switches the model (`undefined`: back to the default); resolves to what to tell the user. */
  setModel(model: string | undefined): Promise<string>
  /** Starts over for a project (a new session is created on the first prompt). */
  reset(projectPath: string): void
  /** Leaves the current conversation (stopping it if it runs); the next prompt starts a new one. */
  newConversation(): void
  /** Sends a prompt; false when it could not be sent. */
  send(text: string): Promise<boolean>
  stop(): Promise<void>
  /** `/compact [instructions]`: the compaction streams in as a turn of its own (or waits for the running turn's next request). */
  compact(instructions: string): Promise<void>
}

let localKey = 0

export const useChat = create<ChatState>()((set, get) => ({
  transcript: emptyTranscript,
  sending: false,
  stopping: false,
  error: null,
  mode: 'default',
  modeError: null,
  sandbox: null,
  model: null,

  async setModel(model) {
    set({ model: model ?? null })
    const { sessionId } = sessionOnScreen()
    if (!sessionId) return model ? `${model} will answer from your next message.` : 'The default model will answer from your next message.'
    const result = await api.invoke('session.setModel', { sessionId, ...(model && { model }) })
    if (!result.ok) return `The model was not switched: ${result.error.message}`
    return `${result.value.model} answers from your next message.`
  },

  dismissSandbox() {
    set({ sandbox: null })
  },

  async continueTurn(proceed) {
    const { sessionId } = sessionOnScreen()
    if (!sessionId) return
    const result = await api.invoke('session.continueTurn', { sessionId, proceed })
    if (!result.ok && sessionOnScreen().sessionId === sessionId) set({ error: `Could not answer: ${result.error.message}` })
  },

  async resumePause(pauseId, choice, raiseTo) {
    const { sessionId } = sessionOnScreen()
    if (!sessionId) return
    const result = await api.invoke('session.resumePause', { sessionId, pauseId, choice, ...(raiseTo !== undefined && { raiseTo }) })
    if (!result.ok && sessionOnScreen().sessionId === sessionId) set({ error: `Could not answer: ${result.error.message}` })
  },

  async setReasoning(change) {
    const { sessionId } = sessionOnScreen()
    if (!sessionId) return 'Start a conversation first; then /think switches its thinking.'
    const result = await api.invoke('session.setReasoning', { sessionId, ...change })
    if (!result.ok) return `Thinking was not switched: ${result.error.message}`
    const { thinking, effort } = result.value
    return `Thinking is ${thinking ? 'on' : 'off'}${effort ? `, effort ${effort}` : ''} from the next request.`
  },

  async setMode(mode) {
    set({ mode, modeError: null })
    const { sessionId } = sessionOnScreen()
    if (!sessionId) return
    const result = await api.invoke('session.setMode', { sessionId, mode })
    if (!result.ok && get().mode === mode) set({ modeError: result.error.message })
  },

  reset(projectPath) {
    const { sessionId, projectPath: previous } = sessionOnScreen()
    if (previous === projectPath) return
    if (sessionId && isRunning(get().transcript)) void api.invoke('session.abort', { sessionId })
    batcher.clear()
    showSession(projectPath, null)
    set({ transcript: emptyTranscript, sending: false, stopping: false, error: null, mode: 'default', modeError: null, model: null, sandbox: null })
  },

  newConversation() {
    const { sessionId, projectPath } = sessionOnScreen()
    if (sessionId && isRunning(get().transcript)) void api.invoke('session.abort', { sessionId })
    batcher.clear()
    showSession(projectPath, null)
    set({ transcript: emptyTranscript, sending: false, stopping: false, error: null, sandbox: null })
  },

  async send(text) {
    const prompt = text.trim()
    const { projectPath } = sessionOnScreen()
    const { sending, transcript } = get()
    if (!prompt || !projectPath || sending || isRunning(transcript)) return false
    set({ sending: true, error: null })

    let sessionId = sessionOnScreen().sessionId
    if (!sessionId) {
      const created = await api.invoke('session.create', { projectPath })
      if (sessionOnScreen().projectPath !== projectPath) return false // The project changed meanwhile.
      if (!created.ok) {
        set({ sending: false, error: `Could not start a conversation: ${created.error.message}` })
        return false
      }
      sessionId = created.value.sessionId
      showSession(projectPath, sessionId)
      // A mode picked before the session existed must hold from its very first tool call, and a
      // model picked with /model from its first request.
      if (get().mode !== 'default') await get().setMode(get().mode)
      const model = get().model
      if (model) await api.invoke('session.setModel', { sessionId, model })
    }

    const key = `local-${++localKey}`
    set({ transcript: addPendingTurn(get().transcript, key, prompt) })
    const accepted = await api.invoke('session.prompt', { sessionId, text: prompt })
    if (sessionOnScreen().sessionId !== sessionId) return false
    batcher.flush()
    if (!accepted.ok) {
      set({ sending: false, transcript: failTurn(get().transcript, key, accepted.error.message) })
      return false
    }
    set({ sending: false })
    return true
  },

  async compact(instructions) {
    const { sessionId } = sessionOnScreen()
    if (!sessionId) {
      set({ error: 'Nothing to compact yet: start a conversation first.' })
      return
    }
    const trimmed = instructions.trim()
    const result = await api.invoke('context.compact', { sessionId, ...(trimmed && { instructions: trimmed }) })
    if (sessionOnScreen().sessionId !== sessionId) return
    if (!result.ok) set({ error: `Could not compact: ${result.error.message}` })
    else if (result.value.queued) set({ error: null })
  },

  async stop() {
    const { sessionId } = sessionOnScreen()
    const { transcript } = get()
    if (!sessionId || !isRunning(transcript)) return
    set({ stopping: true })
    const result = await api.invoke('session.abort', { sessionId })
    const last = get().transcript.turns.at(-1)
    if (!result.ok && last) {
      // Without a confirmation the turn might never end on screen; end it here and say why.
      const message = `Sous did not confirm the stop: ${result.error.message}`
      set({ stopping: false, transcript: failTurn(get().transcript, last.key, message, 'aborted') })
    }
    // On success the turn_end event (reason "aborted") finishes the turn and clears `stopping`.
  },
}))

const batcher = createFrameBatcher<AgentEvent>((events) => {
  const state = useChat.getState()
  const transcript = events.reduce(reduce, state.transcript)
  const ended = events.some((event) => event.type === 'turn_end' && !event.parentToolUseId)
  // The agent entered or left plan mode (EnterPlanMode, an approved plan): the status bar follows.
  const modeChange = events.findLast((event) => event.type === 'mode_change')
  const sandbox = events.findLast((event) => event.type === 'sandbox_unavailable')
  // Subagents' events (most of the stream while several run) change nothing here: without this,
  // every frame of theirs would re-render the whole chat pane for nothing.
  if (transcript === state.transcript && !ended && !modeChange && !sandbox) return
  useChat.setState({
    transcript,
    ...(ended && { stopping: false }),
    ...(modeChange?.type === 'mode_change' && { mode: modeChange.mode, modeError: null }),
    ...(sandbox?.type === 'sandbox_unavailable' && { sandbox: { reason: sandbox.reason, unconfined: sandbox.unconfined } }),
  })
})

// A session opened from elsewhere (the sessions sidebar) gets the mode the status bar shows.
useSessionOnScreen.subscribe((screen, previous) => {
  const { mode } = useChat.getState()
  if (screen.sessionId && screen.sessionId !== previous.sessionId && mode !== 'default') {
    const { sessionId } = screen
    void api.invoke('session.setMode', { sessionId, mode }).then((result) => {
      if (!result.ok && sessionOnScreen().sessionId === sessionId) useChat.setState({ modeError: result.error.message })
    })
  }
})

/** One `agent.event` (fed by `app/event-feed.ts`): the session on screen's are folded once a frame. */
export function receiveChatEvent(event: AgentEvent): void {
  if (event.sessionId === sessionOnScreen().sessionId) batcher.push(event)
}
