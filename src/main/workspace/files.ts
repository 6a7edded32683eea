import { open, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import type { FileEntry } from '../../shared/ipc/contract'
import { AppError } from '../../shared/ipc/result'

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
 * One folder of a project: folders first, then files, by name; `.git` and whatever the
 * `.gitignore` files from the root down to this folder ignore are left out.
 */
export async function listFolder(root: string, dir: string): Promise<FileEntry[]> {
  const folder = await insideProject(root, dir)
  const relDir = relative(root, folder).split(sep).join('/')
  const rules = await rulesFor(root, relDir)
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
    if (isIgnored(rules, path, isDir)) continue
    entries.push({ name: dirent.name, path, kind: isDir ? 'dir' : 'file' })
    if (entries.length >= MAX_ENTRIES) break
  }
  return entries.sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1,
  )
}

/** The `.gitignore` rules of one folder (`base`, relative to the root, `''` for the root itself). */
export interface FolderRules {
  base: string
  rule: Ignore
}

/** The `.gitignore` of the project folder `base`, if it has one. */
export async function folderRules(root: string, base: string): Promise<FolderRules | undefined> {
  const text = await readFile(join(root, base, '.gitignore'), 'utf8').catch(() => undefined)
  return text === undefined ? undefined : { base, rule: ignore().add(text) }
}

/** Whether the project path `path` (relative, `/`-separated) is ignored by any of `rules`. */
export function isIgnored(rules: readonly FolderRules[], path: string, isDir: boolean): boolean {
  return rules.some(({ base, rule }) => rule.ignores(`${path.slice(base.length ? base.length + 1 : 0)}${isDir ? '/' : ''}`))
}

/** The `.gitignore` rules of each folder from the root down to `relDir`, with the folder they apply from. */
async function rulesFor(root: string, relDir: string): Promise<FolderRules[]> {
  const parts = relDir ? relDir.split('/') : []
  const bases = [''].concat(parts.map((_, i) => parts.slice(0, i + 1).join('/')))
  const loaded = await Promise.all(bases.map((base) => folderRules(root, base)))
  return loaded.filter((item): item is FolderRules => item !== undefined)
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
