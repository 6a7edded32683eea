import { useEffect, useMemo, useState } from 'react'
import type { HunkDecision } from '../../../../shared/edit-review'
import type { CheckpointRow, PreviewFile } from '../../../../shared/ipc/contract'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { countChoices, initialChoices, restoreRequest, reviewOf, type PreviewChoices } from './choices'
import { RewindFileDiff } from './RewindFileDiff'
import { describeRestore, useRewind } from './store'
import './rewind.css'

type Mode = 'both' | 'code' | 'conversation'

const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'both', label: 'Code and conversation' },
  { mode: 'code', label: 'Code only' },
  { mode: 'conversation', label: 'Conversation only' },
]

const CHANGE_LABEL: Record<PreviewFile['change'], string> = { restore: 'restored', create: 'brought back', delete: 'deleted (new since)' }

/**
 * The rewind picker: the session's checkpoints (newest first), and for the one chosen what a
 * restore would change — each file with a checkbox, its hunks in the approvals' per-hunk Monaco
 * view, conflicts (files changed since by someone else) listed and kept unless ticked — and
 * whether to restore the code, the conversation or both. Or, from "Fork from here", a new
 * session whose conversation ends there. Nothing is written before the user says so.
 */
export function RewindDialog({ onConversationRewound, onForked }: { onConversationRewound(sessionId: string): void; onForked(sessionId: string): void }) {
  const { sessionId, intent, checkpoints, selected, preview, loading, error, close, select, restore, fork } = useRewind()
  const [mode, setMode] = useState<Mode>('both')
  const [choices, setChoices] = useState<PreviewChoices>({ chosen: {}, decisions: {} })
  const [shown, setShown] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const files = useMemo(() => preview?.files ?? [], [preview])
  useEffect(() => {
    setChoices(initialChoices(files))
    setShown(files.find((file) => file.current !== undefined)?.path ?? null)
    setDone(null)
  }, [files])
  if (!sessionId) return null

  const shownFile = files.find((file) => file.path === shown)
  const review = shownFile ? reviewOf(shownFile) : undefined
  const counts = countChoices(files, choices)
  const conflicts = files.filter((file) => file.conflict)
  const toggle = (path: string, on: boolean) => setChoices((now) => ({ ...now, chosen: { ...now.chosen, [path]: on } }))
  const chooseHunk = (path: string, index: number, decision: HunkDecision) =>
    setChoices((now) => {
      const next = [...(now.decisions[path] ?? [])]
      next[index] = decision
      return { ...now, decisions: { ...now.decisions, [path]: next } }
    })

  const onRestore = async () => {
    const request = mode === 'conversation' ? {} : restoreRequest(files, choices)
    const outcome = await restore({ mode, ...request })
    if (!outcome) return
    setDone(describeRestore(outcome, mode))
    if (mode !== 'code') onConversationRewound(sessionId)
  }
  const onFork = async () => {
    const forked = await fork()
    if (!forked) return
    close()
    onForked(forked)
  }
  const title = intent === 'fork' ? 'Fork from a checkpoint' : 'Rewind to a checkpoint'

  return (
    <Dialog label={title} className="dialog rewind-dialog" onClose={close} initialFocus=".rewind-list [aria-current='true']">
      <DialogHeader title={title} onClose={close}>
        <span className="status" role="status">
          {loading ? 'Working…' : ''}
        </span>
      </DialogHeader>
      <div className="rewind-dialog__body">
        <CheckpointList checkpoints={checkpoints} selected={selected} onSelect={(id) => void select(id)} />
        <section className="rewind-preview" aria-label="What changes">
          {error && (
            <p className="pane__error" role="alert">
              {error}
            </p>
          )}
          {done && (
            <p className="rewind-preview__done" role="status">
              {done}
            </p>
          )}
          {intent === 'fork' && selected && (
            <p className="rewind-preview__note">A new session starts with the conversation up to this checkpoint; this session stays as it is, and no file changes.</p>
          )}
          {intent === 'rewind' && preview && (
            <>
              <fieldset className="rewind-preview__modes">
                <legend>Restore</legend>
                {MODES.map((option) => (
                  <label key={option.mode}>
                    <input type="radio" name="rewind-mode" checked={mode === option.mode} onChange={() => setMode(option.mode)} /> {option.label}
                  </label>
                ))}
              </fieldset>
              {mode !== 'conversation' && (
                <FileChoices files={files} choices={choices} shown={shown} onShow={setShown} onToggle={toggle} />
              )}
              {mode !== 'conversation' && conflicts.length > 0 && (
                <p className="rewind-preview__conflicts">
                  {conflicts.length} file{conflicts.length === 1 ? ' was' : 's were'} changed since by someone other than the agent and {conflicts.length === 1 ? 'is' : 'are'} kept unless ticked.
                </p>
              )}
              {mode !== 'conversation' && preview.skipped.length > 0 && (
                <ul className="rewind-preview__skipped" aria-label="Left alone">
                  {preview.skipped.map((item) => (
                    <li key={item.path}>
                      {item.path}: {item.why}
                    </li>
                  ))}
                </ul>
              )}
              {mode !== 'conversation' && shownFile && review && (
                <RewindFileDiff
                  key={shownFile.path}
                  path={shownFile.path}
                  current={shownFile.current!}
                  target={shownFile.target!}
                  review={review}
                  decisions={choices.decisions[shownFile.path] ?? []}
                  disabled={loading || !choices.chosen[shownFile.path]}
                  onChoose={(index, decision) => chooseHunk(shownFile.path, index, decision)}
                />
              )}
            </>
          )}
        </section>
      </div>
      <footer className="approval__actions rewind-dialog__actions">
        <button type="button" className="button" onClick={close}>
          {done ? 'Close' : 'Cancel'}
        </button>
        {intent === 'fork' ? (
          <button type="button" className="button button--primary" disabled={loading || !selected} onClick={() => void onFork()}>
            Fork a new session here
          </button>
        ) : (
          <button type="button" className="button button--primary" disabled={loading || !preview || done !== null} onClick={() => void onRestore()}>
            {mode === 'conversation' ? 'Rewind the conversation' : `Restore ${counts.files} file${counts.files === 1 ? '' : 's'}${mode === 'both' ? ' and the conversation' : ''}${counts.keptHunks > 0 ? ` (keeping ${counts.keptHunks} hunk${counts.keptHunks === 1 ? '' : 's'})` : ''}`}
          </button>
        )}
      </footer>
    </Dialog>
  )
}

