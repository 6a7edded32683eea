import type { PromptResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk'
import { RequestError } from '@agentclientprotocol/sdk'
import type { EventHub } from '../../base/event-hub'
import type { AgentEvent, TerminalReason } from '../../../shared/protocol/agent-event'
import type { PromptImage } from '../../session/types'
import type { CoreCall } from './core-call'
import type { UpdateMapper } from './updates'

/** What one prompt turn needs: the session, the core, the client and the session's update mapper. */
export interface TurnOptions {
  sessionId: string
  call: CoreCall
  events: EventHub
  mapper: UpdateMapper
  /** Sends one update, in order with the others of the session (see AcpSessions.send). */
  send(update: SessionUpdate): Promise<void>
  /** Resolves once every update sent so far has been written. */
  flush(): Promise<void>
  /** Whether the client cancelled this turn (`session/cancel`). */
  cancelled(): boolean
  log(message: string): void
}

/**
 * Runs one `session/prompt` through the core: subscribes to the session's events first, sends the
 * prompt (`session.prompt`), streams every event the mapper turns into an update, and resolves with
 * the stop reason once the main agent's `turn_end` came (approvals travel on their own: asker.ts).
 *
 * What ACP cannot ask is answered the safe way: the request guard (`turn_limit`) stops the turn
 * (`max_turn_requests`), a budget or loop pause stops the run, each said in the reply's text.
 * Contract: unsubscribes on every path; a turn that ends for an error rejects with its message.
 */
export async function runTurn(o: TurnOptions, text: string, images: PromptImage[]): Promise<PromptResponse> {
  let end: (event: Extract<AgentEvent, { type: 'turn_end' }>) => void = () => undefined
  const ended = new Promise<Extract<AgentEvent, { type: 'turn_end' }>>((resolve) => (end = resolve))
  const say = (message: string) => o.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${message}\n` } })
  const unsubscribe = o.events.subscribe((channel, payload) => {
    if (channel !== 'agent.event') return
    const event = payload as AgentEvent
    if (event.sessionId !== o.sessionId) return
    for (const update of o.mapper.map(event)) void o.send(update)
    if (event.agentId !== 'main') return
    if (event.type === 'turn_limit') {
      void say(`Sous stopped after ${event.turns} model requests in this turn (its request guard); send another prompt to go on.`)
      void o.call('session.continueTurn', { sessionId: o.sessionId, proceed: false }).catch((error: unknown) => o.log(String(error)))
    }
    if (event.type === 'session_pause') {
      void say(`Sous paused: ${event.message} The run was stopped (an ACP client cannot answer this pause).`)
      void o.call('session.resumePause', { sessionId: o.sessionId, pauseId: event.pauseId, choice: 'stop' }).catch((error: unknown) => o.log(String(error)))
    }
    if (event.type === 'turn_end') end(event)
  })
  try {
    await o.call('session.prompt', { sessionId: o.sessionId, text, ...(images.length > 0 && { images }) })
    const last = await ended
    const stopReason = stopReasonOf(last.reason, o.cancelled())
    if (stopReason === 'failed') throw RequestError.internalError({ reason: last.reason }, last.message ?? last.reason)
    if (last.message && stopReason === 'end_turn' && last.reason !== 'completed') await say(last.message)
    // Every update of the turn leaves before its answer.
    await o.flush()
    return { stopReason }
  } finally {
    unsubscribe()
  }
}

/** ACP's stop reason for how a Sous turn ended; `failed` for an error the client must see as one. */
function stopReasonOf(reason: TerminalReason, cancelled: boolean): StopReason | 'failed' {
  if (cancelled || reason === 'aborted') return 'cancelled'
  switch (reason) {
    case 'completed':
      return 'end_turn'
    case 'max_tokens':
      return 'max_tokens'
    case 'max_turns':
    case 'loop_detected':
    case 'budget_exceeded':
      return 'max_turn_requests'
    case 'model_error':
    case 'prompt_too_long':
      return 'failed'
    default:
      return 'end_turn'
  }
}
