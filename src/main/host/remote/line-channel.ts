import type { Readable, Writable } from 'node:stream'
import { MAX_LINE_BYTES, readFrame, type Frame, type ReadFrame } from './frames'

/** One end of a newline-delimited JSON pipe. */
export interface LineChannel {
  /** Writes one frame as a line; false once the pipe is gone (the frame is dropped). */
  send(frame: Frame): boolean
  /** Stops reading and ends the writing side. */
  close(): void
  /** Settles once the reading side ended (EOF, error or close()). Never rejects. */
  readonly ended: Promise<void>
}

/** Options of {@link openLineChannel}. */
export interface LineChannelOptions {
  input: Readable
  output: Writable
  /** Every line read, parsed (or why it could not be). */
  onFrame(read: ReadFrame): void
  /** Longest line accepted; a longer one is reported as a bad frame and skipped. */
  maxLineBytes?: number
}

/**
 * Frames a pair of streams as lines of JSON. Reads in chunks and splits on `\n`, so a frame may
 * arrive in pieces; an over-long line is skipped to its end and reported once (never buffered
 * without bound). Contract: never throws; a write to a closed pipe is dropped.
 */
export function openLineChannel(options: LineChannelOptions): LineChannel {
  const limit = options.maxLineBytes ?? MAX_LINE_BYTES
  let pending: Buffer[] = []
  let pendingBytes = 0
  let skipping = false
  let closed = false
  const onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
      const piece = data.subarray(0, newline)
      data = data.subarray(newline + 1)
      if (skipping) {
        skipping = false
        continue
      }
      const line = Buffer.concat([...pending, piece]).toString('utf8')
      pending = []
      pendingBytes = 0
      if (line.trim() !== '') options.onFrame(readFrame(line))
    }
    if (data.length === 0 || skipping) return
    pendingBytes += data.length
    if (pendingBytes > limit) {
      pending = []
      pendingBytes = 0
      skipping = true
      options.onFrame({ ok: false, message: `A frame longer than ${limit} bytes was dropped.` })
      return
    }
    pending.push(Buffer.from(data))
  }
  const ended = new Promise<void>((resolve) => {
    const done = (): void => {
      closed = true
      resolve()
    }
    options.input.once('end', done)
    options.input.once('close', done)
    options.input.once('error', done)
  })
  options.input.on('data', onData)
  options.output.on('error', () => {
    closed = true
  })
  return {
    ended,
    send(frame) {
      if (closed || options.output.destroyed || options.output.writableEnded) return false
      options.output.write(`${JSON.stringify(frame)}\n`)
      return true
    },
    close() {
      if (closed) return
      closed = true
      options.input.off('data', onData)
      options.input.destroy()
      options.output.end()
    },
  }
}
