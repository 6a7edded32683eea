import type { PermissionModeName } from '../../../../shared/ipc/contract'

/** What a slash command can do in the chat. */
export interface SlashContext {
  newConversation(): void
  setMode(mode: PermissionModeName): void
}

/** A command typed as `/name` in the composer; it runs here and is never sent to the model. */
export interface SlashCommand {
  name: string
  description: string
  run(ctx: SlashContext): void
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'clear', description: 'Start a new conversation (the old one stays in the session list)', run: (ctx) => ctx.newConversation() },
  { name: 'plan', description: 'Plan mode: the agent may read and think, not change anything', run: (ctx) => ctx.setMode('plan') },
  { name: 'accept-edits', description: 'Accept file edits without asking (commands still ask)', run: (ctx) => ctx.setMode('acceptEdits') },
  { name: 'ask', description: 'Ask before every change (the default mode)', run: (ctx) => ctx.setMode('default') },
]

/** Commands matching what is typed so far (`/`, `/pl`…); empty when the text is not a command. */
export function matchCommands(text: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand[] {
  const match = /^\/([\w-]*)$/.exec(text.trim())
  if (!match) return []
  const typed = (match[1] ?? '').toLowerCase()
  return commands.filter((command) => command.name.startsWith(typed))
}

/** The command the whole text names exactly (`/plan`), if any. */
export function exactCommand(text: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand | undefined {
  const name = /^\/([\w-]+)$/.exec(text.trim())?.[1]?.toLowerCase()
  return name ? commands.find((command) => command.name === name) : undefined
}

/** Drafts per conversation, kept for the life of the window. */
const drafts = new Map<string, string>()

/** The draft of a conversation (empty when none). */
export function loadDraft(key: string): string {
  return drafts.get(key) ?? ''
}

/** Keeps (or, when empty, forgets) the draft of a conversation. */
export function saveDraft(key: string, text: string): void {
  if (text) drafts.set(key, text)
  else drafts.delete(key)
}
