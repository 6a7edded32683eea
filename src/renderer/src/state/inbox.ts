import { create } from 'zustand'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { api } from '../api'
import { applyEvent, applyInputWait, seen, type EventEntries } from './inbox-model'
import { sessionOnScreen } from './session'

/**
 * The attention inbox's own facts (the approvals it lists are `state/approvals.ts`): the entries
 * session events brought (pauses, runs that ended unseen), and which project each session belongs
 * to, so an entry opens its project and session. Fed by `app/event-feed.ts`; read by the inbox
 * view, the title and the dock badge.
 */
export interface InboxFacts {
  events: EventEntries
  /** Session id → project path, for the sessions the inbox names. */
  projects: Readonly<Record<string, string>>
}

export const useInboxFacts = create<InboxFacts>()(() => ({ events: {}, projects: {} }))

/** The user is looking at this session now: on screen, in a window that has the focus. */
function watching(sessionId: string): boolean {
  return sessionOnScreen().sessionId === sessionId && document.hasFocus()
}

/** A session event: pauses come and go, runs that end unseen are kept until looked at. */
export function receiveInboxEvent(event: AgentEvent): void {
  const events = applyEvent(useInboxFacts.getState().events, event, Date.now(), watching)
  if (events !== useInboxFacts.getState().events) useInboxFacts.setState({ events })
  if (event.type === 'turn_start' || event.type === 'session_pause' || event.type === 'turn_end') void learnProject(event.sessionId)
}

/** An agent command waits for input, or no longer does (the Agent tab's badge and an inbox entry). */
export function receiveInputWait(change: { sessionId: string; ptyId: string; command: string; waiting: boolean }): void {
  useInboxFacts.setState((state) => ({ events: applyInputWait(state.events, change, Date.now()) }))
  if (change.waiting) void learnProject(change.sessionId)
}

/** Whether a command of `sessionId` waits for input now. */
export function waitsForInput(events: EventEntries, sessionId: string | null): boolean {
  return sessionId !== null && Object.values(events).some((entry) => entry.kind === 'input' && entry.sessionId === sessionId)
}

/** The user opened a session: its ended run has been seen. */
export function markSeen(sessionId: string): void {
  const events = seen(useInboxFacts.getState().events, sessionId)
  if (events !== useInboxFacts.getState().events) useInboxFacts.setState({ events })
}

/** Removes one entry the user dismissed. */
export function dismissEntry(id: string): void {
  const { [id]: _gone, ...events } = useInboxFacts.getState().events
  useInboxFacts.setState({ events })
}

/** Records a session's project (the chat knows it for the session on screen). */
export function noteSessionProject(sessionId: string, projectPath: string): void {
  if (useInboxFacts.getState().projects[sessionId] !== projectPath) useInboxFacts.setState((state) => ({ projects: { ...state.projects, [sessionId]: projectPath } }))
}

let listing: Promise<void> | undefined

/** Looks a session's project up in the host's session list (once per unknown session, shared). */
export async function learnProject(sessionId: string): Promise<void> {
  if (useInboxFacts.getState().projects[sessionId]) return
  listing ??= (async () => {
    const listed = await api.invoke('session.list', {})
    if (listed.ok) {
      const found: Record<string, string> = {}
      for (const summary of listed.value) found[summary.sessionId] = summary.projectPath
      useInboxFacts.setState((state) => ({ projects: { ...found, ...state.projects } }))
    }
  })().finally(() => {
    listing = undefined
  })
  await listing
}
