/**
 * `@path` completion in the composer: finding the mention being typed, inserting the chosen path,
 * and asking the main process for matches without flooding it or showing stale answers.
 */

/** The `@…` being typed at the caret: where its `@` is and what follows it up to the caret. */
export interface MentionQuery {
  start: number
  query: string
}

/**
 * The mention the caret is in, if any: an `@` at the start or after white space, followed by
 * characters without white space or quotes (`foo@bar` is an e-mail address, not a mention).
 */
export function mentionAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret)
  const match = /(^|\s)@([^\s"'`@]*)$/.exec(before)
  if (!match) return undefined
  const query = match[2] ?? ''
  return { start: caret - query.length - 1, query }
}

/**
 * The text with the mention at `mention.start` (through the rest of its word) replaced by
 * `@path`, and where the caret goes. A file is followed by a space; a folder (`dir/`) is not, so
 * typing goes on inside it. A path with spaces is quoted, as dropped files are.
 */
export function insertMention(text: string, mention: MentionQuery, path: string): { text: string; caret: number } {
  const wordEnd = /^[^\s]*/.exec(text.slice(mention.start))?.[0].length ?? 0
  const rest = text.slice(mention.start + wordEnd)
  const folder = path.endsWith('/')
  const token = /\s/.test(path) ? `@"${path}"` : `@${path}`
  const spacer = folder || /^\s/.test(rest) ? '' : ' '
  const inserted = `${token}${spacer}`
  const caret = mention.start + inserted.length + (!folder && spacer === '' && rest.length > 0 ? 1 : 0)
  return { text: `${text.slice(0, mention.start)}${inserted}${rest}`, caret }
}

/** Answers of a search, as the composer shows them. */
export type SearchFn = (query: string) => Promise<string[] | undefined>

/** Timers, so tests can drive the debounce without waiting. */
export interface Timers {
  set(run: () => void, ms: number): unknown
  clear(handle: unknown): void
}

const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Asks `search` for `query` once typing pauses for `delayMs`, and hands `onResults` only the
 * answer to the latest query: a slow reply to an older query is dropped.
 */
export class MentionSearch {
  private timer: unknown
  private generation = 0

  constructor(
    private readonly search: SearchFn,
    private readonly onResults: (query: string, paths: string[]) => void,
    private readonly delayMs = 120,
    private readonly timers: Timers = realTimers,
  ) {}

  /** A new query replaces any pending or in-flight one. */
  request(query: string): void {
    this.cancel()
    const generation = this.generation
    this.timer = this.timers.set(() => {
      this.timer = undefined
      void this.search(query).then(
        (paths) => {
          if (generation === this.generation && paths) this.onResults(query, paths)
        },
        () => undefined,
      )
    }, this.delayMs)
  }

  /** Forgets the pending query and any reply still on its way. */
  cancel(): void {
    this.generation++
    if (this.timer !== undefined) this.timers.clear(this.timer)
    this.timer = undefined
  }
}
