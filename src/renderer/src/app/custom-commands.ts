import type { SlashCommandInfo } from '../../../shared/ipc/contract'
import type { SlashCommand } from '../lib/slash-commands'

const KIND = { command: 'command', skill: 'skill', 'mcp-prompt': 'MCP prompt' } as const
const SOURCE = { project: 'project', user: 'yours', local: 'yours', cli: 'command line' } as const

/**
 * The project's own `/name`s (skills, command files, MCP prompts) as composer commands: choosing
 * one sends the line to Sous, which expands it before the model sees it. A name a built-in
 * command has stays the built-in's (listed once).
 */
export function customCommands(infos: readonly SlashCommandInfo[], builtIns: readonly SlashCommand[]): SlashCommand[] {
  const taken = new Set(builtIns.map((command) => command.name.toLowerCase()))
  return infos
    .filter((info) => !taken.has(info.name.toLowerCase()))
    .map((info) => ({
      name: info.name,
      description: info.description,
      takesArguments: true,
      custom: true,
      origin: `${SOURCE[info.source]} ${KIND[info.kind]}`,
      ...(info.argumentHint && { argumentHint: info.argumentHint }),
      run: (chat, args) => chat.send(args ? `/${info.name} ${args}` : `/${info.name}`),
    }))
}
