import { useEffect, useId } from 'react'
import { loadAvailability, useWorktreeFacts } from '../../state/worktrees'
import { unavailableReason, worktreeNameProblem } from '../../state/worktree-model'
import type { WorktreeAvailability } from '../../../../shared/ipc/contract'
import { useSessions } from './store'

/** The few words beside the disabled checkbox (the core's whole sentence is its description). */
function shortReason(reason: Extract<WorktreeAvailability, { available: false }>['reason']): string {
  if (reason === 'not-a-repository') return 'not a git repository'
  if (reason === 'git-missing') return 'git is not installed'
  if (reason === 'git-too-old') return 'git is too old'
  if (reason === 'unsafe-config') return "the repository's git configuration runs programs"
  return 'git does not work here'
}

/**
 * "Run in a worktree" for the next new session: a checkbox and an optional name, checked as the
 * core checks it while typing. Disabled where worktrees cannot be made (not a git repository, git
 * missing or too old), with the core's one sentence beside it, said once here and nowhere else.
 */
export function WorktreeChoice({ projectPath }: { projectPath: string }) {
  const availability = useWorktreeFacts((state) => state.availability[projectPath])
  const on = useSessions((state) => state.inWorktree)
  const name = useSessions((state) => state.worktreeName)
  const createError = useSessions((state) => state.createError)
  const creating = useSessions((state) => state.creating)
  const { setInWorktree, setWorktreeName } = useSessions.getState()
  const reasonId = useId()
  const problemId = useId()
  useEffect(() => void loadAvailability(projectPath), [projectPath])

  const reason = unavailableReason(availability)
  const usable = availability?.available === true
  const problem = worktreeNameProblem(name.trim()) ?? createError
  return (
    <div className="sessions__worktree" role="group" aria-label="New session options">
      <label className="sessions__scope" title={reason ?? undefined}>
        <input
          type="checkbox"
          checked={on && usable}
          disabled={!usable || creating}
          aria-describedby={reason ? reasonId : undefined}
          onChange={(event) => setInWorktree(event.target.checked)}
        />
        Run in a worktree
        {/* One line in a small section: the short reason shows, the whole sentence is its description and tooltip. */}
        {availability && !availability.available && <span className="sessions__note" aria-hidden="true">· {shortReason(availability.reason)}</span>}
      </label>
      {reason && (
        <span id={reasonId} className="visually-hidden">
          {reason}
        </span>
      )}
      {on && usable && (
        <input
          className="field field--small"
          aria-label="Worktree name"
          placeholder="Worktree name (optional)"
          value={name}
          disabled={creating}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(event) => setWorktreeName(event.target.value)}
        />
      )}
      {on && usable && problem && (
        <small id={problemId} className="sessions__problem" role="alert">
          {problem}
        </small>
      )}
    </div>
  )
}
