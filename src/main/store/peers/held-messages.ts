import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../base/atomic-write'

/**
 * A message from another session that waits for the user (policy `hold`), kept on disk so it
 * outlives the session's process: `$SOUS_HOME/peers/held/<session id>.json`, one JSON array.
 */
export const HeldMessage = z.object({
  id: z.string().min(1).max(100),
  msgId: z.string().min(1).max(100),
  fromSessionId: z.string().max(100),
  from: z.string().max(300),
  text: z.string().max(100_000),
  at: z.number(),
})
export type HeldMessage = z.infer<typeof HeldMessage>

/** A cross-process lock around `critical` (the mailboxes' `withFileLock`, given by the caller: store folders do not import each other). */
export type FileLock = <T>(file: string, critical: () => Promise<T>) => Promise<T>

/** A session id as a file name (as the registry's). */
const FILE_NAME = /^[A-Za-z0-9_-]{1,64}$/

function heldPath(root: string, sessionId: string): string {
  if (!FILE_NAME.test(sessionId)) throw new Error(`"${sessionId}" is not a usable session id.`)
  return join(root, 'held', `${sessionId}.json`)
}

/**
 * The held messages of one session. Every change is a read-modify-write under the given file lock
 * (the mailboxes') and an atomic replace, so two processes of one session (a close racing a resume) never
 * lose each other's change and a reader never sees half a file. A damaged file is reported
 * through `onProblem`, kept beside it as `<file>.damaged-<time>`, and read as empty.
 * Contract: `read` never throws; `add` and `remove` reject only when the file cannot be written.
 */
export class HeldMessages {
  private readonly file: string

  constructor(root: string, sessionId: string, private readonly lock: FileLock, private readonly onProblem: (message: string) => void = () => {}) {
    this.file = heldPath(root, sessionId)
  }

  /** What is held, oldest first. */
  async read(): Promise<HeldMessage[]> {
    return this.lock(this.file, () => this.load()).catch((error: unknown) => {
      this.onProblem(`The held messages at ${this.file} could not be read: ${error instanceof Error ? error.message : String(error)}`)
      return []
    })
  }

  /** Keeps a message (once: a second add of one id changes nothing). */
  async add(message: HeldMessage): Promise<void> {
    await this.change((messages) => (messages.some((entry) => entry.id === message.id) ? messages : [...messages, message]))
  }

  /** Forgets a message (released or dropped). */
  async remove(id: string): Promise<void> {
    await this.change((messages) => messages.filter((entry) => entry.id !== id))
  }

  private async change(edit: (messages: HeldMessage[]) => HeldMessage[]): Promise<void> {
    await this.lock(this.file, async () => {
      const before = await this.load()
      const after = edit(before)
      if (after !== before) await writeFileAtomic(this.file, JSON.stringify(after, null, 2), 0o600)
    })
  }

  /** Under the lock: the file's messages; a damaged file is moved aside and reported. */
  private async load(): Promise<HeldMessage[]> {
    let raw: string
    try {
      raw = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      return this.damaged('it is not JSON')
    }
    const checked = z.array(HeldMessage).safeParse(parsed)
    if (!checked.success) return this.damaged('it is not a list of held messages')
    return checked.data
  }

  private async damaged(why: string): Promise<HeldMessage[]> {
    const keptAt = `${this.file}.damaged-${Date.now()}`
    await rename(this.file, keptAt).catch(() => undefined)
    this.onProblem(`The held messages at ${this.file} were skipped: ${why} (its content is kept at ${keptAt}).`)
    return []
  }
}
