import { execFile } from 'node:child_process'
import { gitEnv } from './git'

/** A file's bytes at a commit, or `undefined` when the commit has no such file. */
export type Blob = Buffer | undefined

/**
 * Reads many files of one commit in a single `git cat-file --batch` (one process, not one per
 * file: the compare view reads every changed file of every session). Paths with a newline cannot
 * be asked for in batch mode and read as absent. Contract: never rejects; a failed run reads as
 * every file absent.
 */
export function readBlobs(cwd: string, commit: string, paths: readonly string[], env?: NodeJS.ProcessEnv): Promise<Map<string, Blob>> {
  const asked = paths.filter((path) => !path.includes('\n'))
  const out = new Map<string, Blob>(paths.map((path) => [path, undefined]))
  if (asked.length === 0) return Promise.resolve(out)
  return new Promise((resolve) => {
    const child = execFile('git', ['cat-file', '--batch'], { cwd, env: gitEnv(env), encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 }, (error, stdout) => {
      if (error) return resolve(out)
      parseBatch(stdout, asked, out)
      resolve(out)
    })
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(asked.map((path) => `${commit}:${path}\n`).join(''))
  })
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
