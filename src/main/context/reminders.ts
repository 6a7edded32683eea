import type { Message, TextBlock } from '../services/model/types'

/**
 * News for the model that arrives between requests — a background command finished, a hook added
 * context, (later) memories recalled, tasks changed, MCP tools joined, files changed on disk.
 * Any part of a session pushes to its {@link ReminderQueue}; the loop drains it into the user
 * message it is about to send, as `<system-reminder>` text blocks after that message's own
 * content. Earlier messages are never rewritten, so the prefix the previous request cached stays
 * byte-identical, and the reminders are persisted with the message that carried them.
 */

/** One queued piece of news. */
export interface Reminder {
  /** The text the model reads (inside `<system-reminder>` tags). */
  text: string
  /** Who pushed it, for logs and tests (`background-task`, `PostToolUse hook`…). */
  source: string
  /** Asked at drain time: news the model has since learned another way is dropped. */
  stillRelevant?: () => boolean
}

/**
 * A part of the session that reminds by the request rather than by an event (plan mode every few
 * requests, a task list left alone): asked once per drain, that is once per request about to be
 * sent, after the queued news. It may count requests; a throw counts as nothing due.
 */
export interface ReminderSource {
  /** Who reminds, for logs and tests (`plan mode`, `tasks`). */
  readonly source: string
  /** The reminders due with this request, in order. */
  due(): readonly string[]
}

/** Where parts of a session push reminders (the queue's write side). */
export interface ReminderSink {
  push(text: string, options: { source: string; stillRelevant?: () => boolean }): void
}

/** A session's queue of reminders. Contract: `drain` never throws and returns oldest first. */
export class ReminderQueue implements ReminderSink {
  private pending: Reminder[] = []
  private readonly sources: ReminderSource[] = []

  push(text: string, options: { source: string; stillRelevant?: () => boolean }): void {
    if (text.trim() === '') return
    this.pending.push({ text, ...options })
  }

  /** How many are waiting (some may turn out no longer relevant). */
  get size(): number {
    return this.pending.length
  }

  /** Asks `source` at every drain from now on; returns a function that stops asking it. */
  addSource(source: ReminderSource): () => void {
    this.sources.push(source)
    return () => {
      const at = this.sources.indexOf(source)
      if (at >= 0) this.sources.splice(at, 1)
    }
  }

  /**
   * Takes every reminder still relevant, oldest first, and empties the queue; then what the
   * sources say is due with this request. Call it once per request (the loop drains into the user
   * message it is about to send).
   */
  drain(): Reminder[] {
    const taken = this.pending
    this.pending = []
    const relevant = taken.filter((reminder) => {
      try {
        return reminder.stillRelevant?.() ?? true
      } catch {
        return true
      }
    })
    for (const source of this.sources) {
      let due: readonly string[] = []
      try {
        due = source.due()
      } catch {
        due = []
      }
      for (const text of due) if (text.trim() !== '') relevant.push({ text, source: source.source })
    }
    return relevant
  }
}

/** The text block the model sees for one reminder. */
export function reminderBlock(text: string): TextBlock {
  return { type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }
}

/**
 * A user message with reminders appended after its own content (tool_results stay first, as the
 * API requires). Returns the same message when there is nothing to add; never mutates it.
 */
export function withReminders(message: Extract<Message, { role: 'user' }>, reminders: readonly Reminder[]): Extract<Message, { role: 'user' }> {
  if (reminders.length === 0) return message
  const own = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
  return { role: 'user', content: [...own, ...reminders.map((reminder) => reminderBlock(reminder.text))] }
}
