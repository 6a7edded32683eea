import type { ApprovalRequested } from '../../../shared/ipc/contract'
import type { AgentEvent } from '../../../shared/protocol/agent-event'

/**
 * The attention inbox as plain data: everything that waits for the user, in every open project and
 * session — approvals (edits, commands, plans, questions), budget and loop pauses, and runs that
 * ended while the user looked elsewhere. Approvals are the host's pending list (so answering one
 * anywhere, in any window or browser page, withdraws it everywhere); the other entries come from
 * the session events this page heard (a scheduled prompt that fired, or runs missed while the app was
 * closed, stay until the user opens the session; a message another session sent, held for the user,
 * stays until it is released or dropped). Pure, so the rules are tested on their own.
 */
export type InboxKind = 'approval' | 'plan' | 'question' | 'pause' | 'input' | 'finished' | 'failed' | 'scheduled' | 'peer'

export interface InboxEntry {
  /** Unique in the inbox: the approval id, `pause:<id>`, `run:<session>`. */
  id: string
  kind: InboxKind
  sessionId: string
  /** One line for the list ("Run npm test", "Finished"). */
  title: string
  /** When it arrived (ms), for the order: oldest first. */
  at: number
}

/** Entries that events bring and events (or the user) take away; approvals are not among them. */
export type EventEntries = Readonly<Record<string, InboxEntry>>

/** The approval as an inbox entry; `describe` is the one line the approval card itself uses. */
export function approvalEntry(request: ApprovalRequested, describe: (request: ApprovalRequested) => string, at: number): InboxEntry {
  const kind: InboxKind = request.preview?.kind === 'plan' ? 'plan' : request.toolName === 'AskUserQuestion' ? 'question' : 'approval'
  return { id: request.id, kind, sessionId: request.sessionId, title: describe(request), at }
}

/**
 * What an agent event does to the event entries. `watching(sessionId)`: the user has that session
 * in front of them now (on screen in a focused window), so its run ending needs no entry.
 */
export function applyEvent(entries: EventEntries, event: AgentEvent, at: number, watching: (sessionId: string) => boolean): EventEntries {
  const { sessionId } = event
  switch (event.type) {
    case 'session_pause': {
      const title = event.reason === 'budget' ? 'Paused at the spending cap' : 'Paused: the agent repeats itself'
      return { ...entries, [`pause:${event.pauseId}`]: { id: `pause:${event.pauseId}`, kind: 'pause', sessionId, title, at } }
    }
    case 'session_resume':
      return without(entries, (entry) => entry.id === `pause:${event.pauseId}`)
    case 'scheduled_fire': {
      const id = `scheduled:${event.jobId}:${event.at}`
      return { ...entries, [id]: { id, kind: 'scheduled', sessionId, title: `Scheduled: ${clip(event.prompt)}`, at } }
    }
    case 'scheduled_missed': {
      const id = `missed:${event.jobId}`
      const runs = event.runs.length === 1 ? 'a run' : `${event.runs.length} runs`
      return { ...entries, [id]: { id, kind: 'scheduled', sessionId, title: `Missed ${runs} while closed (not run): ${clip(event.prompt)}`, at } }
    }
    case 'peer_message': {
      const id = `peer:${event.messageId}`
      if (event.status !== 'held') return without(entries, (entry) => entry.id === id)
      return { ...entries, [id]: { id, kind: 'peer', sessionId, title: `Message from ${clip(event.from)} (held): ${clip(event.text.split('\n', 1)[0] ?? '')}`, at } }
    }
    case 'turn_start':
      if (event.agentId !== 'main') return entries
      // A new turn: the last one's ending is old news, and so is any pause of it (a scheduled prompt's news stays: its turn is what starts; a held message waits for the user's word).
      return without(entries, (entry) => entry.sessionId === sessionId && entry.kind !== 'scheduled' && entry.kind !== 'peer')
    case 'turn_end': {
      if (event.agentId !== 'main') return entries
      const rest = without(entries, (entry) => entry.sessionId === sessionId && entry.kind === 'pause')
      if (watching(sessionId) || event.reason === 'aborted') return rest
      const failed = event.reason !== 'completed'
      const title = failed ? `Stopped: ${event.message ?? event.reason.replaceAll('_', ' ')}` : 'Finished'
      return { ...rest, [`run:${sessionId}`]: { id: `run:${sessionId}`, kind: failed ? 'failed' : 'finished', sessionId, title, at } }
    }
    default:
      return entries
  }
}

/** An agent command that seems to wait for input (`agent.inputWait`), or no longer does. */
export function applyInputWait(entries: EventEntries, change: { sessionId: string; ptyId: string; command: string; waiting: boolean }, at: number): EventEntries {
  const id = `input:${change.ptyId}`
  if (!change.waiting) return without(entries, (entry) => entry.id === id)
  const command = change.command.length > 80 ? `${change.command.slice(0, 79)}…` : change.command
  return { ...entries, [id]: { id, kind: 'input', sessionId: change.sessionId, title: `Waits for input: ${command}`, at } }
}

/** The entries of a session the user has just opened (its run's ending has been seen). */
export function seen(entries: EventEntries, sessionId: string): EventEntries {
  return without(entries, (entry) => entry.sessionId === sessionId && (entry.kind === 'finished' || entry.kind === 'failed' || entry.kind === 'scheduled'))
}

/** The id of the held message an inbox entry stands for (undefined for any other entry). */
export function heldMessageId(entry: Pick<InboxEntry, 'id' | 'kind'>): string | undefined {
  return entry.kind === 'peer' ? entry.id.slice('peer:'.length) : undefined
}

/** The whole inbox, oldest first. */
export function inboxList(approvals: readonly InboxEntry[], events: EventEntries): InboxEntry[] {
  return [...approvals, ...Object.values(events)].sort((a, b) => a.at - b.at)
}

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text)

function without(entries: EventEntries, drop: (entry: InboxEntry) => boolean): EventEntries {
  const kept = Object.values(entries).filter((entry) => !drop(entry))
  return kept.length === Object.keys(entries).length ? entries : Object.fromEntries(kept.map((entry) => [entry.id, entry]))
}
