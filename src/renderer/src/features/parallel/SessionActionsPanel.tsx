import { useEffect, useState } from 'react'
import { createTwoFilesPatch } from 'diff'
import type { ParallelSession, UpdatePreviewRow } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/**
 * What can be done with one session's worktree: "Update from base" (shown as a diff first, then a
 * merge or a rebase), a commit with a message the agent drafts (edited before use), and Open PR
 * where the GitHub CLI is set up (otherwise disabled, saying why).
 */
export function SessionActionsPanel({ runId, session, onChanged }: { runId: string; session: ParallelSession; onChanged(): void }) {
  const ids = { runId, sessionId: session.sessionId }
  const [busy, setBusy] = useState<string | null>(null)
  const [said, setSaid] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [update, setUpdate] = useState<UpdatePreviewRow | null>(null)
  const [message, setMessage] = useState('')
  const [pr, setPr] = useState<{ available: boolean; reason?: string } | null>(null)

  useEffect(() => {
    let live = true
    setUpdate(null)
    setMessage('')
    setSaid(null)
    setError(null)
    void api.invoke('parallel.prStatus', { runId, sessionId: session.sessionId }).then((result) => live && setPr(result.ok ? result.value : { available: false, reason: result.error.message }))
    return () => {
      live = false
    }
  }, [runId, session.sessionId])

  async function step<T>(label: string, work: () => Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T | undefined> {
    setBusy(label)
    setError(null)
    const result = await work()
    setBusy(null)
    if (result.ok) return result.value
    setError(result.error.message)
    return undefined
  }

  const previewUpdate = async () => {
    const preview = await step('Previewing the update…', () => api.invoke('parallel.updatePreview', ids))
    if (preview) setUpdate(preview)
  }
  const runUpdate = async (mode: 'merge' | 'rebase') => {
    if (!update) return
    const done = await step(mode === 'merge' ? 'Merging the base in…' : 'Rebasing…', () => api.invoke('parallel.update', { ...ids, mode, baseHead: update.baseHead, head: update.head }))
    if (!done) return
    setUpdate(null)
    setSaid(`Updated from the base (${mode}); the worktree is at ${done.head.slice(0, 8)}.`)
    onChanged()
  }
  const draft = async () => {
    const drafted = await step('Drafting a message…', () => api.invoke('parallel.draftCommit', ids))
    if (drafted) setMessage(drafted.message)
  }
  const commit = async () => {
    const done = await step('Committing…', () => api.invoke('parallel.commit', { ...ids, message }))
    if (!done) return
    setSaid(`Committed ${done.commit.slice(0, 8)} on ${session.branch}.`)
    setMessage('')
    onChanged()
  }
  const openPr = async () => {
    const [title, ...body] = message.trim().split('\n')
    const done = await step('Opening a pull request…', () => api.invoke('parallel.openPr', { ...ids, title: title || session.branch, body: body.join('\n').trim() }))
    if (done) setSaid(`Pull request: ${done.url}`)
  }

  return (
    <section className="parallel-actions" aria-label={`Actions of ${session.name}`}>
      <p className="status" role="status">
        {busy ?? said ?? ''}
      </p>
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
      <div className="parallel-actions__row">
        <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void previewUpdate()}>
          Update from base…
        </button>
      </div>
      {update && <UpdatePreview update={update} disabled={busy !== null} onRun={(mode) => void runUpdate(mode)} onCancel={() => setUpdate(null)} />}
      <label className="parallel-actions__message">
        Commit message
        <textarea value={message} rows={3} onChange={(event) => setMessage(event.target.value)} placeholder="Draft one, or write your own" />
      </label>
      <div className="parallel-actions__row">
        <button type="button" className="button button--small" disabled={busy !== null} onClick={() => void draft()}>
          Draft a message
        </button>
        <button type="button" className="button button--small" disabled={busy !== null || !message.trim()} onClick={() => void commit()}>
          Commit in {session.name}
        </button>
        <button type="button" className="button button--small" disabled={busy !== null || !pr?.available} title={pr?.reason} aria-describedby={pr?.available ? undefined : `pr-why-${session.sessionId}`} onClick={() => void openPr()}>
          Open PR
        </button>
        {pr && !pr.available && (
          <small id={`pr-why-${session.sessionId}`} className="parallel-actions__why">
            {pr.reason}
          </small>
        )}
      </div>
    </section>
  )
}

/** The update as a diff of the worktree's files before and after, then merge or rebase. */
function UpdatePreview({ update, disabled, onRun, onCancel }: { update: UpdatePreviewRow; disabled: boolean; onRun(mode: 'merge' | 'rebase'): void; onCancel(): void }) {
  if (update.upToDate) return <p className="parallel-actions__note">This worktree already has everything of the base.</p>
  const patch = update.files.map((file) => createTwoFilesPatch(`a/${file.path}`, `b/${file.path}`, file.before ?? '', file.after ?? '', undefined, undefined, { context: 2 })).join('\n')
  return (
    <div className="parallel-update" role="group" aria-label="Update from base preview">
      <p>
        Taking the base ({update.baseHead.slice(0, 8)}) in changes {update.files.length} file{update.files.length === 1 ? '' : 's'}
        {update.conflicts.length > 0 && `; it would conflict in ${update.conflicts.join(', ')}, so it is refused here`}.
      </p>
      <pre className="parallel-update__diff" aria-label="What the update changes">
        {patch}
      </pre>
      <button type="button" className="button button--small" disabled={disabled || update.conflicts.length > 0} onClick={() => onRun('merge')}>
        Merge the base in
      </button>
      <button type="button" className="button button--small" disabled={disabled || update.conflicts.length > 0 || update.dirty} title={update.dirty ? 'Commit the worktree first: a rebase needs no uncommitted changes.' : undefined} onClick={() => onRun('rebase')}>
        Rebase onto the base
      </button>
      <button type="button" className="button button--small button--quiet" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
