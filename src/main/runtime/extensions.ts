import { readFile, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { DEFAULT_CATALOG_CHARS, renderSkillCatalog } from '../extensions/catalog'
import { loadExtensions } from '../extensions/load'
import { renderTemplate, type RenderCapabilities } from '../extensions/render'
import { expandSlash, parseSlash, type McpPromptCommand } from '../extensions/slash'
import type { CommandDefinition, ExtensionCatalog, PromptTemplate, SkillDefinition } from '../extensions/types'
import type { SessionGrants } from '../governance/decide/session'
import type { PermissionDecision } from '../governance/types'
import { describeExplanation } from '../governance/types'
import { normalizeServerName, type McpServers } from '../services/mcp'
import { resolveModelName } from '../services/model/aliases'
import { toBlock } from '../tools/mcp/mcp-result'
import { runToolCall } from '../tools/run-tool'
import type { AnyTool, SkillFork, SkillLoader, ToolContext } from '../tools/types'
import type { PromptExpansion } from '../session/session'

/** Options of {@link SessionExtensions}. */
export interface SessionExtensionsOptions {
  projectRoot: string
  projectDataDir: string
  sessionId: string
  /** Where `~/.claude/skills` and `~/.claude/commands` are. */
  userHome?: string
  /** The project's MCP servers (their prompts are `/mcp__<server>__<prompt>` commands). */
  servers?: McpServers
  /** The permission check without asking (see `PermissionGate.check`). */
  check(tool: AnyTool, input: unknown): Promise<PermissionDecision>
  grants: SessionGrants
  /** Whether the project's skills and commands are trusted: a project template's `allowed-tools` apply only then. */
  trusted(): boolean
  env: Readonly<Record<string, string | undefined>>
  notice(level: 'info' | 'warning', message: string): void
}

/** Commands whose exit code 1 means "nothing found" or "they differ", not failure. */
const EXIT_ONE_IS_AN_ANSWER = new Set(['grep', 'egrep', 'fgrep', 'rg', 'diff', 'cmp', 'find', 'test', '['])
/** Largest `@` include read from disk. */
const MAX_INCLUDE_BYTES = 1024 * 1024

/**
 * A session's skills and custom commands: the catalog for the system prompt, `/name` expansion of
 * typed prompts, and the Skill tool's loader. Injected `!` commands and `@` includes run through
 * the session's permission check and never prompt; a template's `allowed-tools` become allow rules
 * for the turn (cleared by the next prompt). Files are re-read for every prompt, so edits apply
 * without a restart.
 */
export class SessionExtensions {
  private catalogRead: { at: number; catalog: Promise<ExtensionCatalog> } | undefined
  private readonly loaded = new Map<string, string>()
  private injected = 0
  private reported = new Set<string>()

  constructor(private readonly options: SessionExtensionsOptions) {}

  /** Skills and commands as they are on disk now (cached for a second, so one prompt reads once). */
  catalog(): Promise<ExtensionCatalog> {
    const now = Date.now()
    if (!this.catalogRead || now - this.catalogRead.at > 1000) {
      const catalog = loadExtensions({ projectRoot: this.options.projectRoot, userHome: this.options.userHome ?? homedir() })
      this.catalogRead = { at: now, catalog }
      void catalog.then((found) => this.reportProblems(found))
    }
    return this.catalogRead.catalog
  }

  /** The skill listing for the dynamic system prompt ('' when there are none). */
  async systemPromptSection(): Promise<string> {
    const budget = Number(this.options.env['SLASH_COMMAND_TOOL_CHAR_BUDGET'])
    return renderSkillCatalog((await this.catalog()).skills, Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_CATALOG_CHARS)
  }

  /** Names of the skills loaded so far (compaction keeps them). */
  loadedSkills(): string[] {
    return [...this.loaded.keys()]
  }

  /**
   * A new prompt: the previous turn's grants end; `/name …` is expanded when it names a skill, a
   * custom command or an MCP prompt. `tools` is the session's toolset (Bash and Read run injected work).
   */
  async expandPrompt(text: string, tools: { tools: AnyTool[]; context?: Partial<ToolContext> }, signal: AbortSignal): Promise<PromptExpansion> {
    this.options.grants.clearTurn()
    if (!text.trimStart().startsWith('/')) return { kind: 'none' }
    await this.serverOfPrompt(text, signal)
    const expansion = await expandSlash(text, {
      catalog: await this.catalog(),
      mcpPrompts: this.mcpPrompts(),
      getMcpPrompt: (command, args, promptSignal) => this.renderMcpPrompt(command, args, promptSignal),
      capabilities: this.capabilities(tools),
      sessionId: this.options.sessionId,
      projectDir: this.options.projectRoot,
      signal,
    })
    if (expansion.kind !== 'expanded') return expansion
    const template = expansion.template
    // `/name` for a skill or command with `context: fork` runs it as the Skill tool would: a subagent, its grants its own.
    if (template?.fork) return { kind: 'fork', name: expansion.name, args: expansion.args, prompt: expansion.body, fork: this.forkOf(template) }
    if (template) this.grant(template)
    if (expansion.skill) this.loaded.set(expansion.skill.name, expansion.text)
    return { kind: 'expanded', name: expansion.name, text: expansion.text, ...(template?.model && { model: this.modelOf(template.model) }) }
  }

  /** The Skill tool's loader over this session's tools. */
  skillLoader(tools: () => { tools: AnyTool[]; context?: Partial<ToolContext> }): SkillLoader {
    return {
      load: async (name, args, signal) => {
        const { skills } = await this.catalog()
        const skill = skills.find((candidate) => candidate.name === name)
        if (!skill) {
          const known = skills.filter((candidate) => !candidate.disableModelInvocation).map((candidate) => candidate.name)
          return { ok: false, error: `Unknown skill "${name}".${known.length ? ` Available skills: ${known.join(', ')}.` : ' No skills are available.'}` }
        }
        if (skill.disableModelInvocation) {
          return { ok: false, error: `The skill "${name}" runs only when the user types /${name}. Do not carry out its steps another way; suggest that the user run /${name}.` }
        }
        const rendered = await renderTemplate(skill, { args, sessionId: this.options.sessionId, projectDir: this.options.projectRoot, signal }, this.capabilities(tools()))
        if (!rendered.ok) return { ok: false, error: rendered.error }
        // A forked skill's body, grants and model go to its subagent, not into this conversation or turn.
        if (skill.fork) return { ok: true, name, file: skill.file, text: rendered.text, alreadyLoaded: false, fork: this.forkOf(skill) }
        const alreadyLoaded = this.loaded.get(name) === rendered.text
        this.loaded.set(name, rendered.text)
        this.grant(skill)
        return { ok: true, name, file: skill.file, text: rendered.text, alreadyLoaded, ...(skill.model && { model: this.modelOf(skill.model) }) }
      },
    }
  }

  /** The template's `allowed-tools` for this turn, and a skill's own folder readable for the session. */
  private grant(template: PromptTemplate & { dir?: string; kind: 'skill' | 'command' }): void {
    if (template.kind === 'skill' && template.dir) this.options.grants.add(`Read(/${template.dir}/**)`)
    for (const error of this.options.grants.addForTurn(this.allowedRules(template), template.file)) this.options.notice('warning', `${template.file}: allowed-tools: ${error}`)
  }

  /**
   * How a skill with `context: fork` runs: its `agent` type, and the allow rules its subagent holds
   * for its life — the skill's folder, and its `allowed-tools` under the same trust rule as for a
   * turn. They are allow rules: the user's deny and ask rules, hooks and protected paths still win.
   */
  private forkOf(template: SkillDefinition | CommandDefinition): SkillFork {
    const dir = template.kind === 'skill' ? template.dir : undefined
    const rules = [...(dir ? [`Read(/${dir}/**)`] : []), ...this.allowedRules(template)]
    return { ...(template.agent && { agent: template.agent }), ...(template.model && { model: this.modelOf(template.model) }), grants: { rules, file: template.file } }
  }

  /** A template's `model` as the API names it: an alias (`opus`) becomes the configured model, as for the Agent tool's `model`. */
  private modelOf(model: string): string {
    return resolveModelName(model, this.options.env)
  }

  /** A template's `allowed-tools` with its variables filled in; none (and a warning) for a project template in an untrusted folder. */
  private allowedRules(template: PromptTemplate & { dir?: string }): string[] {
    if (template.allowedTools.length === 0) return []
    if (template.source === 'project' && !this.options.trusted()) {
      this.options.notice('warning', `The allowed-tools of /${template.name} were not applied: this folder is not trusted.`)
      return []
    }
    return template.allowedTools.map((rule) => rule.replaceAll('${CLAUDE_PROJECT_DIR}', this.options.projectRoot).replaceAll('${CLAUDE_SKILL_DIR}', template.dir ?? ''))
  }

  /**
   * `/mcp__<server>__…` names a server's prompt: when that server is still starting, wait for it
   * (only it, and only because the user asked for it), so the prompt can be found.
   */
  private async serverOfPrompt(text: string, signal: AbortSignal): Promise<void> {
    const servers = this.options.servers
    const name = parseSlash(text)?.name
    if (!servers || !name?.startsWith('mcp__')) return
    const server = servers.all().find((connection) => name.startsWith(`mcp__${normalizeServerName(connection.name)}__`))
    if (!server) return
    servers.start()
    if (server.current === 'connecting' || server.current === 'pending') await servers.waitFor([server.name], 60_000, signal)
  }

  private mcpPrompts(): McpPromptCommand[] {
    const states = this.options.servers?.states() ?? []
    return states
      .filter((state) => state.status === 'connected')
      .flatMap((state) =>
        state.prompts.map((prompt) => ({
          name: `mcp__${normalizeServerName(state.name)}__${normalizeServerName(prompt.name)}`,
          server: state.name,
          prompt: prompt.name,
          ...(prompt.description && { description: prompt.description }),
          arguments: prompt.arguments,
        })),
      )
  }

  private async renderMcpPrompt(command: McpPromptCommand, args: Record<string, string>, signal: AbortSignal): Promise<string> {
    const connection = this.options.servers?.get(command.server)
    if (!connection) throw new Error(`MCP server "${command.server}" is gone.`)
    const messages = await connection.getPrompt(command.prompt, args, signal)
    return messages
      .map((message) => {
        const block = toBlock(message.content)
        const text = block.type === 'text' ? block.text : '[image]'
        return message.role === 'assistant' ? `(assistant) ${text}` : text
      })
      .join('\n\n')
  }

  private capabilities(toolset: { tools: AnyTool[]; context?: Partial<ToolContext> }): RenderCapabilities {
    const find = (name: string) => toolset.tools.find((tool) => tool.name === name)
    const context = (signal: AbortSignal): ToolContext => ({
      cwd: this.options.projectRoot,
      projectRoot: this.options.projectRoot,
      projectDataDir: this.options.projectDataDir,
      sessionId: this.options.sessionId,
      agentId: 'main',
      toolUseId: `injected-${++this.injected}`,
      signal,
      progress: () => {},
      ...toolset.context,
    })
    return {
      runShell: async (command, signal) => {
        const bash = find('Bash')
        if (!bash) return { ok: false, denied: true, message: 'the Bash tool is not available' }
        const decision = await this.options.check(bash, { command })
        if (decision.behavior !== 'allow') return { ok: false, denied: true, message: decision.behavior === 'deny' ? decision.message : describeExplanation(decision.explanation) }
        const result = await runToolCall(bash, { command, description: 'Injected by a skill or command' }, context(signal))
        const output = typeof result.content === 'string' ? result.content : result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
        const exitCode = (result.details as { exitCode?: number } | undefined)?.exitCode
        const first = command.trim().split(/\s+/)[0] ?? ''
        if (!result.isError) return { ok: true, output }
        if (exitCode === 1 && EXIT_ONE_IS_AN_ANSWER.has(first)) return { ok: true, output: output.replace(/^Exit code 1\n?/, '') }
        return { ok: false, denied: false, message: output.slice(0, 2000) }
      },
      readFile: async (path) => {
        const home = this.options.userHome ?? homedir()
        const absolute = path.startsWith('~/') ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(this.options.projectRoot, path)
        const info = await stat(absolute).catch(() => undefined)
        if (!info?.isFile()) return undefined
        const read = find('Read')
        if (!read) return { ok: false, message: 'the Read tool is not available' }
        const decision = await this.options.check(read, { file_path: absolute })
        if (decision.behavior !== 'allow') return { ok: false, message: decision.behavior === 'deny' ? decision.message : `reading it needs approval (${describeExplanation(decision.explanation)})` }
        if (info.size > MAX_INCLUDE_BYTES) return { ok: false, message: `it is larger than ${MAX_INCLUDE_BYTES} bytes` }
        return { ok: true, path: absolute, text: await readFile(absolute, 'utf8') }
      },
    }
  }

  private reportProblems(catalog: ExtensionCatalog): void {
    for (const problem of catalog.problems) {
      const key = `${problem.file}\n${problem.message}`
      if (this.reported.has(key)) continue
      this.reported.add(key)
      this.options.notice('warning', `${problem.file}: ${problem.message}`)
    }
  }
}
