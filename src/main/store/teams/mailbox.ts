import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import { withFileLock } from './file-lock'
import { InboxMessage } from './messages'
import { isValidMemberName } from './team-paths'

/** A mailbox file that could not be read as Claude Code writes it, and where its content went. */
export interface MailboxProblem {
  file: string
  message: string
  /** Where the damaged content was kept (nothing is lost). */
  keptAt?: string
}

/** What is sent: the entry less its time and read flag (added here). */
export type OutgoingMessage = Omit<InboxMessage, 'timestamp' | 'read'> & { timestamp?: string }

/**
 * The mailboxes of one team: `<team>/inboxes/<name>.json`, one per member, each a JSON array of
 * {@link InboxMessage}s (Claude Code's layout). Every change is read-modify-write under the file's
 * lock (`<name>.json.lock`) and replaces the file atomically, so a reader never sees half a write
 * and concurrent writers (in this process or others) never lose each other's messages.
 * A damaged file (not JSON, truncated, not an array) or entry is reported through `onProblem`,
 * moved aside to `<name>.json.damaged-<time>` and skipped; the mailbox goes on from what was valid.
 * Contract: `read` never throws; `send` and `take` reject only when the lock cannot be had or
 * the disk refuses.
 */
export class TeamMailboxes {
  constructor(
    /** `<teams>/<team>`. */
    readonly teamDir: string,
    private readonly onProblem: (problem: MailboxProblem) => void = () => {},
  ) {}

  /** The file of a member's mailbox; throws for a name that is no plain file name. */
  pathOf(name: string): string {
    if (!isValidMemberName(name)) throw new Error(`"${name}" is not a usable member name.`)
    return join(this.teamDir, 'inboxes', `${name}.json`)
  }

  /** Appends a message to `recipient`'s mailbox (creating it), stamped now unless it carries a time. */
  async send(recipient: string, message: OutgoingMessage): Promise<InboxMessage> {
    const file = this.pathOf(recipient)
    const entry: InboxMessage = { ...message, timestamp: message.timestamp ?? new Date().toISOString(), read: false }
    await withFileLock(file, async () => {
      const current = await this.load(file, true)
      current.push(entry)
      await writeFileAtomic(file, JSON.stringify(current, null, 2), 0o644)
    })
    return entry
  }

  /** Takes the unread messages out of `name`'s mailbox (they are delivered: Claude Code prunes them too). */
  async take(name: string): Promise<InboxMessage[]> {
    const file = this.pathOf(name)
    return withFileLock(file, async () => {
      const current = await this.load(file, true)
      const unread = current.filter((message) => !message.read)
      if (unread.length === 0 && current.length === 0) return []
      await writeFileAtomic(file, '[]', 0o644)
      return unread
    })
  }

  /** What `name`'s mailbox holds now, without the lock (the file is always whole). Never throws. */
  async read(name: string): Promise<InboxMessage[]> {
    try {
      return await this.load(this.pathOf(name), false)
    } catch {
      return []
    }
  }

  /**
   * The valid entries of a mailbox file (none when it does not exist). Damage is reported; when
   * `repair` (under the lock) the damaged content is moved aside first, so the next write starts clean.
   */
  private async load(file: string, repair: boolean): Promise<InboxMessage[]> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      await this.damaged(file, repair, `not JSON (${error instanceof Error ? error.message : String(error)}); it may have been cut off mid-write`)
      return []
    }
    if (!Array.isArray(parsed)) {
      await this.damaged(file, repair, `its top level is ${parsed === null ? 'null' : typeof parsed}, not an array of messages`)
      return []
    }
    const valid: InboxMessage[] = []
    let invalid = 0
    for (const entry of parsed) {
      const checked = InboxMessage.safeParse(entry)
      if (checked.success) valid.push(checked.data)
      else invalid++
    }
    if (invalid > 0) await this.damaged(file, repair, `${invalid} entr${invalid === 1 ? 'y is' : 'ies are'} not messages (from, text, timestamp) and were skipped`, valid)
    return valid
  }

  private async damaged(file: string, repair: boolean, message: string, keep?: InboxMessage[]): Promise<void> {
    if (!repair) return this.onProblem({ file, message })
    const keptAt = `${file}.damaged-${Date.now()}`
    try {
      await rename(file, keptAt)
      if (keep) await writeFileAtomic(file, JSON.stringify(keep, null, 2), 0o644)
      this.onProblem({ file, message, keptAt })
    } catch {
      this.onProblem({ file, message })
    }
  }
}
