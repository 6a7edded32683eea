import type { SlashCommand } from '../lib/slash-commands'
import { openView } from '../lib/views'

/**
 * The slash-command registry: every `/command` the composer completes, in the order it lists them.
 * Adding one is one entry here plus its handler; a command that opens a view calls
 * `openView(id)` (`lib/views.ts`) with the id it has in `views.tsx`, e.g.
 * `{ name: 'memory', description: 'Browse what the agent remembers', run: () => openView('memory') }`.
 * Names follow Claude Code's where one exists.
 */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'clear', description: 'Start a new conversation (the old one stays in the session list)', run: (chat) => chat.newConversation() },
  { name: 'plan', description: 'Plan mode: the agent may read and think, not change anything', run: (chat) => chat.setMode('plan') },
  { name: 'accept-edits', description: 'Accept file edits without asking (commands still ask)', run: (chat) => chat.setMode('acceptEdits') },
  { name: 'ask', description: 'Ask before every change (the default mode)', run: (chat) => chat.setMode('default') },
  { name: 'memory', description: 'Browse and edit what the agent remembers', run: () => openView('memory') },
  // Claude Code lists its to-do items with /todos; /tasks is the name people look for here.
  { name: 'tasks', description: "Show the session's task list (and add your own)", run: focusTaskList },
  { name: 'todos', description: "Show the session's task list (Claude Code's name for it)", run: focusTaskList },
  { name: 'context', description: 'Show what the next request holds, sized against the context window', run: () => openView('context') },
  { name: 'compact', description: 'Summarize the conversation to free context (optional: what to keep in detail)', takesArguments: true, run: (chat, args) => chat.compact(args) },
]

/** Moves focus into the task panel (its first task, or its Add button) once the composer has settled. */
function focusTaskList(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-label="Tasks"] :is(.task__check, button:not(:disabled))')?.focus())
}
