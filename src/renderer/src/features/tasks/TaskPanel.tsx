import { useEffect, useMemo, useRef, useState } from 'react'
import { connection } from '../../api'
import { TaskForm } from './TaskForm'
import { TaskRow } from './TaskRow'
import { emptyTaskList, moveTarget, progress } from './task-list'
import { useTasks } from './store'
import './tasks.css'

export interface TaskPanelProps {
  /** The session the chat shows; null before its first prompt. */
  sessionId: string | null
}

/**
 * The session's task list, live: what the agent planned and where it is, with dependencies, and
 * the user's own hand on it (add, edit, complete, reorder, delete). Every change goes through the
 * host and comes back as an event, and the agent is told about it on its next request.
 */
export function TaskPanel({ sessionId }: TaskPanelProps) {
  const view = useTasks((state) => (sessionId ? state.lists[sessionId] : undefined)) ?? emptyTaskList
  const error = useTasks((state) => (sessionId ? state.errors[sessionId] : undefined))
  const { load, create, update, remove, move, dismissError } = useTasks.getState()
  const [adding, setAdding] = useState(false)
  const list = useRef<HTMLOListElement>(null)
  const addButton = useRef<HTMLButtonElement>(null)
  // The form closes: focus goes back to the button that opened it (it is mounted again by then).
  const closeForm = () => {
    setAdding(false)
    requestAnimationFrame(() => addButton.current?.focus())
  }
  const byId = useMemo(() => new Map(view.tasks.map((task) => [task.id, task])), [view.tasks])
  const { done, total } = progress(view.tasks)

  useEffect(() => {
    setAdding(false)
    if (!sessionId) return
    void load(sessionId)
    // Events missed while the link was down: the host's list is the truth after a reconnect.
    return connection.onState((state) => {
      if (state === 'open') void load(sessionId)
    })
  }, [sessionId, load])

  /** Focuses task `id`'s checkbox (to show a blocker, or after a move). */
  const focusRow = (id: string) => list.current?.querySelector<HTMLElement>(`[data-task-id="${id}"] .task__check`)?.focus()

  // Focus stays where it was in the moved task's row (its checkbox when that button can no longer move it).
  const moveTask = async (id: string, direction: 'up' | 'down') => {
    const target = moveTarget(view.tasks, id, direction)
    if (!sessionId || !target) return
    const focused = document.activeElement
    if (await move(sessionId, id, target.beforeId)) return
    requestAnimationFrame(() => {
      if (focused instanceof HTMLElement && focused.isConnected && !(focused as HTMLButtonElement).disabled) focused.focus()
      else focusRow(id)
    })
  }

  return (
    // Empty, the panel says so on one line and the sidebar gives it no more room than that.
    <section className="tasks" aria-label="Tasks" data-empty={!sessionId || (view.loaded && view.tasks.length === 0 && !adding) || undefined}>
      <header className="tasks__header">
        <h2 className="pane__title">Tasks</h2>
        {total > 0 && (
          <span className="tasks__progress" aria-label={`${done} of ${total} done`}>
            {done}/{total}
          </span>
        )}
      </header>
      {!sessionId && <p className="tasks__empty">Tasks appear here once a conversation has started.</p>}
      {error && sessionId && (
        <p className="pane__error" role="alert">
          {error}{' '}
          <button type="button" className="button button--quiet button--small" aria-label="Dismiss error" onClick={() => dismissError(sessionId)}>
            ×
          </button>
        </p>
      )}
      {sessionId && (
        <ol ref={list} className="tasks__list" aria-label="Task list">
          {view.loaded && view.tasks.length === 0 && !adding && <li className="tasks__empty">No tasks yet. The agent adds them for work with several steps; you can add your own.</li>}
          {view.tasks.map((task, index) => (
            <TaskRow
              key={task.id}
              task={task}
              byId={byId}
              first={index === 0}
              last={index === view.tasks.length - 1}
              onUpdate={(patch) => update(sessionId, task.id, patch)}
              onRemove={() => remove(sessionId, task.id)}
              onMove={(direction) => void moveTask(task.id, direction)}
              onShow={(id) => focusRow(id)}
            />
          ))}
        </ol>
      )}
      {adding && sessionId && (
        <TaskForm
          onCancel={closeForm}
          onSubmit={async (values) => {
            const problem = await create(sessionId, { subject: values.subject.trim(), description: values.description, ...(values.activeForm.trim() && { activeForm: values.activeForm.trim() }) })
            if (!problem) closeForm()
            return problem
          }}
        />
      )}
      {sessionId && !adding && (
        // After the list, so "the first thing in the panel" is the first task when there is one.
        <button ref={addButton} type="button" className="button button--small tasks__add" onClick={() => setAdding(true)}>
          Add task
        </button>
      )}
      {view.problems.length > 0 && (
        <details className="tasks__problems" role="note">
          <summary>
            {view.problems.length === 1 ? 'One task file' : `${view.problems.length} task files`} could not be read
          </summary>
          <ul>
            {view.problems.map((problem) => (
              <li key={problem.file}>
                <code>{problem.file}</code>: {problem.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}
