import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { AppError } from '../../../shared/ipc/result'

/** `~` and `~/…` as the user's home (a shell would expand them; the path box is typed like one). */
export function expandHome(path: string): string {
  if (path === '~') return homedir()
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path
}

/**
 * Checks that `path` (`~` expanded) is an absolute path to an existing directory and returns its canonical form
 * (symlinks resolved, so one folder is one project).
 * Throws `AppError`: INVALID_INPUT (relative, or not a directory) or NOT_FOUND (missing).
 */
export async function existingDirectory(typed: string): Promise<string> {
  const path = expandHome(typed)
  if (!isAbsolute(path)) throw new AppError('INVALID_INPUT', `Not an absolute path: ${path}`)
  let canonical: string
  try {
    canonical = await realpath(path)
    if (!(await stat(canonical)).isDirectory()) throw new AppError('INVALID_INPUT', `Not a folder: ${path}`)
  } catch (error) {
    if (error instanceof AppError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('NOT_FOUND', `No such folder: ${path}`)
    throw new AppError('UNAVAILABLE', `Cannot open ${path}: ${(error as Error).message}`)
  }
  return canonical
}
