import type { AgentContext, PromptResponse, RequestPermissionResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk'
import { RequestError } from '@agentclientprotocol/sdk'
import type { ApprovalRequested } from '../../../shared/ipc/approval'
import type { EventHub } from '../../base/event-hub'
import type { AgentEvent, TerminalReason } from '../../../shared/protocol/agent-event'
import type { PromptImage } from '../../session/types'
import type { CoreCall } from './core-call'
import { approvalReply, permissionRequest } from './permission'
import type { UpdateMapper } from './updates'

/** What one prompt turn needs: the session, the core, the client and the session's update mapper. */
export interface TurnOptions {
  sessionId: string
  call: CoreCall
  events: EventHub
  client: AgentContext
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
 * prompt (`session.prompt`), streams every event the mapper turns into an update, carries each
 * approval the queue raises to the client as `session/request_permission` and its answer back as
 * `approval.reply`, and resolves with the stop reason once the main agent's `turn_end` came.
 *
 * What ACP cannot ask is answered the safe way: the request guard (`turn_limit`) stops the turn
 * (`max_turn_requests`), a budget or loop pause stops the run, each said in the reply's text.
 * Contract: unsubscribes on every path; a turn that ends for an error rejects with its message.
 */
export async function runTurn(o: TurnOptions, text: string, images: PromptImage[]): Promise<PromptResponse> {
  const asked = new Map<string, AbortController>()
  let end: (event: Extract<AgentEvent, { type: 'turn_end' }>) => void = () => undefined
  const ended = new Promise<Extract<AgentEvent, { type: 'turn_end' }>>((resolve) => (end = resolve))
  const say = (message: string) => o.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${message}\n` } })
  const unsubscribe = o.events.subscribe((channel, payload) => {
    if (channel === 'approval.requested' && (payload as ApprovalRequested).sessionId === o.sessionId) void ask(payload as ApprovalRequested)
    if (channel === 'approval.resolved') {
      const resolved = payload as { id: string; outcome: string }
      // The queue gave up on it (the turn stopped): the client's question is withdrawn.
      if (resolved.outcome === 'aborted') asked.get(resolved.id)?.abort()
    }
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
  const ask = async (approval: ApprovalRequested): Promise<void> => {
    const withdraw = new AbortController()
    asked.set(approval.id, withdraw)
    let response: RequestPermissionResponse | undefined
    try {
      response = await o.client.request('session/request_permission', permissionRequest(approval), { cancellationSignal: withdraw.signal })
    } catch (error) {
      o.log(`the client did not answer a permission request: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      asked.delete(approval.id)
    }
    if (withdraw.signal.aborted) return
    // After a cancel every pending question is a rejection, whatever the client picked.
    const reply = o.cancelled() ? approvalReply(approval, undefined) : approvalReply(approval, response)
    await o.call('approval.reply', reply).catch((error: unknown) => o.log(`approval.reply: ${String(error)}`))
  }
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
    for (const withdraw of asked.values()) withdraw.abort()
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
