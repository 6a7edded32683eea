import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { EventHub } from '../base/event-hub'
import type { ApprovalQueue } from '../governance/approvals/queue'
import { outcomeOnWire } from '../governance/approvals/registry'
import type { HookLog, HookLogEntry } from '../governance/hooks/log'
import { describeExplanation } from '../governance/types'
import type { SessionHandle } from '../session/session-types'

/**
 * What a session's transcript keeps of the hooks and approvals its live view hears on channels
 * of their own (`hooks.ran`, `approval.*`), so a stored session's timeline and replay have them:
 * each hook run of this session and each answered approval, as a recorded-only event
 * (`shared/protocol/recorded-events.ts`). Auto mode's decisions go out as `auto_decision` on the
 * hub and into the transcript, so a reopened session's cards keep their reason.
 *
 * Contract: nothing is recorded before the session is attached (no hook or approval of a
 * session can come before it exists); never throws into the hook runner or the queue.
 */
export class SessionRecord {
  private handle: SessionHandle | undefined
  private readonly stops: Array<() => void> = []

  constructor(
    private readonly o: { sessionId: string; hub: EventHub; hookLog: HookLog },
  ) {
    this.stops.push(o.hookLog.subscribe((entry) => entry.sessionId === o.sessionId && this.record(hookEvent(o.sessionId, entry))))
  }

  /** The session exists: its transcript can take events. */
  attach(handle: SessionHandle): void {
    this.handle = handle
  }

  /** Records the answers of an interactive session's approval queue. */
  watchApprovals(queue: ApprovalQueue): void {
    this.stops.push(
      queue.onSettled((request, outcome) =>
        this.record({
          type: 'approval_answered',
          sessionId: this.o.sessionId,
          agentId: request.agent?.id ?? 'main',
          approvalId: request.id,
          toolUseId: request.toolUseId ?? '',
          toolName: request.toolName,
          outcome: outcomeOnWire(outcome),
          explanation: describeExplanation(request.explanation),
        }),
      ),
    )
  }

  /** An auto-mode decision: on the hub and, once the session is attached, into its transcript too. */
  autoDecision(event: Extract<AgentEvent, { type: 'auto_decision' }>): void {
    if (this.handle) this.handle.emit(event)
    else this.o.hub.emit('agent.event', event)
  }

  dispose(): void {
    for (const stop of this.stops.splice(0)) stop()
  }

  private record(event: AgentEvent): void {
    try {
      this.handle?.record(event)
    } catch {
      // The transcript is the session's to report on; a hook or an answer must not fail for it.
    }
  }
}

function hookEvent(sessionId: string, entry: HookLogEntry): AgentEvent {
  const about = (entry.input as { tool_use_id?: unknown } | null | undefined)?.tool_use_id
  const agentId = (entry.input as { agent_id?: unknown } | null | undefined)?.agent_id
  return {
    type: 'hook_run',
    sessionId,
    agentId: typeof agentId === 'string' ? agentId : 'main',
    event: entry.event,
    ...(entry.matcher && { matcher: entry.matcher }),
    command: entry.command,
    exitCode: entry.exitCode,
    durationMs: Math.round(entry.durationMs),
    timedOut: entry.timedOut,
    ...(entry.error && { error: entry.error }),
    ...(typeof about === 'string' && { aboutToolUseId: about }),
    at: entry.at,
  }
}
