import { useExtensionsSection, type Section } from '../features/extensions/section'
import type { EffortLevel } from '../../../shared/ipc/contract'
import type { SlashCommand, SlashContext } from '../lib/slash-commands'
import { loopPrompt } from './loop-command'
import { focusWhenShown } from './show-view'

/**
 * Shows the view registered as `id`; a view this build does not have yet (`what` names it) is
 * said so in the conversation instead, never an error.
 */
function show(chat: SlashContext, id: string, what: string): boolean {
  if (chat.showView(id)) return true
  chat.say(`${what} is not part of this build yet.`)
  return false
}

/** Opens the Extensions view at one of its sections. */
function extensionsAt(section: Section, chat: SlashContext): void {
  useExtensionsSection.getState().show(section)
  show(chat, 'extensions', 'The Extensions view')
}

/** `/model`, `/model <id or alias>`, `/model default`. */
async function model(chat: SlashContext, args: string): Promise<void> {
  if (!args) {
    const current = chat.currentModel()
    return chat.say(
      `${current ? `This conversation uses ${current}.` : 'This conversation uses the default model (Settings → Model).'} Switch with /model <id>, or an alias: sonnet, opus, haiku; /model default goes back.`,
    )
  }
  chat.say(await chat.setModel(args === 'default' ? undefined : args))
}

const EFFORTS: readonly EffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max']

/**
 * `/think [on|off|<effort>]`: thinking on or off for the conversation's next requests, or the
 * effort level (`output_config.effort`, for models that take it). Without an argument it says how.
 */
async function think(chat: SlashContext, args: string): Promise<void> {
  const word = args.trim().toLowerCase()
  if (word === 'on' || word === 'off') return chat.say(await chat.setReasoning({ thinking: word === 'on' }))
  if ((EFFORTS as readonly string[]).includes(word)) return chat.say(await chat.setReasoning({ effort: word as EffortLevel }))
  chat.say(`/think on or /think off switches extended thinking; /think ${EFFORTS.join('|')} sets the effort. The defaults come from Settings (alwaysThinkingEnabled, effortLevel).`)
}

/**
 * `/team <name> [goal]`: asks the agent, as the team's lead, to create the team (TeamCreate) and
 * start the teammates the goal needs; the lanes show in the Agents view, which opens. Without a
 * name it says how.
 */
function team(chat: SlashContext, args: string): void {
  const [name, ...rest] = args.trim().split(/\s+/).filter(Boolean)
  if (!name) return chat.say('/team <name> [what the team should do] asks the agent to create an agent team and start its teammates; they show as lanes in the Agents view.')
  const goal = rest.join(' ')
  chat.send(`Create an agent team named "${name}" with TeamCreate${goal ? `, then start the teammates it needs with the Agent tool (each with a name) to: ${goal}` : ', then wait for my instructions before starting teammates'}.`)
  show(chat, 'agents', 'The agents view')
}

/** `/help`: every command, built in and custom, with its arguments. */
function help(chat: SlashContext): void {
  const line = (command: SlashCommand) =>
    `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''} — ${command.description}${command.origin ? ` (${command.origin})` : ''}`
  const builtIn = chat.commands.filter((command) => !command.custom)
  const custom = chat.commands.filter((command) => command.custom)
  chat.say(
    [
      'Commands handled by Sous (never sent to the model):',
      ...builtIn.map(line),
      ...(custom.length > 0 ? ['', "This project's commands (expanded, then sent to the model):", ...custom.map(line)] : []),
    ].join('\n'),
  )
}

