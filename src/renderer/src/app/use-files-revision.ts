import { useSyncExternalStore } from 'react'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { sessionOnScreen } from '../state/session'

/**
 * A number that goes up whenever the agent of the session on screen may have changed files (a tool
 * or a turn ended, in the main agent or a subagent), so the file tree, the session's changes and
 * the session list know to look again.
 *
 * Why a store of its own, bumped at most once a frame: eight subagents end tools many times a
 * second, and each bump reloads three lists from the host. Only the views that reload read it
 * ({@link useFilesRevision} in their own component), so a bump re-renders them and not the shell.
 */
let revision = 0
let scheduled = false
const listeners = new Set<() => void>()

function bump(): void {
  scheduled = false
  revision += 1
  for (const listener of listeners) listener()
}

/** One `agent.event` (fed by `app/event-feed.ts`): a tool or turn of the session on screen ended. */
export function noteFilesChange(event: AgentEvent): void {
  if (scheduled || (event.type !== 'tool_end' && event.type !== 'turn_end') || event.sessionId !== sessionOnScreen().sessionId) return
  scheduled = true
  // A hidden window gets no frames; a timer keeps its lists current all the same.
  if (document.hidden) setTimeout(bump, 100)
  else requestAnimationFrame(bump)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The current files revision; re-renders the caller (only) when it goes up. */
export function useFilesRevision(): number {
  return useSyncExternalStore(subscribe, () => revision)
}
