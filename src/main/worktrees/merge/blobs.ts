import { execFile } from 'node:child_process'
import { gitEnv } from './git'

/** A file's bytes at a commit, or `undefined` when the commit has no such file. */
export type Blob = Buffer | undefined

/** A `git cat-file --batch` started ahead of its questions. */
export interface BlobReader {
  /** Asks once: many files of one commit. Contract: never rejects; a failed run reads as every file absent. */
  read(commit: string, paths: readonly string[]): Promise<Map<string, Blob>>
  /** Ends the process unasked (when the caller failed before it knew what to ask). */
  close(): void
}

/**
 * Starts `git cat-file --batch` in `cwd` now, to be asked later: the process starts while the
 * caller still works out which commit and paths to ask for (the compare view's first paint waits
 * for every session's read, and a process start is most of a small read's time on a busy machine).
 * Many files in one process, not one per file. Paths with a newline cannot be asked for in batch
 * mode and read as absent.
 */
export function startBlobReader(cwd: string, env?: NodeJS.ProcessEnv): BlobReader {
  let asked: readonly string[] = []
  let settle: ((result: { error: Error | null; stdout: Buffer }) => void) | undefined
  const finished = new Promise<{ error: Error | null; stdout: Buffer }>((resolve) => (settle = resolve))
  const child = execFile('git', ['cat-file', '--batch'], { cwd, env: gitEnv(env), encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 }, (error, stdout) => settle!({ error, stdout }))
  child.stdin?.on('error', () => undefined)
  let used = false
  return {
    async read(commit, paths) {
      if (used) throw new Error('a blob reader is asked once')
      used = true
      const out = new Map<string, Blob>(paths.map((path) => [path, undefined]))
      asked = paths.filter((path) => !path.includes('\n'))
      child.stdin?.end(asked.map((path) => `${commit}:${path}\n`).join(''))
      const { error, stdout } = await finished
      if (!error) parseBatch(stdout, asked, out)
      return out
    },
    close() {
      used = true
      child.stdin?.end('')
    },
  }
}

/** Reads many files of one commit in a single `git cat-file --batch` (see {@link startBlobReader}). Contract: never rejects. */
export function readBlobs(cwd: string, commit: string, paths: readonly string[], env?: NodeJS.ProcessEnv): Promise<Map<string, Blob>> {
  if (paths.every((path) => path.includes('\n'))) return Promise.resolve(new Map(paths.map((path) => [path, undefined])))
  return startBlobReader(cwd, env).read(commit, paths)
}

/** Reads `cat-file --batch` answers in the order asked: `<oid> <type> <size>\n<bytes>\n` or `<name> missing\n`. */
function parseBatch(stdout: Buffer, asked: readonly string[], out: Map<string, Blob>): void {
  let at = 0
  for (const path of asked) {
    const end = stdout.indexOf(0x0a, at)
    if (end < 0) return
    const header = stdout.subarray(at, end).toString('utf8')
    at = end + 1
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header)
    if (!match) continue
    const size = Number(match[2])
    if (match[1] === 'blob') out.set(path, Buffer.from(stdout.subarray(at, at + size)))
    at += size + 1
  }
}

/** Whether bytes look binary (a NUL in the first 8000, as git decides). */
export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0)
}
