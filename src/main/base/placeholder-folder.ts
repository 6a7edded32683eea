import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/*
 * The sandbox stands an empty folder in for an absent protected path while a command runs (see
 * `governance/sandbox/placeholders.ts`). Inside a project, git would see such a folder: `git clean
 * -fd` and `git stash -u` try to remove it and fail on the read-only mount ("Device or resource
 * busy"), and `git clean -n` lists a dozen `.bashrc/`, `.mcp.json/`… So the folder holds one file,
 * a `.gitignore` that ignores the folder's contents, itself included: git then takes the folder
 * for ignored, as it does a build output folder. Readers of the paths such a folder stands for
 * (settings files, `.mcp.json`) take it for no file.
 */

/** The file a placeholder folder in a project holds. */
export const PLACEHOLDER_IGNORE_FILE = '.gitignore'

/** Its text: a comment saying whose it is, and a pattern matching everything in the folder. */
export const PLACEHOLDER_IGNORE_TEXT = '# Sous: stands in for an absent protected path while a sandboxed command runs\n*\n'

/** Whether `path` is a folder that stands for nothing: empty, or holding only a placeholder's ignore file. Contract: never throws. */
export function standsForNothing(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false
    const names = readdirSync(path)
    if (names.length === 0) return true
    return names.length === 1 && names[0] === PLACEHOLDER_IGNORE_FILE && readFileSync(join(path, PLACEHOLDER_IGNORE_FILE), 'utf8') === PLACEHOLDER_IGNORE_TEXT
  } catch {
    return false
  }
}
