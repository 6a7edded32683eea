import { useState, type KeyboardEvent } from 'react'
import type { TaskItem } from '../../../../shared/protocol/task'
import { TaskForm, type TaskFormValues } from './TaskForm'
import { openBlockers, statusLabel } from './task-list'

export interface TaskRowProps {
  task: TaskItem
  byId: ReadonlyMap<string, TaskItem>
  first: boolean
  last: boolean
  /** Each resolves to an error message, or null when the host took the change. */
  onUpdate(patch: Partial<TaskFormValues>): Promise<string | null>
  onRemove(): Promise<string | null>
  onMove(direction: 'up' | 'down'): void
  /** Moves focus to another task's row (a blocker named in this one). */
  onShow(id: string): void
}

/**
 * One task: a checkbox (done or not), its subject, number, status and owner, what it is doing while
 * it runs, the tasks it waits for and the tasks waiting for it (each a button to that task), and
 * its actions. Alt+↑ / Alt+↓ anywhere in the row move it.
 */
export function TaskRow({ task, byId, first, last, onUpdate, onRemove, onMove, onShow }: TaskRowProps) {
  const [editing, setEditing] = useState(false)
  const [busy, setBusy] = useState(false)
  // The box shows the user's click at once; the task's own status takes over when the host answers.
  const [checking, setChecking] = useState<boolean | null>(null)
  const open = new Set(openBlockers(task, byId))
  const run = async (change: () => Promise<string | null>) => {
    setBusy(true)
    await change()
    setBusy(false)
    setChecking(null)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || event.ctrlKey || event.metaKey || editing) return
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return
    event.preventDefault()
    const direction = event.key === 'ArrowUp' ? 'up' : 'down'
    if ((direction === 'up' && !first) || (direction === 'down' && !last)) onMove(direction)
  }

  if (editing) {
    return (
      <li className="task task--editing" data-task-id={task.id}>
        <TaskForm
          task={task}
          onCancel={() => setEditing(false)}
          onSubmit={async (values) => {
            const problem = await onUpdate(changedFields(task, values))
            if (!problem) setEditing(false)
            return problem
          }}
        />
      </li>
    )
  }

  const name = `#${task.id} ${task.subject}`
  return (
    <li className={`task task--${task.status}${open.size > 0 ? ' task--blocked' : ''}`} data-task-id={task.id} aria-label={`Task ${name}`} onKeyDown={onKeyDown}>
      <input
        type="checkbox"
        className="task__check"
        checked={checking ?? task.status === 'completed'}
        disabled={busy}
        aria-label={`Done: ${name}`}
        onChange={(event) => {
          const done = event.target.checked
          setChecking(done)
          void run(() => onUpdate({ status: done ? 'completed' : 'pending' }))
        }}
      />
      <div className="task__body">
        <span className="task__subject">{task.subject}</span>
        <span className="task__meta">
          #{task.id} · <span data-testid="task-status">{statusLabel(task.status)}</span>
          {task.owner && <span> · {task.owner}</span>}
        </span>
        {task.status === 'in_progress' && task.activeForm && <span className="task__active">{task.activeForm}…</span>}
        {task.blockedBy.length > 0 && (
          <Links label="After" ids={task.blockedBy} byId={byId} open={open} subject={task.subject} relation="Waits for" onShow={onShow} />
        )}
        {task.blocks.length > 0 && <Links label="Before" ids={task.blocks} byId={byId} subject={task.subject} relation="Must finish before" onShow={onShow} />}
      </div>
      <div className="task__actions" role="group" aria-label={`Actions for ${name}`}>
        <button type="button" className="button button--small button--quiet task__move--up" aria-label={`Move ${name} up`} disabled={first || busy} onClick={() => onMove('up')}>
          ↑
        </button>
        <button type="button" className="button button--small button--quiet task__move--down" aria-label={`Move ${name} down`} disabled={last || busy} onClick={() => onMove('down')}>
          ↓
        </button>
        <button type="button" className="button button--small button--quiet" aria-label={`Edit ${name}`} disabled={busy} onClick={() => setEditing(true)}>
          Edit
        </button>
        <button type="button" className="button button--small button--quiet" aria-label={`Delete ${name}`} disabled={busy} onClick={() => void run(onRemove)}>
          ×
        </button>
      </div>
    </li>
  )
}

/** The dependencies of a task, drawn as links to the other tasks; open blockers stand out. */
function Links(props: { label: string; ids: readonly string[]; byId: ReadonlyMap<string, TaskItem>; open?: ReadonlySet<string>; subject: string; relation: string; onShow(id: string): void }) {
  return (
    <span className="task__links">
      <span className="task__links-label" aria-hidden="true">
        {props.label === 'After' ? '↳' : '↦'} {props.label}
      </span>
      {props.ids.map((id) => {
        const other = props.byId.get(id)
        const open = props.open?.has(id) ?? false
        const state = props.open ? (open ? 'not done yet' : 'done') : statusLabel(other?.status ?? 'pending').toLowerCase()
        return (
          <button
            key={id}
            type="button"
            className={`task__link${open ? ' task__link--open' : ''}`}
            aria-label={`${props.relation} #${id} ${other?.subject ?? '(unreadable)'} (${state})`}
            title={other?.subject}
            onClick={() => props.onShow(id)}
          >
            #{id}
          </button>
        )
      })}
    </span>
  )
}

/** Only what the form changed, so an edit never claims or renames by accident. */
function changedFields(task: TaskItem, values: TaskFormValues): Partial<TaskFormValues> {
  const patch: Partial<TaskFormValues> = {}
  if (values.subject.trim() !== task.subject) patch.subject = values.subject.trim()
  if (values.description !== task.description) patch.description = values.description
  if (values.activeForm.trim() !== (task.activeForm ?? '')) patch.activeForm = values.activeForm.trim()
  if (values.status !== task.status) patch.status = values.status
  if (values.owner.trim() !== (task.owner ?? '')) patch.owner = values.owner.trim()
  return patch
}
