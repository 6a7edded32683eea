import type { McpLogLine } from './types'

const MAX_LINES = 200
const MAX_LINE = 2000

/** A server's log, bounded: the newest 200 lines of at most 2,000 characters each. */
export class ServerLog {
  private readonly entries: McpLogLine[] = []

  push(source: McpLogLine['source'], text: string): void {
    this.entries.push({ at: Date.now(), source, text: text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text })
    if (this.entries.length > MAX_LINES) this.entries.splice(0, this.entries.length - MAX_LINES)
  }

  /** A copy, oldest first. */
  lines(): McpLogLine[] {
    return [...this.entries]
  }

  /** The last line the server wrote on stderr (cut to 300 characters), for failure messages. */
  lastStderr(): string | undefined {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const line = this.entries[index]!
      if (line.source === 'stderr') return line.text.slice(0, 300)
    }
    return undefined
  }
}
