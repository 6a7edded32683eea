import { useState, type FormEvent, type KeyboardEvent } from 'react'
import type { TaskItem } from '../../../../shared/protocol/task'
import { statusLabel } from './task-list'

/** What the form gives back: the fields as typed (the host trims and checks them). */
export interface TaskFormValues {
  subject: string
  description: string
  activeForm: string
  status: TaskItem['status']
  owner: string
}

interface TaskFormProps {
  /** The task being edited; a new task without one. */
  task?: TaskItem
  /** Resolves to an error message to show, or null when the host took it (the form then closes). */
  onSubmit(values: TaskFormValues): Promise<string | null>
  onCancel(): void
}

/**
 * Adds or edits a task: subject, description, the "-ing" form the status bar shows while it runs,
 * and — when editing — its status and owner. Enter in the subject saves, Escape cancels.
 */
export function TaskForm({ task, onSubmit, onCancel }: TaskFormProps) {
  const [values, setValues] = useState<TaskFormValues>({
    subject: task?.subject ?? '',
    description: task?.description ?? '',
    activeForm: task?.activeForm ?? '',
    status: task?.status ?? 'pending',
    owner: task?.owner ?? '',
  })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const label = task ? `Edit task #${task.id}` : 'New task'
  const field = <K extends keyof TaskFormValues>(key: K) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [key]: event.target.value })),
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (values.subject.trim() === '') return setError('A task needs a subject.')
    setBusy(true)
    const problem = await onSubmit(values)
    setBusy(false)
    setError(problem)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onCancel()
    }
  }

  return (
    <form className="task-form" aria-label={label} onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown}>
      <label className="task-form__field">
        <span>Subject</span>
        <input className="field field--small" aria-label="Subject" autoFocus required maxLength={500} {...field('subject')} />
      </label>
      <label className="task-form__field">
        <span>Description</span>
        <textarea className="field field--small" aria-label="Description" rows={2} maxLength={20000} {...field('description')} />
      </label>
      <label className="task-form__field">
        <span>While running, show</span>
        <input className="field field--small" aria-label="Active form" placeholder="Running the tests" maxLength={500} {...field('activeForm')} />
      </label>
      {task && (
        <div className="task-form__row">
          <label className="task-form__field">
            <span>Status</span>
            <select className="field field--small" aria-label="Status" {...field('status')}>
              {(['pending', 'in_progress', 'completed'] as const).map((status) => (
                <option key={status} value={status}>
                  {statusLabel(status)}
                </option>
              ))}
            </select>
          </label>
          <label className="task-form__field">
            <span>Owner</span>
            <input className="field field--small" aria-label="Owner" placeholder="nobody" maxLength={200} {...field('owner')} />
          </label>
        </div>
      )}
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
      <div className="task-form__actions">
        <button type="button" className="button button--small button--quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--small button--primary" disabled={busy}>
          {task ? 'Save' : 'Add'}
        </button>
      </div>
    </form>
  )
}
