import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { McpServerDefinition } from './config'

/**
 * Which project servers (`.mcp.json`) the user approved, per project, in
 * `$SOUS_HOME/mcp-approvals.json`. An approval is for one definition (its fingerprint): when the
 * repository later changes the command, the server asks again. Keyed by the project's real path.
 * A file that cannot be parsed approves nothing (fail closed) and is never overwritten silently:
 * `approve` reports the problem instead.
 */
export class McpApprovals {
  constructor(private readonly sousHome: string) {}

  private get file(): string {
    return join(this.sousHome, 'mcp-approvals.json')
  }

  /** True when exactly this definition was approved for this project. */
  isApproved(projectRoot: string, server: McpServerDefinition): boolean {
    const read = this.read()
    return read.ok && read.projects[realPath(projectRoot)]?.[server.name] === server.fingerprint
  }

  /** Records an approval; returns an error message when the file cannot be updated. */
  approve(projectRoot: string, server: McpServerDefinition): string | undefined {
    const read = this.read()
    if (!read.ok) return read.error
    const key = realPath(projectRoot)
    const projects = { ...read.projects, [key]: { ...read.projects[key], [server.name]: server.fingerprint } }
    try {
      mkdirSync(dirname(this.file), { recursive: true })
      const temporary = `${this.file}.${process.pid}.tmp`
      try {
        writeFileSync(temporary, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`, { mode: 0o600 })
        renameSync(temporary, this.file)
      } finally {
        rmSync(temporary, { force: true })
      }
      return undefined
    } catch (error) {
      return `could not save the approval: ${(error as Error).message}`
    }
  }

  private read(): { ok: true; projects: Record<string, Record<string, string>> } | { ok: false; error: string } {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, projects: {} }
      return { ok: false, error: `${this.file} could not be read: ${(error as Error).message}` }
    }
    try {
      const parsed = JSON.parse(text) as { projects?: unknown }
      const projects = parsed.projects
      if (projects === null || typeof projects !== 'object' || Array.isArray(projects)) throw new Error('no "projects" object')
      return { ok: true, projects: projects as Record<string, Record<string, string>> }
    } catch (error) {
      return { ok: false, error: `${this.file} is not valid (${(error as Error).message}); fix or delete it` }
    }
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
