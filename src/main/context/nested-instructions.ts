import { realpathSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { renderInstructionFile } from './claude-md'
import { inside, readInstructionFile, type InstructionBudget, type InstructionFile } from './instruction-files'

/**
 * CLAUDE.md files of the project's subfolders, loaded the first time the agent touches a file
 * below them (reads, edits or writes it): for every folder from the project root down to the
 * file's folder, its `CLAUDE.md` and `CLAUDE.local.md`, with their imports, each once per session.
 * They reach the model as a system reminder with the next request, so the system prompt (and its
 * cache) never changes mid-session. Files outside the project bring nothing.
 */
export class NestedInstructions {
  private readonly visited = new Set<string>()
  private readonly root: string

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
    return found
  }
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
