import { useSyncExternalStore } from 'react'
import { api } from '../api'
import { useChat } from '../features/chat/store'

/**
 * A number that goes up whenever the agent of the chat's session may have changed files (a tool
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

api.on('agent.event', (event) => {
  if (scheduled || (event.type !== 'tool_end' && event.type !== 'turn_end') || event.sessionId !== useChat.getState().sessionId) return
  scheduled = true
  // A hidden window gets no frames; a timer keeps its lists current all the same.
  if (document.hidden) setTimeout(bump, 100)
  else requestAnimationFrame(bump)
})

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The current files revision; re-renders the caller (only) when it goes up. */
export function useFilesRevision(): number {
  return useSyncExternalStore(subscribe, () => revision)
}
