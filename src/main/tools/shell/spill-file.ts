import { createWriteStream, existsSync, mkdirSync, writeFileSync, type WriteStream } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { cleanTerminalText } from './output'

/** Past this size the saved output is left as the terminal sent it (cleaning would read it all into memory). */
const MAX_CLEANED_BYTES = 64 * 1024 * 1024

/**
 * The whole output of one command, kept in memory up to `threshold` characters and written to
 * `path` once it grows past that, so what the model does not get inline is still there to Read
 * (Claude Code 2.1.328's `bashOutputMaxChars`: "the rest to a file").
 * Contract: never throws; a file that cannot be written is reported by {@link finish} as undefined.
 */
export class SpillFile {
  private chunks: string[] = []
  private size = 0
  private stream: WriteStream | undefined
  private failed = false

  constructor(
    private readonly path: string,
    private readonly threshold: number,
  ) {}

  /** Makes the file now, whatever the threshold (a background command's output file). False when it cannot be made. */
  openNow(): boolean {
    if (this.stream || this.failed) return !this.failed
    this.open()
    if (this.failed) return false
    try {
      // The stream opens asynchronously: the file must exist for a Read right after the launch.
      if (!existsSync(this.path)) writeFileSync(this.path, '')
    } catch {
      // The stream reports its own failure.
    }
    return true
  }

  push(chunk: string): void {
    if (this.failed) return
    this.size += chunk.length
    if (this.stream) {
      this.stream.write(chunk)
      return
    }
    this.chunks.push(chunk)
    if (this.size > this.threshold) this.open()
  }

  /** Path of the saved output (terminal codes cleaned), or undefined when it stayed under the threshold or could not be written. */
  async finish(): Promise<string | undefined> {
    const stream = this.stream
    if (!stream || this.failed) return undefined
    await new Promise<void>((resolve) => stream.end(resolve))
    if (this.failed) return undefined
    try {
      if ((await stat(this.path)).size <= MAX_CLEANED_BYTES) await writeFile(this.path, cleanTerminalText(await readFile(this.path, 'utf8')).trimEnd() + '\n')
      return this.path
    } catch {
      return undefined
    }
  }

  private open(): void {
    try {
      // Once per long command, so a synchronous mkdir costs nothing worth a queue.
      mkdirSync(dirname(this.path), { recursive: true })
    } catch {
      this.failed = true
      this.chunks = []
      return
    }
    const stream = createWriteStream(this.path, { flags: 'w' })
    stream.on('error', () => {
      this.failed = true
    })
    this.stream = stream
    for (const chunk of this.chunks) stream.write(chunk)
    this.chunks = []
  }
}
