
// Not `import … from 'node:util'`: Node builds that ESM facade by reading every export, lazy
// ones too, which costs a cold `sous -p` ~10–20 ms (bench/startup.bench.ts).
const { stripVTControlCharacters } = process.getBuiltinModule('node:util')

/** What the model sees of a command's output at most; the middle is cut. */
export const MAX_OUTPUT_CHARS = 30_000

/**
 * Terminal output as plain text: escape codes stripped, CRLF → LF, and a line redrawn with `\r`
 * (progress bars) reduced to its last state.
 */
export function cleanTerminalText(raw: string): string {
  const plain = stripVTControlCharacters(raw).replace(/\r+\n/g, '\n')
  const lines = plain.split('\n').map((line) => {
    const cr = line.lastIndexOf('\r')
    return cr === -1 ? line : line.slice(cr + 1)
  })
  // Other C0 controls (bell, backspace, shift-in/out) mean nothing to the model.
  // eslint-disable-next-line no-control-regex
  return lines.join('\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
}

/** Cuts the middle out of text longer than `max`, saying how much went. */
export function cutMiddle(value: string, max = MAX_OUTPUT_CHARS, alreadyCut = 0): string {
  if (value.length <= max && alreadyCut === 0) return value
  if (value.length <= max) return value
  const half = Math.floor(max / 2)
  const cut = value.length - 2 * half + alreadyCut
  return `${value.slice(0, half)}\n\n... [${cut.toLocaleString('en-US')} characters cut from the middle of the output] ...\n\n${value.slice(-half)}`
}

/**
 * Keeps the first and the last `keep` characters of a stream, and counts the rest, so 20 MB of
 * output costs a fixed amount of memory.
 */
export class HeadTailBuffer {
  private head = ''
  private tailChunks: string[] = []
  private tailLength = 0
  private dropped = 0
  total = 0

  constructor(private readonly keep = 4 * MAX_OUTPUT_CHARS) {}

  push(chunk: string): void {
    this.total += chunk.length
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length
      this.head += chunk.slice(0, room)
      chunk = chunk.slice(room)
      if (!chunk) return
    }
    this.tailChunks.push(chunk)
    this.tailLength += chunk.length
    // Compact only when the tail is twice its budget, so pushes stay amortized O(1).
    if (this.tailLength > 2 * this.keep) {
      const joined = this.tailChunks.join('')
      const excess = joined.length - this.keep
      this.dropped += excess
      this.tailChunks = [joined.slice(excess)]
      this.tailLength = this.keep
    }
  }

  /** Clean text for the model, cut in the middle when long. */
  render(max = MAX_OUTPUT_CHARS): string {
    const tail = this.tailChunks.join('')
    if (this.dropped === 0) return cutMiddle(cleanTerminalText(this.head + tail).trimEnd(), max)
    const head = cleanTerminalText(this.head)
    const end = cleanTerminalText(tail).trimEnd()
    const half = Math.floor(max / 2)
    const cut = this.dropped + Math.max(0, head.length - half) + Math.max(0, end.length - half)
    return `${head.slice(0, half)}\n\n... [${cut.toLocaleString('en-US')} characters cut from the middle of the output] ...\n\n${end.slice(-half)}`
  }
}
