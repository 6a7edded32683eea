import type { PermissionModeName } from '../../../shared/ipc/contract'
import type { AppCommand } from './shell'

/** What the palette's conversation commands do; the shell wires them to the chat (`commands.ts`). */
export interface ChatActions {
  setMode(mode: PermissionModeName): void
  setModel(model: string | undefined): void
  setThinking(on: boolean): void
  compact(): void
  stop(): void
  /** Starts renaming the session on screen (its name field in the session list gets the focus). */
  rename(): void
  /** Puts `/loop 10m ` in the message box, for the user to finish with the prompt to repeat. */
  loop(): void
}

/** The model aliases the palette offers (any other id is typed with `/model <id>`). */
const MODELS = ['sonnet', 'opus', 'haiku'] as const

/**
 * The conversation's actions for the palette — mode, model, thinking, compact, stop, rename — so
 * that everything a built-in slash command does is one palette entry away too. Pure.
 */
export function chatCommands(actions: ChatActions, hasSession: boolean): AppCommand[] {
  const commands: AppCommand[] = [
    { id: 'chat.mode.plan', title: 'Mode: plan (read and think, change nothing)', run: () => actions.setMode('plan') },
    { id: 'chat.mode.acceptEdits', title: 'Mode: accept edits (commands still ask)', run: () => actions.setMode('acceptEdits') },
    { id: 'chat.mode.default', title: 'Mode: ask before every change', run: () => actions.setMode('default') },
    { id: 'chat.mode.auto', title: 'Mode: auto (a classifier allows what fits your request, asks about the rest)', run: () => actions.setMode('auto') },
    ...MODELS.map((model) => ({ id: `chat.model.${model}`, title: `Model: ${model}`, run: () => actions.setModel(model) })),
    { id: 'chat.model.default', title: 'Model: the default', run: () => actions.setModel(undefined) },
    { id: 'chat.think.on', title: 'Extended thinking: on', run: () => actions.setThinking(true) },
    { id: 'chat.think.off', title: 'Extended thinking: off', run: () => actions.setThinking(false) },
    { id: 'chat.compact', title: 'Compact the conversation now', run: actions.compact },
    { id: 'chat.stop', title: 'Stop the running turn', run: actions.stop },
    { id: 'chat.loop', title: 'Repeat a prompt at an interval (/loop)', run: actions.loop },
  ]
  if (hasSession) commands.push({ id: 'session.rename', title: 'Rename this session', run: actions.rename })
  return commands
}

/**
 * For each built-in slash command, the palette command that does the same: the test holds this
 * against the slash registry, so a new `/command` without a palette entry fails it.
 */
export const SLASH_PALETTE: Readonly<Record<string, string>> = {
  clear: 'session.new',
  compact: 'chat.compact',
  model: 'chat.model.default',
  think: 'chat.think.on',
  permissions: 'view.settings',
  memory: 'view.memory',
  agents: 'view.agents',
  team: 'view.agents',
  mcp: 'extensions.mcp',
  hooks: 'extensions.hooks',
  context: 'view.context',
  plan: 'chat.mode.plan',
  'accept-edits': 'chat.mode.acceptEdits',
  ask: 'chat.mode.default',
  auto: 'chat.mode.auto',
  'auto-decisions': 'view.auto-decisions',
  tasks: 'view.tasks',
  todos: 'view.tasks',
  rewind: 'checkpoints.rewind',
  checkpoint: 'checkpoints.rewind',
  undo: 'checkpoints.rewind',
  loop: 'chat.loop',
  parallel: 'view.parallel',
  help: 'palette',
}
