import type { RequestOutput } from '../../../shared/ipc/contract'
import type { Result } from '../../../shared/ipc/result'
import { api } from './index'

/** A stored session's summary and events, as `session.history` answers. */
export type SessionHistory = Result<RequestOutput<'session.history'>>

/**
 * `session.history` parses the session's whole transcript on main, so opening a session asks for
 * it once: the chat's resume fetches it ({@link fetchSessionHistory}) and leaves the answer here,
 * and the Agent terminal, which follows the chat to that session a moment later, takes it
 * ({@link takeSessionHistory}) instead of asking again. An answer is taken at most once, and is
 * dropped as soon as the session records anything new — it would be out of date by then.
 */
let handed: { sessionId: string; history: Promise<SessionHistory>; stopWatching: () => void } | undefined

function drop(): void {
  handed?.stopWatching()
  handed = undefined
}

/** Asks for `sessionId`'s history and keeps the answer for the next {@link takeSessionHistory} of it. */
export function fetchSessionHistory(sessionId: string): Promise<SessionHistory> {
  drop()
  const history = api.invoke('session.history', { sessionId })
  const stopWatching = api.on('agent.event', (event) => {
    if (event.sessionId === sessionId) drop()
  })
  handed = { sessionId, history, stopWatching }
  return history
}

/** `sessionId`'s history: the answer the chat left, when it is for this session and still current; else a new request. */
export function takeSessionHistory(sessionId: string): Promise<SessionHistory> {
  if (handed?.sessionId !== sessionId) return api.invoke('session.history', { sessionId })
  const { history } = handed
  drop()
  return history
}
