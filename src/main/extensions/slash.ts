import { splitArguments } from './arguments'
import { renderTemplate, type RenderCapabilities } from './render'
import type { CommandDefinition, ExtensionCatalog, SkillDefinition } from './types'

/** An MCP prompt as a slash command: `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  /** The full command name, `mcp__<server>__<prompt>`. */
  name: string
  server: string
  prompt: string
  description?: string
  arguments: Array<{ name: string; description?: string; required: boolean }>
}

/** What expansion needs from the session. */
export interface SlashContext {
  catalog: ExtensionCatalog
  /** MCP prompts of connected servers. */
  mcpPrompts: readonly McpPromptCommand[]
  /** Renders an MCP prompt to text (its messages joined). */
  getMcpPrompt(command: McpPromptCommand, args: Record<string, string>, signal: AbortSignal): Promise<string>
  capabilities: RenderCapabilities
  sessionId: string
  projectDir: string
  signal: AbortSignal
}

/** What a typed prompt becomes. */
export type SlashExpansion =
  /** Not a custom command (plain text, a built-in, or a path like `/usr/bin`): send as typed. */
  | { kind: 'none' }
  | {
      kind: 'expanded'
      name: string
      /** The text the model gets instead of the typed line. */
      text: string
      /** The rendered template alone (a forked skill's subagent prompt), and the typed arguments. */
      body: string
      args: string
      /** Rules allowed for the turn (`allowed-tools`). */
      allowedTools: string[]
      /** The model for the turn (`model`). */
      model?: string
      /** The skill, when a skill was run (so the session can note it as loaded). */
      skill?: SkillDefinition
      /** The skill or custom command that was run (absent for an MCP prompt). */
      template?: SkillDefinition | CommandDefinition
    }
  | { kind: 'error'; name: string; message: string }

/** `/name rest…` → name and the argument text, when the line starts like a command. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return undefined
  return { name: match[1]!, args: (match[2] ?? '').trim() }
}

/**
 * Expands a prompt that starts with `/name`: a skill the user may invoke, a custom command, or an
 * MCP prompt. Anything else stays as typed. Never throws: failures (a denied `!` command, a
 * missing required MCP argument, a server that is down) come back as `error`.
 */
export async function expandSlash(text: string, context: SlashContext): Promise<SlashExpansion> {
  const parsed = parseSlash(text)
  if (!parsed) return { kind: 'none' }
  const { name, args } = parsed
  const skill = context.catalog.skills.find((candidate) => candidate.name === name)
  if (skill && !skill.userInvocable) return { kind: 'error', name, message: `/${name} is a skill only the agent may load (user-invocable: false).` }
  const template: SkillDefinition | CommandDefinition | undefined = skill ?? context.catalog.commands.find((candidate) => candidate.name === name)
  if (template) {
    try {
      const rendered = await renderTemplate(template, { args, sessionId: context.sessionId, projectDir: context.projectDir, signal: context.signal }, context.capabilities)
      if (!rendered.ok) return { kind: 'error', name, message: rendered.error }
      return {
        kind: 'expanded',
        name,
        text: commandMessage(name, args, rendered.text),
        body: rendered.text,
        args,
        allowedTools: template.allowedTools,
        ...(template.model && { model: template.model }),
        ...(skill && { skill }),
        template,
      }
    } catch (error) {
      return { kind: 'error', name, message: `/${name} could not be expanded: ${(error as Error).message}` }
    }
  }
  const prompt = context.mcpPrompts.find((candidate) => candidate.name === name)
  if (!prompt) return { kind: 'none' }
  const words = splitArguments(args)
  const values: Record<string, string> = {}
  prompt.arguments.forEach((argument, index) => {
    // The last declared argument takes whatever is left, so free text needs no quotes.
    const word = index === prompt.arguments.length - 1 ? words.slice(index).join(' ') : words[index]
    if (word !== undefined && word !== '') values[argument.name] = word
  })
  const missing = prompt.arguments.filter((argument) => argument.required && values[argument.name] === undefined)
  if (missing.length > 0) {
    const usage = prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(' ')
    return { kind: 'error', name, message: `/${name} needs ${missing.map((argument) => argument.name).join(', ')} (usage: /${name} ${usage})` }
  }
  try {
    const rendered = await context.getMcpPrompt(prompt, values, context.signal)
    return { kind: 'expanded', name, text: commandMessage(name, args, rendered), body: rendered, args, allowedTools: [] }
  } catch (error) {
    return { kind: 'error', name, message: (error as Error).message }
  }
}

/** The message the model gets: which command ran (as Claude Code marks it), then its text. */
function commandMessage(name: string, args: string, body: string): string {
  return `<command-name>/${name}</command-name>${args ? `\n<command-args>${args}</command-args>` : ''}\n\n${body}`
}
