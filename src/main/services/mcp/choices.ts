import { join } from 'node:path'
import { projectKey, readPerProjectFile, writePerProjectFile, type PerProjectRead } from './per-project-file'

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
    const stored = read.ok ? read.projects[projectKey(projectRoot)] : undefined
    const tools = new Set<string>()
    const byServer = stored?.disabledTools
    if (byServer !== null && typeof byServer === 'object') for (const [server, names] of Object.entries(byServer)) for (const name of strings(names)) tools.add(toolKey(server, name))
    return { servers: new Set(strings(stored?.disabledServers)), tools }
  }

  /** Turns a server, or one of its tools, on or off; returns an error message when it cannot be saved. */
  set(projectRoot: string, choice: { server: string; tool?: string; enabled: boolean }): string | undefined {
    const read = this.read()
    if (!read.ok) return read.error
    const key = projectKey(projectRoot)
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
      writePerProjectFile(this.file, { ...read.projects, [key]: project })
      return undefined
    } catch (error) {
      return `could not save the choice: ${(error as Error).message}`
    }
  }

  private read(): PerProjectRead<StoredProject> {
    return readPerProjectFile(this.file)
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function toggled(list: readonly string[], name: string, enabled: boolean): string[] {
  const rest = list.filter((item) => item !== name)
  return enabled ? rest : [...rest, name]
}
