import { homedir } from 'node:os'
import { resolve } from 'node:path'
import type { ExtensionsOverview, HooksOverview, McpServerStatus, SlashCommandInfo } from '../../../shared/ipc/contract'
import { AppError } from '../../../shared/ipc/result'
import { loadExtensions } from '../load'
import { McpServers, normalizeServerName, type McpServerState } from '../../services/mcp'
import { apiInputSchema, schemaTokens } from '../../tools/mcp/mcp-schema'
import { mcpToolName } from '../../tools/mcp/mcp-tool'
import type { ChildEnvPolicy } from '../../base/child-env'
import type { HookLog } from '../../governance/hooks/log'
import { hooksOverview } from '../../governance/hooks/inspector'
import type { McpRegistry } from '../../services/mcp/registry'

/** What the Extensions view and the composer's `/` completion ask of the agent side. */
export interface ExtensionService {
  overview(projectPath: string): Promise<ExtensionsOverview>
  /** Restarts a server of a project with an open session. Throws AppError when it cannot. */
  restartServer(projectPath: string, server: string): Promise<void>
  /** Approves a project server as configured now (and starts it if the project is open). */
  approveServer(projectPath: string, server: string): Promise<void>
  /** The user trusted the folder (the trust step): its servers that waited for that start now. */
  trustChanged(projectPath: string): void
  /** The project's hooks and their latest runs (the hook inspector). */
  hooks(projectPath: string): HooksOverview
  /** Turns a server or one of its tools on or off in a project (saved). Throws AppError when it cannot. */
  setEnabled(projectPath: string, choice: { server: string; tool?: string; enabled: boolean }): Promise<void>
}

/** What {@link RuntimeExtensionService} reads configuration with when no session holds the project. */
export interface ExtensionServiceOptions {
  registry: McpRegistry
  sousHome: string
  userHome?: string
  env: Readonly<Record<string, string | undefined>>
  /** Variables servers must not get besides Sous's credentials. */
  childEnv?(): ChildEnvPolicy
  /** Whether a project's `.mcp.json`, as read (`null`: none), may start servers (see McpRegistry). */
  trusted(projectPath: string, mcpJsonText: string | null): boolean
  /** `all` when nobody is there to approve project servers (unattended runs, as Claude Code's `-p`); `ask` otherwise (see McpRegistry). */
  projectApproval: 'all' | 'ask'
  /** Every session's hook runs. */
  hookLog: HookLog
  /** Whether a project's own settings wait for the trust step (`check`) or are obeyed (`assume`). */
  projectTrust: 'check' | 'assume'
}

/** The {@link ExtensionService} over the session runtime's MCP registry and the files on disk. */
export class RuntimeExtensionService implements ExtensionService {
  constructor(private readonly options: ExtensionServiceOptions) {}

  async overview(projectPath: string): Promise<ExtensionsOverview> {
    const root = resolve(projectPath)
    const [catalog, mcp] = await Promise.all([loadExtensions({ projectRoot: root, userHome: this.options.userHome ?? homedir() }), this.mcp(root)])
    const servers = mcp.states.map(toServerStatus)
    const slashCommands: SlashCommandInfo[] = [
      ...catalog.skills.filter((skill) => skill.userInvocable).map((skill) => slash(skill.name, skill.description, 'skill', skill.source, skill.file, skill.argumentHint)),
      ...catalog.commands.map((command) => slash(command.name, command.description, 'command', command.source, command.file, command.argumentHint)),
      ...servers.flatMap((server) =>
        server.prompts.map((prompt) => ({
          name: prompt.command,
          description: prompt.description ?? '',
          ...(prompt.arguments.length > 0 && { argumentHint: prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(' ') }),
          kind: 'mcp-prompt' as const,
          source: server.scope,
        })),
      ),
    ]
    return {
      servers,
      skills: catalog.skills.map((skill) => ({
        name: skill.name,
        displayName: skill.displayName,
        description: skill.description,
        source: skill.source,
        file: skill.file,
        allowedTools: skill.allowedTools,
        ...(skill.model && { model: skill.model }),
        userOnly: skill.disableModelInvocation,
        modelOnly: !skill.userInvocable,
        fork: skill.fork,
      })),
      slashCommands,
      problems: [...mcp.problems, ...catalog.problems],
    }
  }

