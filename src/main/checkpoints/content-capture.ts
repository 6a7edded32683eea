import { lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { readOr } from './quick-fs'
import { MAX_FILE_BYTES } from './types'

/** Bytes one capture may hold in memory (read synchronously); past it the store reads the paths before the call, as a walk does. */
const MAX_CAPTURE_BYTES = 8 * 1024 * 1024

/** What the content store knows of a file from the snapshot that read it (its blob id, '' for none). */
export interface StatKey {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
  mode: number
  id: string
}

/** One changed path as it stood before the call: gone, unchanged since the previous snapshot, over the cap, or its bytes. */
export type CapturedContent =
  | { path: string; kind: 'gone' }
  | { path: string; kind: 'known' | 'too-large'; key: StatKey }
  | { path: string; kind: 'bytes'; key: StatKey; mode: '100644' | '100755' | '120000'; bytes: Buffer }

/** The changed paths and the `.gitignore` texts of every folder above them (undefined: none), read before the call ran. */
export interface ContentCapture {
  paths: CapturedContent[]
  ignores: Map<string, string | undefined>
}

/**
 * Reads a watcher's changed paths into memory, in this process, so the call may run before the
 * store hashes and writes anything: under load every asynchronous read, hash and write of a
 * blob waits for a core (148–369 ms p95 at load 13–21 for twenty files), while twenty
 * synchronous reads here do not. Paths inside `.git`, or reached through a link to a folder, are
 * left out (as the walk leaves them). Undefined — the store then reads the paths before the call
 * as before — when one is a folder (it would be walked) or the files are too large together.
 */
export function captureContent(root: string, paths: readonly string[], known: Map<string, StatKey> | undefined): ContentCapture | undefined {
  // Synchronous on purpose: a few small reads cost less than the thread-pool hand-offs of
  // asynchronous ones, each waiting for a core on a loaded machine (bounded by the cap).
  let realRoot: string
  try {
    realRoot = realpathSync.native(root)
  } catch {
    return undefined
  }
  const out: CapturedContent[] = []
  let bytes = 0
  for (const path of paths) {
    if (path.split('/').includes('.git')) continue
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''
    if (parent && quietly(() => realpathSync.native(join(root, parent))) !== join(realRoot, parent)) continue
    const absolute = join(root, path)
    const info = quietly(() => lstatSync(absolute))
    if (!info) {
      out.push({ path, kind: 'gone' })
      continue
    }
    if (info.isDirectory()) return undefined
    if (!info.isFile() && !info.isSymbolicLink()) continue
    const key: StatKey = { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, mode: info.mode, id: '' }
    const was = known?.get(path)
    if (was && was.size === key.size && was.mtimeMs === key.mtimeMs && was.ctimeMs === key.ctimeMs && was.ino === key.ino && was.mode === key.mode) {
      out.push({ path, kind: 'known', key: was })
      continue
    }
    if (info.isSymbolicLink()) {
      const link = quietly(() => readlinkSync(absolute))
      if (link === undefined) return undefined
      out.push({ path, kind: 'bytes', key, mode: '120000', bytes: Buffer.from(link) })
      continue
    }
    if (info.size > MAX_FILE_BYTES) {
      out.push({ path, kind: 'too-large', key })
      continue
    }
    bytes += info.size
    if (bytes > MAX_CAPTURE_BYTES) return undefined
    const data = quietly(() => readFileSync(absolute))
    if (data === undefined) return undefined
    out.push({ path, kind: 'bytes', key, mode: info.mode & 0o111 ? '100755' : '100644', bytes: data })
  }
  // The rules that decide whether each path is captured: the `.gitignore` of every folder above it.
  const ignores = new Map<string, string | undefined>()
  for (const { path } of out) {
    for (let folder = dirname(path); ; folder = dirname(folder)) {
      const at = folder === '.' ? '' : folder
      if (!ignores.has(at)) ignores.set(at, readOr(join(root, at, '.gitignore')))
      if (at === '') break
    }
  }
  return { paths: out, ignores }
}

function quietly<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}