/**
 * The slash-command registry: every built-in `/command` the composer completes, in the order it
 * lists them (the project's own commands follow; see `custom-commands.ts`). Adding one is one entry
 * here; a command that opens a view calls `show` with the id it has in `views.tsx`, which says
 * so in the conversation when this build has no such view. Names follow Claude Code's.
 */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'clear', description: 'Start a new conversation (the old one stays in the session list)', run: (chat) => chat.newConversation() },
  {
    name: 'compact',
    description: 'Summarize the conversation to free context (optional: what to keep in detail)',
    takesArguments: true,
    argumentHint: '[instructions]',
    run: (chat, args) => chat.compact(args),
  },
  { name: 'model', description: "Show or switch this conversation's model", takesArguments: true, argumentHint: '[model]', run: (chat, args) => void model(chat, args) },
  { name: 'think', description: 'Turn extended thinking on or off, or set the effort level', takesArguments: true, argumentHint: '[on|off|low|medium|high|xhigh|max]', run: (chat, args) => void think(chat, args) },
  {
    name: 'permissions',
    description: 'Review and edit the permission rules (Settings)',
    run: (chat) => {
      if (show(chat, 'settings', 'Settings')) focusWhenShown('[aria-label="Project settings files"] [aria-selected="true"]')
    },
  },
  { name: 'memory', description: 'Browse and edit what the agent remembers', run: (chat) => void show(chat, 'memory', 'The memory view') },
  { name: 'agents', description: 'The agents and subagents at work', run: (chat) => void show(chat, 'agents', 'The agents view') },
  { name: 'team', description: 'Start an agent team: the agent creates it (TeamCreate) and starts its teammates', takesArguments: true, argumentHint: '<name> [what the team should do]', run: team },
  { name: 'mcp', description: 'MCP servers: status, tools, restart, logs', run: (chat) => extensionsAt('mcp', chat) },
  { name: 'hooks', description: 'Hooks per event and their latest runs', run: (chat) => extensionsAt('hooks', chat) },
  { name: 'context', description: 'Show what the next request holds, sized against the context window', run: (chat) => void show(chat, 'context', 'The context view') },
  { name: 'plan', description: 'Plan mode: the agent may read and think, not change anything', run: (chat) => chat.setMode('plan') },
  { name: 'accept-edits', description: 'Accept file edits without asking (commands still ask)', run: (chat) => chat.setMode('acceptEdits') },
  { name: 'ask', description: 'Ask before every change (the default mode)', run: (chat) => chat.setMode('default') },
  { name: 'auto', description: 'Auto mode: a classifier allows calls that fit your request, asks about the rest', run: (chat) => chat.setMode('auto') },
  { name: 'auto-decisions', description: "Open auto mode's decision log (and ask me next time)", run: (chat) => void show(chat, 'auto-decisions', 'The auto-mode decision log') },
  // Claude Code lists its to-do items with /todos; /tasks is the name people look for here.
  { name: 'tasks', description: "Show the session's task list (and add your own)", run: focusTaskList },
  { name: 'todos', description: "Show the session's task list (Claude Code's name for it)", run: focusTaskList },
  // Claude Code's /rewind, with its aliases /checkpoint and /undo.
  ...(['rewind', 'checkpoint', 'undo'] as const).map((name) => ({
    name,
    description: name === 'rewind' ? 'Rewind the code and/or the conversation to a checkpoint (Esc Esc)' : `Rewind to a checkpoint (Claude Code's /${name}, the same as /rewind)`,
    run: rewind,
  })),
  // Claude Code's /loop: the model schedules the prompt with CronCreate and runs it once now.
  {
    name: 'loop',
    description: 'Repeat a prompt at an interval (scheduled with CronCreate)',
    takesArguments: true,
    argumentHint: '[interval] <prompt>',
    run: (chat, args) => {
      const loop = loopPrompt(args)
      if ('send' in loop) chat.send(loop.send)
      else chat.say(loop.say)
    },
  },
  { name: 'parallel', description: 'Run one prompt in several worktree sessions at once, compare them and merge hunks', run: (chat) => void show(chat, 'parallel', 'The parallel sessions view') },
  { name: 'help', description: 'List the commands', run: help },
]

/** `/rewind`, `/checkpoint`, `/undo`: the rewind picker, or why there is none yet. */
function rewind(chat: SlashContext): void {
  if (!chat.rewind?.()) chat.say('Nothing to rewind yet: checkpoints are taken at every prompt and before every change the agent makes.')
}

/** Moves focus into the task panel (its first task, or its Add button) once the composer has settled. */
function focusTaskList(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-label="Tasks"] :is(.task__check, button:not(:disabled))')?.focus())
}