  async restartServer(projectPath: string, server: string): Promise<void> {
    const live = this.options.registry.peek(resolve(projectPath))
    if (!live) throw new AppError('NOT_FOUND', 'No session is open in this project, so none of its MCP servers is running.')
    const error = await live.restart(server)
    if (error) throw new AppError('INVALID_INPUT', error)
  }

  async approveServer(projectPath: string, server: string): Promise<void> {
    const root = resolve(projectPath)
    const live = this.options.registry.peek(root)
    const servers = live ?? this.configured(root)
    try {
      const error = await servers.approve(server)
      if (error) throw new AppError('INVALID_INPUT', error)
    } finally {
      if (!live) await servers.dispose()
    }
  }

  async setEnabled(projectPath: string, choice: { server: string; tool?: string; enabled: boolean }): Promise<void> {
    const root = resolve(projectPath)
    const live = this.options.registry.peek(root)
    const servers = live ?? this.configured(root)
    try {
      const error = await servers.setEnabled(choice)
      if (error) throw new AppError('INVALID_INPUT', error)
    } finally {
      if (!live) await servers.dispose()
    }
  }

  hooks(projectPath: string): HooksOverview {
    return hooksOverview(projectPath, { sousHome: this.options.sousHome, userHome: this.options.userHome ?? homedir(), projectTrust: this.options.projectTrust, log: this.options.hookLog })
  }

  trustChanged(projectPath: string): void {
    this.options.registry.startHeld(resolve(projectPath))
  }

  /** Live servers when a session holds the project; otherwise the configuration, nothing started. */
  private async mcp(root: string): Promise<{ states: McpServerState[]; problems: ExtensionsOverview['problems'] }> {
    const live = this.options.registry.peek(root)
    const servers = live ?? this.configured(root)
    if (!live) servers.plan()
    const found = { states: servers.states(), problems: servers.problems.map((problem) => ({ ...problem, level: 'error' as const })) }
    if (!live) await servers.dispose()
    return found
  }

  private configured(root: string): McpServers {
    return new McpServers({
      projectRoot: root,
      userHome: this.options.userHome ?? homedir(),
      sousHome: this.options.sousHome,
      env: this.options.env,
      ...(this.options.childEnv && { childEnv: this.options.childEnv() }),
      trusted: (mcpJsonText) => this.options.trusted(root, mcpJsonText),
      projectApproval: this.options.projectApproval,
    })
  }
}

/** A server's state as the contract carries it: tool schemas costed, prompts as commands. */
export function toServerStatus(state: McpServerState): McpServerStatus {
  const tools = state.tools.map((tool) => {
    const name = mcpToolName(state.name, tool.name)
    const readOnly = tool.annotations.readOnlyHint === true
    return {
      name,
      serverName: tool.name,
      description: tool.description,
      readOnly,
      destructive: !readOnly && tool.annotations.destructiveHint !== false,
      schemaTokens: schemaTokens({ name, description: tool.description, jsonSchema: apiInputSchema(tool.inputSchema).schema }),
      enabled: !state.turnedOff && !(state.disabledTools ?? []).includes(tool.name),
    }
  })
  return {
    name: state.name,
    scope: state.scope,
    transport: state.transport,
    ...(state.file && { file: state.file }),
    status: state.status,
    ...(state.error && { error: state.error }),
    warnings: state.warnings,
    ...(state.serverInfo && { serverInfo: state.serverInfo }),
    tools,
    schemaTokens: tools.reduce((sum, tool) => sum + (tool.enabled ? tool.schemaTokens : 0), 0),
    turnedOff: state.turnedOff === true,
    resources: state.resources,
    prompts: state.prompts.map((prompt) => ({
      command: `mcp__${normalizeServerName(state.name)}__${normalizeServerName(prompt.name)}`,
      ...(prompt.description && { description: prompt.description }),
      arguments: prompt.arguments.map((argument) => ({ name: argument.name, required: argument.required })),
    })),
    logs: state.logs,
  }
}

function slash(name: string, description: string, kind: 'skill' | 'command', source: 'project' | 'user', file: string, argumentHint?: string): SlashCommandInfo {
  return { name, description, kind, source, file, ...(argumentHint && { argumentHint }) }
}
