import { lstatSync, readFileSync, type Stats } from 'node:fs'

// Synchronous small reads for a snapshot's critical path: one lstat or a read of a few bytes
// costs less than the thread-pool hand-off of its asynchronous form, which on a loaded machine
// waits for a core each time.

/** A file's text, or undefined when it cannot be read. */
export function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** A file's stat data as one string ('' when it is missing): what tells that someone else rewrote it. */
export function statMark(path: string): string {
  let info: Stats | undefined
  try {
    info = lstatSync(path)
  } catch {
    info = undefined
  }
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : ''
}
