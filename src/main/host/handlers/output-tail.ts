/**
 * The recent output of a terminal, kept for a reloaded page to draw again: the last `limit`
 * characters, cut at a line start where one is near.
 *
 * Why chunks and not one string: appending each batch to a string and cutting it back to the
 * limit copied the whole tail (200 K characters) for every batch of a flood; chunks are only
 * dropped from the front, and joined when a page asks.
 */
export interface OutputTail {
  push(data: string): void
  /** The kept output. */
  text(): string
}

/** How far into the tail a line start is looked for, to begin at it. */
const LINE_START_WITHIN = 4096

/** Creates a tail keeping the last `limit` characters pushed (a little more is held between calls to `text`). */
export function createOutputTail(limit: number): OutputTail {
  let chunks: string[] = []
  let chars = 0
  return {
    push(data) {
      if (data.length === 0) return
      chunks.push(data)
      chars += data.length
      // Held: at most `limit` plus one chunk.
      let drop = 0
      while (drop < chunks.length - 1 && chars - chunks[drop]!.length >= limit) chars -= chunks[drop++]!.length
      if (drop > 0) chunks = chunks.slice(drop)
    },
    text() {
      const all = chunks.length === 1 ? chunks[0]! : chunks.join('')
      chunks = all.length > 0 ? [all] : []
      if (all.length <= limit) return all
      const tail = all.slice(all.length - limit)
      const line = tail.indexOf('\n')
      return line !== -1 && line < LINE_START_WITHIN ? tail.slice(line + 1) : tail
    },
  }
}
