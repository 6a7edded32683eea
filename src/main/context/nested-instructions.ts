import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { renderInstructionFile } from './claude-md'
import { inside, readInstructionFile, type InstructionBudget, type InstructionFile } from './instruction-files'

/**
 * CLAUDE.md files of the project's subfolders, loaded the first time the agent touches a file
 * below them (reads, edits or writes it): for every folder from the project root down to the
 * file's folder, its `CLAUDE.md` and `CLAUDE.local.md`, with their imports, each once per session.
 * They reach the model as a system reminder with the next request, so the system prompt (and its
 * cache) never changes mid-session; after a compaction they come back with the summary
 * ({@link loaded}). Files outside the project bring nothing. One per agent: a subagent has its
 * own conversation, so it loads what it touches itself.
 */
export class NestedInstructions {
  private readonly visited = new Set<string>()
  private readonly root: string
  /** Every file loaded so far, in order: what comes back after a compaction. */
  private readonly loadedFiles: InstructionFile[] = []

  constructor(
    private readonly projectRoot: string,
    private readonly budget: InstructionBudget,
    private readonly homeDir?: string,
  ) {
    this.root = realOrResolved(projectRoot)
  }

  /** The files newly loaded because `filePath` was touched (empty when there are none). */
  onFileTouched(filePath: string): InstructionFile[] {
    const file = realOrResolved(filePath)
    if (!inside(file, this.root) || file === this.root) return []
    const folders: string[] = []
    for (let folder = dirname(file); folder !== this.root && inside(folder, this.root); folder = dirname(folder)) folders.unshift(folder)
    const found: InstructionFile[] = []
    for (const folder of folders) {
      if (this.visited.has(folder)) continue
      this.visited.add(folder)
      for (const name of ['CLAUDE.md', 'CLAUDE.local.md']) {
        const reading = readInstructionFile(join(folder, name), { scope: 'subfolder', projectRoot: this.projectRoot, ...(this.homeDir && { homeDir: this.homeDir }), budget: this.budget })
        found.push(...reading.files)
      }
    }
    this.loadedFiles.push(...found)
    return found
  }

  /**
   * A tool call that touches the project: Read, Edit, Write and NotebookEdit by their file, Glob
   * and Grep by the folder they search (their `path`; none: the working folder). Returns the
   * reminder for the files this first touch loads, or `undefined`. Never throws.
   */
  onToolCall(tool: string, input: unknown, cwd: string): string | undefined {
    const target = touchedPath(tool, input)
    if (target === undefined) return undefined
    try {
      const absolute = isAbsolute(target.path) ? target.path : resolve(cwd, target.path)
      // A searched folder counts as touching a file inside it.
      const file = target.folder ? join(absolute, '.touch') : absolute
      const found = this.onFileTouched(file)
      return found.length > 0 ? nestedInstructionsReminder(found, file, this.projectRoot) : undefined
    } catch {
      return undefined
    }
  }

  /** The files loaded so far, each rendered (for restoration after a compaction). */
  loaded(): Array<{ label: string; text: string }> {
    return this.loadedFiles.map((file) => ({ label: file.path, text: `Instructions from a subfolder of the project, loaded earlier in this session (they still apply to work there):\n\n${renderInstructionFile(file)}` }))
  }
}

/** The path a tool call touches, and whether it is a folder (a search) rather than a file. */
function touchedPath(tool: string, input: unknown): { path: string; folder: boolean } | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const fields = input as Record<string, unknown>
  if (tool === 'Read' || tool === 'Edit' || tool === 'Write' || tool === 'MultiEdit') return typeof fields['file_path'] === 'string' ? { path: fields['file_path'], folder: false } : undefined
  if (tool === 'NotebookEdit') return typeof fields['notebook_path'] === 'string' ? { path: fields['notebook_path'], folder: false } : undefined
  if (tool === 'Glob' || tool === 'Grep') return { path: typeof fields['path'] === 'string' ? fields['path'] : '.', folder: true }
  return undefined
}

/** The reminder that carries subfolder instructions to the model. */
export function nestedInstructionsReminder(files: readonly InstructionFile[], touched: string, projectRoot: string): string {
  const where = relative(projectRoot, dirname(resolve(touched))).split(sep).join('/') || '.'
  return `Instructions for files under ${where} (found because ${touched} was accessed). They apply to work in that part of the project and OVERRIDE default behaviour there:\n\n${files.map(renderInstructionFile).join('\n\n')}`
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    // A file about to be created: its folder may exist.
    try {
      return join(realpathSync(dirname(path)), path.slice(dirname(path).length + 1))
    } catch {
      return resolve(path)
    }
  }
}
