import { readFileSync, realpathSync } from 'node:fs'
import { writeFileAtomicSync } from '../../base/atomic-write'

/**
 * Sous's own JSON files that keep one entry per project — `{ "version": 1, "projects": { <real
 * path>: … } }` under `$SOUS_HOME` (MCP approvals, MCP choices). A file that cannot be read or
 * parsed is reported, never treated as empty, so its callers can fail closed and never overwrite it.
 */

/** What a per-project file holds, or why it could not be read. */
export type PerProjectRead<T> = { ok: true; projects: Record<string, T> } | { ok: false; error: string }

/** Reads `file`; a missing file holds no projects. */
export function readPerProjectFile<T>(file: string): PerProjectRead<T> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, projects: {} }
    return { ok: false, error: `${file} could not be read: ${(error as Error).message}` }
  }
  try {
    const projects = (JSON.parse(text) as { projects?: unknown }).projects
    if (projects === null || typeof projects !== 'object' || Array.isArray(projects)) throw new Error('no "projects" object')
    return { ok: true, projects: projects as Record<string, T> }
  } catch (error) {
    return { ok: false, error: `${file} is not valid (${(error as Error).message}); fix or delete it` }
  }
}

/** Replaces `file` atomically (readable by the user alone) with these projects. */
export function writePerProjectFile<T>(file: string, projects: Record<string, T>): void {
  writeFileAtomicSync(file, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`)
}

/** The key a project is stored under: its real path (the path itself when it cannot be resolved). */
export function projectKey(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
