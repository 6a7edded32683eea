import { createContext, useContext } from 'react'
import type { PermissionModeName } from '../../../shared/ipc/contract'

/** What the conversation a command was typed in offers it. */
export interface SlashContext {
  newConversation(): void
  setMode(mode: PermissionModeName): void
  /** `/compact [instructions]`: summarize the conversation now (or before the running turn's next request). */
  compact(instructions: string): void
}

/**
 * A command typed as `/name` in the composer; it runs in the app and is never sent to the model.
 * `run` gets the conversation it was typed in and, for a command that `takesArguments`, the rest
 * of the line (`/compact keep the API notes` → `"keep the API notes"`).
 */
export interface SlashCommand {
  name: string
  description: string
  takesArguments?: boolean
  run(chat: SlashContext, args: string): void
}

/**
 * The slash commands the composer completes from. The shell provides the one registry
 * (`app/slash-commands.ts`); features read it here and never learn where a command's handler lives.
 */
export const SlashCommands = createContext<readonly SlashCommand[]>([])

/** The registered slash commands. */
export function useSlashCommands(): readonly SlashCommand[] {
  return useContext(SlashCommands)
}

/** Commands matching what is typed so far (`/`, `/pl`…); empty when the text is not a command name. */
export function matchCommands(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
  const match = /^\/([\w-]*)$/.exec(text.trim())
  if (!match) return []
  const typed = (match[1] ?? '').toLowerCase()
  return commands.filter((command) => command.name.startsWith(typed))
}

/**
 * The command the whole text names (`/plan`), with its arguments when it takes them
 * (`/compact focus on tests`); `undefined` when the text is a prompt.
 */
export function exactCommand(text: string, commands: readonly SlashCommand[]): { command: SlashCommand; args: string } | undefined {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(text.trim())
  const name = match?.[1]?.toLowerCase()
  const command = name ? commands.find((candidate) => candidate.name === name) : undefined
  if (!command) return undefined
  const args = match?.[2]?.trim() ?? ''
  if (args && !command.takesArguments) return undefined
  return { command, args }
}
