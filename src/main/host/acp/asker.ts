import type { AgentContext, RequestPermissionResponse } from '@agentclientprotocol/sdk'
import type { ApprovalRequested } from '../../../shared/ipc/approval'
import type { EventHub } from '../../base/event-hub'
import type { CoreCall } from './core-call'
import { approvalReply, permissionRequest } from './permission'

/** What the asker needs to know about the connection's sessions. */
export interface AskerOptions {
  call: CoreCall
  events: EventHub
  /** The client of this connection, once a session exists (any handler's context reaches it). */
  client(): AgentContext | undefined
  /** Whether the session is one of this connection's, and whether its running turn was cancelled. */
  session(sessionId: string): { cancelled: boolean } | undefined
  log(message: string): void
}

/**
 * Carries every approval the queue raises for this connection's sessions to the client as
 * `session/request_permission` and its answer back as `approval.reply` — during a prompt or after
 * it (a background agent that asks later is asked too, never left waiting unseen). A question the
 * queue withdraws (the turn stopped) is withdrawn from the client with `$/cancel_request`; an
 * answer after a cancel is a rejection. Returns the unsubscribe function.
 */
export function carryApprovals(o: AskerOptions): () => void {
  const asked = new Map<string, AbortController>()
  const ask = async (approval: ApprovalRequested, client: AgentContext): Promise<void> => {
    const withdraw = new AbortController()
    asked.set(approval.id, withdraw)
    let response: RequestPermissionResponse | undefined
    try {
      response = await client.request('session/request_permission', permissionRequest(approval), { cancellationSignal: withdraw.signal })
    } catch (error) {
      o.log(`the client did not answer a permission request: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      asked.delete(approval.id)
    }
    if (withdraw.signal.aborted) return
    const reply = o.session(approval.sessionId)?.cancelled ? approvalReply(approval, undefined) : approvalReply(approval, response)
    await o.call('approval.reply', reply).catch((error: unknown) => o.log(`approval.reply: ${String(error)}`))
  }
  const unsubscribe = o.events.subscribe((channel, payload) => {
    if (channel === 'approval.requested') {
      const approval = payload as ApprovalRequested
      const client = o.client()
      if (client && o.session(approval.sessionId)) void ask(approval, client)
    }
    // The queue gave up on it (the turn stopped, the session closed): the client's question is withdrawn.
    if (channel === 'approval.resolved' && (payload as { outcome: string }).outcome === 'aborted') asked.get((payload as { id: string }).id)?.abort()
  })
  return () => {
    unsubscribe()
    for (const withdraw of asked.values()) withdraw.abort()
  }
}
