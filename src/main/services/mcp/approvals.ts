import { join } from 'node:path'
import type { McpServerDefinition } from './config'
import { projectKey, readPerProjectFile, writePerProjectFile, type PerProjectRead } from './per-project-file'

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
    return read.ok && read.projects[projectKey(projectRoot)]?.[server.name] === server.fingerprint
  }

  /** Records an approval; returns an error message when the file cannot be updated. */
  approve(projectRoot: string, server: McpServerDefinition): string | undefined {
    const read = this.read()
    if (!read.ok) return read.error
    const key = projectKey(projectRoot)
    const projects = { ...read.projects, [key]: { ...read.projects[key], [server.name]: server.fingerprint } }
    try {
      writePerProjectFile(this.file, projects)
      return undefined
    } catch (error) {
      return `could not save the approval: ${(error as Error).message}`
    }
  }

  private read(): PerProjectRead<Record<string, string>> {
    return readPerProjectFile(this.file)
  }
}
