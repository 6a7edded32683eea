import type { EventHub } from '../../base/event-hub'
import type { ParallelState } from '../../../shared/ipc/parallel'

/** What the tracker knows of one session now. */
export interface LiveState {
  state: ParallelState
  costUsd: number
  message?: string
}

/** Longest quiet time before a change is told (a streaming turn would otherwise tell every delta). */
const SETTLE_MS = 150

/**
 * Follows the sessions of runs through the event hub — turns starting and ending, approvals
 * waiting, spend, tool calls that may have changed files — and tells `parallel.changed` for their
 * run, at most once per {@link SETTLE_MS}. Sessions not in a run are ignored. `onTurnEnd` hears of
 * each main turn's end (its worktree may hold a new commit): the desk reads the run ahead then.
 */
export class RunTracker {
  private readonly live = new Map<string, LiveState & { runId: string; projectPath: string }>()
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly stop: () => void

  constructor(
    private readonly hub: EventHub,
    private readonly onTurnEnd?: (runId: string) => void,
  ) {
    this.stop = hub.subscribe((channel, payload) => {
      if (channel === 'agent.event') this.onAgentEvent(payload as { sessionId: string; agentId: string; type: string; [key: string]: unknown })
      else if (channel === 'approval.requested' || channel === 'approval.resolved') {
        const entry = this.live.get((payload as { sessionId: string }).sessionId)
        if (entry && (entry.state === 'running' || entry.state === 'waiting')) this.update(entry, { state: channel === 'approval.requested' ? 'waiting' : 'running' })
      }
    })
  }

  /** Starts following a session of a run. */
  track(sessionId: string, runId: string, projectPath: string, state: ParallelState = 'starting'): void {
    this.live.set(sessionId, { runId, projectPath, state, costUsd: 0 })
  }

  /** What is known of a session (undefined: not followed since this process started). */
  stateOf(sessionId: string): LiveState | undefined {
    return this.live.get(sessionId)
  }

  /** Records a state set from outside (a start that failed). */
  set(sessionId: string, change: Partial<LiveState>): void {
    const entry = this.live.get(sessionId)
    if (entry) this.update(entry, change)
  }

  dispose(): void {
    this.stop()
    for (const timer of this.pending.values()) clearTimeout(timer)
  }

  private onAgentEvent(event: { sessionId: string; agentId: string; type: string; [key: string]: unknown }): void {
    const entry = this.live.get(event.sessionId)
    if (!entry) return
    if (event.type === 'turn_start' && event.agentId === 'main') this.update(entry, { state: 'running', message: undefined })
    else if (event.type === 'turn_end' && event.agentId === 'main') {
      const reason = String(event['reason'])
      this.update(entry, { state: reason === 'completed' ? 'done' : reason === 'aborted' ? 'stopped' : 'failed', message: typeof event['message'] === 'string' ? event['message'] : undefined })
      this.onTurnEnd?.(entry.runId)
    } else if (event.type === 'budget_status' && typeof event['spentUsd'] === 'number') this.update(entry, { costUsd: event['spentUsd'] })
    else if (event.type === 'usage' && event.agentId === 'main' && typeof event['costUsd'] === 'number') this.update(entry, { costUsd: Math.max(entry.costUsd, event['costUsd']) })
    else if (event.type === 'tool_end') this.tell(entry.runId, entry.projectPath)
  }

  private update(entry: LiveState & { runId: string; projectPath: string }, change: Partial<LiveState>): void {
    Object.assign(entry, change)
    if (change.message === undefined && 'message' in change) delete entry.message
    this.tell(entry.runId, entry.projectPath)
  }

  private tell(runId: string, projectPath: string): void {
    if (this.pending.has(runId)) return
    this.pending.set(
      runId,
      setTimeout(() => {
        this.pending.delete(runId)
        this.hub.emit('parallel.changed', { runId, projectPath })
      }, SETTLE_MS),
    )
  }
}
