import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs'
import { OWN_CREDENTIALS } from './child-env'

/**
 * Sous's credentials for the model leave the process environment at start-up. Children never got
 * them (see child-env.ts), but any process of the same user — a hook, an MCP server, a command the
 * model runs outside the sandbox — can read `/proc/<sous pid>/environ`, and on Linux that file
 * shows the environment block the process was *started* with: `delete process.env.X` (glibc
 * `unsetenv`) only drops the pointer from `environ`, the bytes stay where the kernel put them.
 * So at start the entry points call {@link sealOwnCredentials}: it copies the environment (the copy
 * is what the model service reads), deletes the credentials from `process.env`, and overwrites
 * their bytes in that start-up block through `/proc/self/mem` (a process may write its own
 * memory; the block is on the writable stack, so no FOLL_FORCE is involved). Measured
 * (`npm run bench secrets`): about 1 ms cold, against about 40 ms for the second Node start-up a
 * re-exec with the key on a pipe would add — and a re-exec leaves a parent whose own environ still
 * holds the key. See docs/design/session-runtime.md, "The model key and /proc/<pid>/environ".
 */

/** How sealing went (for diagnostics and tests). */
export interface SealOutcome {
  /** The environment as it was, credentials included: what Sous's own model client reads. */
  env: NodeJS.ProcessEnv
  /** Credentials that were removed from `process.env`. */
  removed: string[]
  /** Whether the start-up block (`/proc/self/environ`) no longer holds them: `'not-linux'` elsewhere. */
  scrubbed: boolean | 'not-linux'
}

/**
 * Copies `process.env`, then removes Sous's credentials from it and from the start-up environment
 * block. Call once, first thing in an entry point, and hand the returned `env` to the runtime.
 * Children the user explicitly passes a credential to (`passEnv`) get it from that copy, which the
 * hosts hand to everything that builds a child's environment. Contract: never throws.
 */
export function sealOwnCredentials(names: readonly string[] = OWN_CREDENTIALS): SealOutcome {
  const env: NodeJS.ProcessEnv = { ...process.env }
  const removed: string[] = []
  for (const name of names) {
    const value = process.env[name]
    if (value === undefined) continue
    delete process.env[name]
    removed.push(name)
  }
  const scrubbed = process.platform === 'linux' ? scrubStartupEnvironment(names) : 'not-linux'
  return { env, removed, scrubbed }
}

/**
 * Overwrites `NAME=value` entries of the start-up environment block with NUL bytes. The block
 * lies between `env_start` and `env_end` (fields 50 and 51 of `/proc/self/stat`, Linux ≥ 3.5).
 * Returns whether no entry of `names` is left in it. Contract: never throws.
 */
export function scrubStartupEnvironment(names: readonly string[]): boolean {
  let fd: number | undefined
  try {
    const [start, end] = environmentBounds()
    fd = openSync('/proc/self/mem', 'r+')
    const block = Buffer.alloc(end - start)
    readSync(fd, block, 0, block.length, start)
    const prefixes = names.map((name) => Buffer.from(`${name}=`, 'latin1'))
    let clean = true
    for (let offset = 0; offset < block.length; ) {
      let stop = block.indexOf(0, offset)
      if (stop < 0) stop = block.length
      const entry = block.subarray(offset, stop)
      if (prefixes.some((prefix) => entry.subarray(0, prefix.length).equals(prefix))) {
        const written = writeSync(fd, Buffer.alloc(entry.length), 0, entry.length, start + offset)
        if (written !== entry.length) clean = false
      }
      offset = stop + 1
    }
    return clean
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function environmentBounds(): [number, number] {
  const stat = readFileSync('/proc/self/stat', 'latin1')
  // The command name (field 2) is in parentheses and may hold spaces: count from after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ')
  const start = Number(fields[50 - 3])
  const end = Number(fields[51 - 3])
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) throw new Error('no environment bounds in /proc/self/stat')
  return [start, end]
}
