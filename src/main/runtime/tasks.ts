import type { EventHub } from '../base/event-hub'
import { isValidTaskListName, taskListDir, TaskStore } from '../store/tasks/task-store'
import type { TaskListAccess } from '../tools/types'
import { UserTaskEdits } from './user-task-edits'

/** Where a session's task list is, and how its changes reach the UI. */
export interface SessionTasksOptions {
  /** `$SOUS_HOME/projects/<slug>`. */
  projectDataDir: string
  sessionId: string
  /**
   * A list shared by name (`SOUS_TASK_LIST`, Claude Code's `CLAUDE_CODE_TASK_LIST_ID`, or the host's
   * option); without one the list is the session's own, named after it.
   */
  sharedName?: string
  hub: EventHub
  /** Tells the model, on its next request, what the user changed in the task panel. */
  remind(text: string): void
}

/** The list name a host asks for: its own option first, then the environment. */
export function sharedTaskListName(option: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return (option ?? env['SOUS_TASK_LIST'] ?? env['CLAUDE_CODE_TASK_LIST_ID'])?.trim() || undefined
}

/**
 * A session's task list: one store per session (its subagents share it), every change announced
 * as a `task_update` agent event. An unusable shared name gives the session a list of its own and
 * a `warning` to show when the first turn runs. On a list shared by name, the main agents of different
 * sessions own tasks under different names (`main@<session>`), so their claims keep them apart.
 * `user` is the task panel's way in: the same store, with each change told to the model.
 */
export function createSessionTasks(o: SessionTasksOptions): { access: TaskListAccess & { aliases: Map<string, string> }; user: UserTaskEdits; warning?: string; dispose(): void } {
  let listId = o.sessionId
  let warning: string | undefined
  if (o.sharedName !== undefined) {
    if (isValidTaskListName(o.sharedName)) listId = o.sharedName
    else warning = `The task list name "${o.sharedName}" is not usable (letters, digits, ".", "_" and "-" only); this session keeps a task list of its own.`
  }
  const shared = listId !== o.sessionId
  const store = new TaskStore(taskListDir(o.projectDataDir, listId))
  const unsubscribe = store.onChange((change) => {
    o.hub.emit('agent.event', { type: 'task_update', sessionId: o.sessionId, agentId: 'main', listId, tasks: change.changed, deleted: change.deleted, actor: change.actor })
  })
  // Teammates of an agent team own tasks under their names (agents/team sets them).
  const aliases = new Map<string, string>()
  const ownerOf = (agentId: string): string => aliases.get(agentId) ?? (shared && agentId === 'main' ? `main@${o.sessionId.slice(0, 8)}` : agentId)
  const access = { store, listId, ownerOf, aliases }
  return { access, user: new UserTaskEdits(access, o.remind), ...(warning && { warning }), dispose: unsubscribe }
}
