import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs'

/**
 * Appends `text` to a file whole or not at all, synchronously. A full disk (ENOSPC, EDQUOT) lets
 * the kernel write part of a line and then refuse the rest; the part is cut off again, so a file of
 * lines never keeps a torn one. Creates the file with `mode` when it is missing.
 *
 * Contract: throws the write's own error when the text could not be written. When even cutting the
 * part back failed (rare: the truncate itself refused), the error has `torn: true`, and the next
 * writer must start a new line first (see {@link endsWithNewline}).
 */
export function appendWhole(path: string, text: string, mode = 0o600): void {
  const descriptor = openSync(path, 'a', mode)
  try {
    const start = fstatSync(descriptor).size
    const bytes = Buffer.from(text)
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written)
    } catch (error) {
      try {
        ftruncateSync(descriptor, start)
      } catch {
        Object.assign(error as object, { torn: true })
      }
      throw error
    }
  } finally {
    closeSync(descriptor)
  }
}

/** Whether the file ends with a newline (or is empty); a missing file counts as ended. */
export function endsWithNewline(path: string): boolean {
  let descriptor: number
  try {
    descriptor = openSync(path, 'r')
  } catch {
    return true
  }
  try {
    const size = fstatSync(descriptor).size
    if (size === 0) return true
    const last = Buffer.alloc(1)
    readSync(descriptor, last, 0, 1, size - 1)
    return last[0] === 0x0a
  } finally {
    closeSync(descriptor)
  }
}