/** The checkpoints, newest first; a prompt's checkpoint reads as its turn. */
function CheckpointList({ checkpoints, selected, onSelect }: { checkpoints: readonly CheckpointRow[]; selected: string | null; onSelect(id: string): void }) {
  if (checkpoints.length === 0) return <p className="rewind-list rewind-list--empty">No checkpoints yet: one is taken at every prompt and before every change.</p>
  return (
    <ol className="rewind-list" aria-label="Checkpoints">
      {[...checkpoints].reverse().map((checkpoint) => (
        <li key={checkpoint.id}>
          <button
            type="button"
            className={`rewind-list__item${checkpoint.kind === 'prompt' ? ' rewind-list__item--prompt' : ''}`}
            aria-current={checkpoint.id === selected ? 'true' : undefined}
            onClick={() => onSelect(checkpoint.id)}
            title={checkpoint.missing ? `Cannot restore code: ${checkpoint.missing}` : checkpoint.changed.join('\n')}
          >
            <span className="rewind-list__what">
              {checkpoint.kind === 'prompt' ? `Before turn ${checkpoint.turn}: ${checkpoint.followedBy.replace(/^prompt: /, '')}` : `Before ${checkpoint.followedBy}`}
            </span>
            <span className="rewind-list__meta">
              {new Date(checkpoint.at).toLocaleTimeString()}
              {checkpoint.changed.length > 0 && ` · ${checkpoint.changed.length} file${checkpoint.changed.length === 1 ? '' : 's'} changed before it`}
              {checkpoint.missing && ' · no snapshot'}
            </span>
          </button>
        </li>
      ))}
    </ol>
  )
}

/** Each file a restore would change, ticked to restore it; conflicts start unticked (kept). */
function FileChoices(props: { files: readonly PreviewFile[]; choices: PreviewChoices; shown: string | null; onShow(path: string): void; onToggle(path: string, on: boolean): void }) {
  const { files, choices, shown, onShow, onToggle } = props
  if (files.length === 0) return <p className="rewind-preview__note">The files are as they were at this checkpoint: only the conversation would change.</p>
  return (
    <ul className="rewind-files" aria-label="Files to restore">
      {files.map((file) => (
        <li key={file.path} className={file.conflict ? 'rewind-files__conflict' : undefined}>
          <label>
            <input type="checkbox" checked={choices.chosen[file.path] === true} onChange={(event) => onToggle(file.path, event.target.checked)} aria-label={`${file.conflict ? 'Overwrite' : 'Restore'} ${file.path}`} />{' '}
            {file.path}
          </label>
          <span className="rewind-files__change">
            {' '}
            {CHANGE_LABEL[file.change]}
            {file.conflict && ' · changed since by someone else: kept unless ticked'}
          </span>
          {file.current !== undefined && (
            <button type="button" className="button button--small" aria-pressed={shown === file.path} aria-label={`Show the diff of ${file.path}`} onClick={() => onShow(file.path)}>
              Diff
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}
