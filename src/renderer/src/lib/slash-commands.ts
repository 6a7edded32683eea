import { createContext, useContext } from 'react'
import type { EffortLevel, PermissionModeName } from '../../../shared/ipc/contract'

/** What the conversation a command was typed in offers it. */
export interface SlashContext {
  newConversation(): void
  setMode(mode: PermissionModeName): void
  /** Sends a prompt as typed: a custom command goes to Sous, which expands it before the model sees it. */
  send(text: string): void
  /** Shows a command's answer under the message box (it never reaches the model). */
  say(text: string): void
  /** Switches the conversation's model (`undefined`: back to the default); resolves to what to tell the user. */
  setModel(model: string | undefined): Promise<string>
  /** `/think`: thinking on or off and the effort level of the conversation's next requests; resolves to what to tell the user. */
  setReasoning(change: { thinking?: boolean; effort?: EffortLevel }): Promise<string>
  /** The model the conversation uses now, when known. */
  currentModel(): string | undefined
  /** `/compact [instructions]`: summarize the conversation now (or before the running turn's next request). */
  compact(instructions: string): void
  /** `/rewind`: opens the rewind picker of the conversation (false when it has no session yet). */
  rewind?(): boolean
  /** Shows the view registered as `id` (`app/views.tsx`); false when this build has none. */
  showView(id: string): boolean
  /** Every command the composer knows, built in and custom (for `/help`). */
  commands: readonly SlashCommand[]
}

/**
 * A command typed as `/name` in the composer. A built-in one runs in the app and is never sent to
 * the model; a `custom` one (a skill, a command file, an MCP prompt) is sent to Sous to be expanded.
 * `run` gets the conversation it was typed in and, for a command that `takesArguments`, the rest
 * of the line (`/compact keep the API notes` → `"keep the API notes"`).
 */
export interface SlashCommand {
  name: string
  description: string
  takesArguments?: boolean
  /** What the arguments look like (`<file> [focus]`), shown while completing and typing them. */
  argumentHint?: string
  /** Where it comes from (`project command`, `yours · skill`…); built-ins have none. */
  origin?: string
  /** Expanded by Sous: completing it fills in the name (arguments may follow) instead of running it. */
  custom?: boolean
  run(chat: SlashContext, args: string): void
}

/** The commands the composer completes, and a way to ask for a fresh list (custom commands are files). */
export interface SlashRegistry {
  commands: readonly SlashCommand[]
  /** Reads the custom commands again unless they were read a moment ago. */
  refresh(): void
}

/**
 * The slash commands the composer completes from. The shell provides the one registry
 * (`app/slash-commands.ts`, plus the project's custom commands); features read it here and never
 * learn where a command's handler lives.
 */
export const SlashCommands = createContext<SlashRegistry>({ commands: [], refresh: () => undefined })

/** The registered slash commands. */
export function useSlashCommands(): SlashRegistry {
  return useContext(SlashCommands)
}

/** A command name: words, `-`, `.`, and `:` (commands in subfolders, `mcp__server__prompt`). */
const NAME = '[\\w.:-]'

/**
 * Commands matching what is typed so far (`/`, `/pl`…); empty when the text is not a command name,
 * or once a space follows the name (its arguments are being typed).
 */
export function matchCommands(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
  const match = new RegExp(`^/(${NAME}*)$`).exec(text.trimStart())
  if (!match) return []
  const typed = (match[1] ?? '').toLowerCase()
  return commands.filter((command) => command.name.toLowerCase().startsWith(typed))
}

/**
 * The command the whole text names (`/plan`), with its arguments when it takes them
 * (`/compact focus on tests`); `undefined` when the text is a prompt.
 */
export function exactCommand(text: string, commands: readonly SlashCommand[]): { command: SlashCommand; args: string } | undefined {
  const match = new RegExp(`^/(${NAME}+)(?:\\s+([\\s\\S]*))?$`).exec(text.trim())
  const name = match?.[1]?.toLowerCase()
  const command = name ? commands.find((candidate) => candidate.name.toLowerCase() === name) : undefined
  if (!command) return undefined
  const args = match?.[2]?.trim() ?? ''
  if (args && !command.takesArguments) return undefined
  return { command, args }
}

/** The command whose arguments are being typed (`/review src/a.ts` → review), to show its hint. */
export function commandBeingUsed(text: string, commands: readonly SlashCommand[]): SlashCommand | undefined {
  const match = new RegExp(`^/(${NAME}+)\\s`).exec(text.trimStart())
  const name = match?.[1]?.toLowerCase()
  return name ? commands.find((command) => command.name.toLowerCase() === name && command.takesArguments) : undefined
}
