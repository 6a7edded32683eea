import { open, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { FileEntry } from '../../shared/ipc/contract'
import { AppError } from '../../shared/ipc/result'
import { GitignoreMatcher } from '../base/gitignore'

/** Listing at most this many entries of one folder keeps a giant folder from stalling the UI. */
const MAX_ENTRIES = 5000
/** The viewer shows at most this much of a file. */
const MAX_READ_BYTES = 1_000_000

/**
 * Resolves `rel` inside the project `root` (both canonical), refusing anything that leaves it,
 * through `..` or a symlink. Throws AppError (INVALID_INPUT, NOT_FOUND).
 */
export async function insideProject(root: string, rel: string): Promise<string> {
  if (isAbsolute(rel)) throw new AppError('INVALID_INPUT', `Expected a path inside the project: ${rel}`)
  const target = join(root, rel)
  let canonical: string
  try {
    canonical = await realpath(target)
  } catch {
    throw new AppError('NOT_FOUND', `No such file or folder: ${rel}`)
  }
  const back = relative(root, canonical)
  if (back.startsWith('..') || isAbsolute(back))
    throw new AppError('INVALID_INPUT', `Outside the project: ${rel}`)
  return canonical
}

/**
 * One folder of a project: folders first, then files, by name; `.git` and whatever the project's
 * `.gitignore` files ignore are left out (the same matcher as Glob's and `@` completion's).
 */
export async function listFolder(root: string, dir: string): Promise<FileEntry[]> {
  const folder = await insideProject(root, dir)
  const relDir = relative(root, folder).split(sep).join('/')
  const gitignore = new GitignoreMatcher(root)
  const dirents = await readdir(folder, { withFileTypes: true }).catch((error: Error) => {
    throw new AppError('UNAVAILABLE', `Cannot list ${dir || '.'}: ${error.message}`)
  })
  const entries: FileEntry[] = []
  for (const dirent of dirents) {
    if (dirent.name === '.git') continue
    const path = relDir ? `${relDir}/${dirent.name}` : dirent.name
    let isDir = dirent.isDirectory()
    if (dirent.isSymbolicLink())
      isDir = (await stat(join(folder, dirent.name)).catch(() => undefined))?.isDirectory() ?? false
    if (await gitignore.ignores(path, isDir)) continue
    entries.push({ name: dirent.name, path, kind: isDir ? 'dir' : 'file' })
    if (entries.length >= MAX_ENTRIES) break
  }
  return entries.sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1,
  )
}

/** A file's text for the read-only viewer; binary files and very large ones are said so. */
export async function readProjectFile(
  root: string,
  rel: string,
): Promise<{ text: string; binary: boolean; truncated: boolean }> {
  const file = await insideProject(root, rel)
  const info = await stat(file)
  if (!info.isFile()) throw new AppError('INVALID_INPUT', `Not a file: ${rel}`)
  const handle = await open(file, 'r')
  try {
    const length = Math.min(info.size, MAX_READ_BYTES)
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, 0)
    const bytes = buffer.subarray(0, bytesRead)
    if (bytes.subarray(0, 8192).includes(0)) return { text: '', binary: true, truncated: false }
    return { text: bytes.toString('utf8'), binary: false, truncated: info.size > MAX_READ_BYTES }
  } finally {
    await handle.close()
  }
}
