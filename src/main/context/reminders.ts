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

/** Where parts of a session push reminders (the queue's write side). */
export interface ReminderSink {
  push(text: string, options: { source: string; stillRelevant?: () => boolean }): void
}

/** A session's queue of reminders. Contract: `drain` never throws and returns oldest first. */
export class ReminderQueue implements ReminderSink {
  private pending: Reminder[] = []

  push(text: string, options: { source: string; stillRelevant?: () => boolean }): void {
    if (text.trim() === '') return
    this.pending.push({ text, ...options })
  }

  /** How many are waiting (some may turn out no longer relevant). */
  get size(): number {
    return this.pending.length
  }

  /** Takes every reminder still relevant, oldest first, and empties the queue. */
  drain(): Reminder[] {
    const taken = this.pending
    this.pending = []
    return taken.filter((reminder) => {
      try {
        return reminder.stillRelevant?.() ?? true
      } catch {
        return true
      }
    })
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
