import { create } from 'zustand'
import type { ApprovalRequested, ApprovalResolution, HookRunInfo } from '../../../../shared/ipc/contract'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { createFrameBatcher } from '../../lib/frame-batcher'
import { sessionOnScreen } from '../../state/session'
import { emptyTimeline, foldTimeline, type Timeline, type TimelineInput } from './model'
import type { Recording } from './replay'

/**
 * The timeline of the session on screen, folded live from the events the event feed hands over
 * (`app/event-feed.ts` calls the `receive…` functions; nothing here subscribes by itself), or
 * built from a stored session's recording when the shell opens one. Whether the strip is shown
 * lives here too. Replay is in `replay-store.ts`.
 */
export interface TimelineState {
  /** The session on screen's timeline; null before it has one. */
  timeline: Timeline | null
  /** The strip is shown under the conversation. */
  shown: boolean
  toggle(): void
}

export const useTimeline = create<TimelineState>()((set) => ({
  timeline: null,
  shown: true,
  toggle() {
    set((state) => ({ shown: !state.shown }))
  },
}))

const batcher = createFrameBatcher<TimelineInput>((inputs) => {
  const { sessionId } = sessionOnScreen()
  if (!sessionId) return
  const current = useTimeline.getState().timeline
  const base = current?.sessionId === sessionId ? current : emptyTimeline(sessionId)
  const next = foldTimeline(base, inputs)
  // A batch of deltas changes no mark: nothing re-renders.
  if (next !== current) useTimeline.setState({ timeline: next })
})

function push(sessionId: string | undefined, input: TimelineInput): void {
  if (sessionId !== undefined && sessionId === sessionOnScreen().sessionId) batcher.push(input)
}

/** One `agent.event` of any agent (the main agent's and its subagents'). */
export function receiveTimelineEvent(event: AgentEvent): void {
  // Deltas never make a mark; leaving them out keeps a streaming reply from scheduling frames here.
  if (event.type === 'text_delta' || event.type === 'thinking_delta' || event.type === 'tool_progress' || event.type === 'tool_summary') return
  push(event.sessionId, { kind: 'event', event })
}

/** A hook ran (`hooks.ran`). */
export function receiveTimelineHook({ run }: { run: HookRunInfo }): void {
  push(run.sessionId, { kind: 'hook', run })
}

/** A call waits for the user (`approval.requested`). */
export function receiveTimelineApproval(request: ApprovalRequested): void {
  push(request.sessionId, { kind: 'approval', request })
}

/** An approval was answered (`approval.resolved`). */
export function receiveTimelineResolution(resolved: { id: string; sessionId: string; outcome: ApprovalResolution }): void {
  push(resolved.sessionId, { kind: 'approval_resolved', id: resolved.id, outcome: resolved.outcome })
}

/** The timeline of a recording (a stored session's events, its subagents' merged in). Pure. */
export function timelineOf(sessionId: string, recording: Recording): Timeline {
  return foldTimeline(emptyTimeline(sessionId), recording.events.map((event) => ({ kind: 'event', event }) as const))
}

/**
 * Shows a stored session's timeline (the shell opened it). Live events queued for it meanwhile are
 * folded on top at the next frame; one already in the recording changes nothing (marks are by id).
 */
export function showStoredTimeline(sessionId: string, recording: Recording): void {
  if (sessionOnScreen().sessionId !== sessionId) return
  useTimeline.setState({ timeline: timelineOf(sessionId, recording) })
}

/** Starts the on-screen session's timeline over (a new conversation). */
export function clearTimeline(): void {
  batcher.clear()
  useTimeline.setState({ timeline: null })
}
