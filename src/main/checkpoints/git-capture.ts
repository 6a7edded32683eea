import { lstatSync, readFileSync, readlinkSync, type Stats } from 'node:fs'
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { runGit, type GitCall } from './git'
import { onlyIgnored } from './git-paths'
import { MAX_FILE_BYTES } from './types'

/** Bytes one capture may hold in memory (read synchronously); past it the snapshot reads the files with git before the call runs. */
const MAX_CAPTURE_BYTES = 8 * 1024 * 1024

/** One changed path as it was read, in this process, before the call ran. */
interface CapturedPath {
  path: string
  link?: string
  data?: Buffer
  mode: number
}

/** The changed paths' bytes, and the `.gitignore` files above them, read before the call ran. */
export interface Capture {
  paths: CapturedPath[]
  ignores: Array<{ path: string; data: Buffer }>
}

/**
 * Reads the changed paths into memory, in this process, so the call may run before any git
 * process has: under load a process start waits its turn among every runnable program (a few
 * milliseconds on a free core, hundreds at load 20), while reading twenty files here does not.
 * Undefined when the paths are not all files or links that are there (a folder, a path gone, a
 * nested repository), one is over the size cap, a name has a newline, or they are too large
 * together: the caller then reads them with git before the call runs, as before.
 */
export function captureFiles(root: string, paths: readonly string[]): Capture | undefined {
  // Synchronous on purpose: a few small reads cost less than the thread-pool hand-offs of
  // asynchronous ones, which on a loaded machine each wait for a core (bounded by the cap).
  if (paths.some((path) => path.includes('\n'))) return undefined
  const infos: Stats[] = []
  let bytes = 0
  for (const path of paths) {
    const info = quietly(() => lstatSync(join(root, path)))
    if (!info || !(info.isFile() || info.isSymbolicLink()) || info.size > MAX_FILE_BYTES) return undefined
    bytes += info.size
    if (bytes > MAX_CAPTURE_BYTES) return undefined
    infos.push(info)
  }
  const out: CapturedPath[] = []
  for (const [index, path] of paths.entries()) {
    const info = infos[index]!
    const absolute = join(root, path)
    const read = info.isSymbolicLink() ? quietly(() => ({ link: readlinkSync(absolute) })) : quietly(() => ({ data: readFileSync(absolute) }))
    if (!read) return undefined
    out.push({ path, mode: info.mode & 0o777, ...read })
  }
  // The ignore rules that decide whether a new file is added: those of every folder above one.
  const folders = new Set<string>([''])
  for (const path of paths) for (let folder = dirname(path); folder !== '.' && folder !== ''; folder = dirname(folder)) folders.add(folder)
  const ignores: Capture['ignores'] = []
  for (const folder of folders) {
    const path = folder ? `${folder}/.gitignore` : '.gitignore'
    const data = quietly(() => readFileSync(join(root, path)))
    if (data) ignores.push({ path, data })
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

/**
 * Adds a capture to the private index as `add -A` of those paths would have added the files
 * then: they are written under `shadow` (modes and links as they were) with the `.gitignore`
 * files above them, and git adds them with `shadow` as its work tree. Attributes git reads from
 * the work tree when it has them and from the index otherwise, and the watcher makes any
 * `.gitattributes`/`.gitignore` change a full scan, so filters and ignore rules are the tree's.
 * A file git ignores is left out (as {@link addChangedPaths} accepts). Throws on failure.
 */
export async function addCapture(call: GitCall, gitDir: string, shadow: string, capture: Capture): Promise<void> {
  await rm(shadow, { recursive: true, force: true })
  try {
    for (const { path, data } of capture.ignores) await put(shadow, path, (absolute) => writeFile(absolute, data))
    for (const entry of capture.paths) {
      await put(shadow, entry.path, async (absolute) => {
        if (entry.link !== undefined) return symlink(entry.link, absolute)
        // Only the executable bit is recorded; the copy must stay readable to git.
        const mode = entry.mode & 0o111 ? 0o700 : 0o600
        await writeFile(absolute, entry.data!, { mode })
        await chmod(absolute, mode)
      })
    }
    const paths = capture.paths.map((entry) => entry.path)
    const out = await runGit(['--git-dir', gitDir, '--work-tree', shadow, '-c', 'core.preloadIndex=false', 'add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { ...call, cwd: shadow, literal: true, input: `${paths.join('\0')}\0` })
    if (!out.ok && !(out.code === 1 && onlyIgnored(out.stderr ?? '', paths))) throw new Error(`git add: ${out.error}`)
  } finally {
    await rm(shadow, { recursive: true, force: true })
  }
}

async function put(shadow: string, path: string, write: (absolute: string) => Promise<unknown>): Promise<void> {
  const absolute = join(shadow, path)
  await mkdir(dirname(absolute), { recursive: true, mode: 0o700 })
  await write(absolute)
}
