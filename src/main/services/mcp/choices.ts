import { readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicSync } from '../../base/atomic-write'

/** What the user turned off in one project (server names as configured; tools as `server` + the server's own tool name). */
export interface McpProjectOff {
  servers: ReadonlySet<string>
  /** `<server>\0<tool>` keys (see {@link toolKey}). */
  tools: ReadonlySet<string>
}

/** The key a turned-off tool is kept under. */
export function toolKey(server: string, tool: string): string {
  return `${server}\0${tool}`
}

interface StoredProject {
  disabledServers?: string[]
  /** `{server: [tool, …]}`. */
  disabledTools?: Record<string, string[]>
}

/**
 * The servers and tools the user turned off in the Extensions view, per project (by real path), in
 * `$SOUS_HOME/mcp-choices.json` — Sous's own settings, never a file the repository supplies. Turning
 * things off only ever restricts, so a file that cannot be read turns nothing off (and says why
 * when the user next changes a choice, instead of overwriting it).
 */
export class McpChoices {
  constructor(private readonly sousHome: string) {}

  private get file(): string {
    return join(this.sousHome, 'mcp-choices.json')
  }

  /** What is off in this project now. */
  offIn(projectRoot: string): McpProjectOff {
    const read = this.read()
    const stored = read.ok ? read.projects[realPath(projectRoot)] : undefined
    const tools = new Set<string>()
    const byServer = stored?.disabledTools
    if (byServer !== null && typeof byServer === 'object') for (const [server, names] of Object.entries(byServer)) for (const name of strings(names)) tools.add(toolKey(server, name))
    return { servers: new Set(strings(stored?.disabledServers)), tools }
  }

  /** Turns a server, or one of its tools, on or off; returns an error message when it cannot be saved. */
  set(projectRoot: string, choice: { server: string; tool?: string; enabled: boolean }): string | undefined {
    const read = this.read()
    if (!read.ok) return read.error
    const key = realPath(projectRoot)
    const project: StoredProject = { ...read.projects[key] }
    if (choice.tool === undefined) {
      project.disabledServers = toggled(strings(project.disabledServers), choice.server, choice.enabled)
    } else {
      const tools = { ...project.disabledTools }
      tools[choice.server] = toggled(strings(tools[choice.server]), choice.tool, choice.enabled)
      if (tools[choice.server]!.length === 0) delete tools[choice.server]
      project.disabledTools = tools
    }
    try {
      writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, projects: { ...read.projects, [key]: project } }, null, 2)}\n`)
      return undefined
    } catch (error) {
      return `could not save the choice: ${(error as Error).message}`
    }
  }

  private read(): { ok: true; projects: Record<string, StoredProject> } | { ok: false; error: string } {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, projects: {} }
      return { ok: false, error: `${this.file} could not be read: ${(error as Error).message}` }
    }
    try {
      const projects = (JSON.parse(text) as { projects?: unknown }).projects
      if (projects === null || typeof projects !== 'object' || Array.isArray(projects)) throw new Error('no "projects" object')
      return { ok: true, projects: projects as Record<string, StoredProject> }
    } catch (error) {
      return { ok: false, error: `${this.file} is not valid (${(error as Error).message}); fix or delete it` }
    }
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function toggled(list: readonly string[], name: string, enabled: boolean): string[] {
  const rest = list.filter((item) => item !== name)
  return enabled ? rest : [...rest, name]
}

function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
