import { create } from 'zustand'
import type { RequestInput } from '../../../../shared/ipc/contract'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { api } from '../../api'
import { applyTaskUpdate, emptyTaskList, loadFailed, loadFinished, loadStarted, type TaskListView } from './task-list'

type Patch = Omit<RequestInput<'tasks.update'>, 'sessionId' | 'taskId'>

/**
 * The task lists of the sessions the panel has shown, kept live by `task_update` events (from the
 * agent's task tools and from the user's own changes, which come back the same way). The actions
 * return an error message, or null when the host took the change; the list itself changes only
 * when the event arrives, so what is shown is always what is on disk.
 */
export interface TasksState {
  lists: Readonly<Record<string, TaskListView>>
  /** Why the last listing or change failed, per session (shown until the next success). */
  errors: Readonly<Record<string, string>>
  load(sessionId: string): Promise<void>
  create(sessionId: string, input: { subject: string; description?: string; activeForm?: string }): Promise<string | null>
  update(sessionId: string, taskId: string, patch: Patch): Promise<string | null>
  remove(sessionId: string, taskId: string): Promise<string | null>
  move(sessionId: string, taskId: string, beforeId: string | undefined): Promise<string | null>
  dismissError(sessionId: string): void
}

export const useTasks = create<TasksState>()((set, get) => {
  const edit = (sessionId: string, fn: (view: TaskListView) => TaskListView) =>
    set((state) => ({ lists: { ...state.lists, [sessionId]: fn(state.lists[sessionId] ?? emptyTaskList) } }))
  const settle = (sessionId: string, result: { ok: true } | { ok: false; error: { message: string } }): string | null => {
    const { [sessionId]: _cleared, ...errors } = get().errors
    if (result.ok) {
      set({ errors })
      return null
    }
    set({ errors: { ...errors, [sessionId]: result.error.message } })
    return result.error.message
  }
  return {
    lists: {},
    errors: {},

    async load(sessionId) {
      edit(sessionId, loadStarted)
      const listed = await api.invoke('tasks.list', { sessionId })
      edit(sessionId, (view) => (listed.ok ? loadFinished(view, listed.value) : loadFailed(view)))
      settle(sessionId, listed.ok ? { ok: true } : { ok: false, error: { message: `Could not load the tasks: ${listed.error.message}` } })
    },
    async create(sessionId, input) {
      return settle(sessionId, await api.invoke('tasks.create', { sessionId, ...input }))
    },
    async update(sessionId, taskId, patch) {
      return settle(sessionId, await api.invoke('tasks.update', { sessionId, taskId, ...patch }))
    },
    async remove(sessionId, taskId) {
      return settle(sessionId, await api.invoke('tasks.delete', { sessionId, taskId }))
    },
    async move(sessionId, taskId, beforeId) {
      return settle(sessionId, await api.invoke('tasks.move', { sessionId, taskId, ...(beforeId !== undefined && { beforeId }) }))
    },
    dismissError(sessionId) {
      const { [sessionId]: _dismissed, ...errors } = get().errors
      set({ errors })
    },
  }
})

/** One `agent.event` (fed by `app/event-feed.ts`): a task list changed, in any session the panel has shown. */
export function receiveTaskEvent(event: AgentEvent): void {
  if (event.type === 'task_update') useTasks.setState((state) => ({ lists: { ...state.lists, [event.sessionId]: applyTaskUpdate(state.lists[event.sessionId] ?? emptyTaskList, event) } }))
}