import { useState } from 'react'
import type { MergeConflictRow, MergePlanRow, ParallelRun, RequestOutput } from '../../../../shared/ipc/contract'

type Plan = RequestOutput<'parallel.plan'>

const ACTION: Record<MergePlanRow['action'], string> = { write: 'changed', copy: 'copied whole', delete: 'deleted', none: 'unchanged' }

/**
 * The merge into the base checkout: how many hunks are picked, the preview (what each file of the
 * base would become; nothing changes before Apply), each conflict with its three-way preview and
 * a resolution the user writes, the files with the user's uncommitted changes to confirm, Apply.
 */
export function MergePanel(props: {
  run: ParallelRun
  picked: number
  plan: Plan | null
  resolutions: Readonly<Record<string, string>>
  confirmDirty: readonly string[]
  busy: boolean
  onPreview(): void
  onResolve(path: string, text: string | undefined): void
  onConfirm(path: string, on: boolean): void
  onApply(): void
}) {
  const { run, picked, plan, resolutions, confirmDirty, busy, onPreview, onResolve, onConfirm, onApply } = props
  const name = (sessionId: string) => run.sessions.find((session) => session.sessionId === sessionId)?.name ?? sessionId
  const held = plan?.files.reduce((sum, file) => sum + (file.resolved ? 0 : file.conflicts.length), 0) ?? 0
  const unconfirmed = plan?.files.filter((file) => file.dirty && file.action !== 'none' && !confirmDirty.includes(file.path)) ?? []
  const changes = plan?.files.filter((file) => file.action !== 'none').length ?? 0
  return (
    <section className="parallel-merge" aria-label="Merge into the base">
      <div className="parallel-merge__bar">
        <span>
          {picked} hunk{picked === 1 ? '' : 's'} picked
        </span>
        <button type="button" className="button button--small" disabled={busy || picked === 0} onClick={onPreview}>
          Preview the merge
        </button>
        <button type="button" className="button button--primary" disabled={busy || !plan || changes === 0 || unconfirmed.length > 0 || plan.refused.length > 0} onClick={onApply}>
          Apply {changes} file{changes === 1 ? '' : 's'} to the base
        </button>
      </div>
      {!plan && picked > 0 && <p className="parallel-merge__note">Nothing in the base changes until Apply: preview the merge first.</p>}
      {plan && (
        <>
          {plan.refused.length > 0 && (
            <ul className="pane__error" aria-label="Picks refused">
              {plan.refused.map((entry) => (
                <li key={`${entry.sessionId}\0${entry.path}`}>
                  {entry.path} from {name(entry.sessionId)}: {entry.why}
                </li>
              ))}
            </ul>
          )}
          {held > 0 && (
            <p className="parallel-merge__held" role="note">
              {held} conflicting hunk{held === 1 ? ' is' : 's are'} not applied until resolved.
            </p>
          )}
          <ul className="parallel-merge__files" aria-label="What Apply writes">
            {plan.files.map((file) => (
              <li key={file.path}>
                <span className="parallel-merge__path">{file.path}</span> · {ACTION[file.action]}
                {file.resolved && ' · your resolution'}
                {file.dirty && file.action !== 'none' && (
                  <label className="parallel-merge__dirty">
                    <input type="checkbox" checked={confirmDirty.includes(file.path)} onChange={(event) => onConfirm(file.path, event.target.checked)} /> Overwrite my uncommitted changes in {file.path}
                  </label>
                )}
                {file.conflicts.length > 0 && <Conflicts file={file} name={name} resolution={resolutions[file.path]} onResolve={(text) => onResolve(file.path, text)} />}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

/** Says what a conflict collides with. */
function describeConflict(conflict: MergeConflictRow, name: (sessionId: string) => string): string {
  const hunk = conflict.hunk === 'all' ? 'the whole file' : `hunk ${conflict.hunk + 1}`
  return `${hunk} from ${name(conflict.sessionId)}: ${conflict.why}`
}

/** A file's conflicts: each listed, the three-way preview, and the resolution the user writes (git's merge with markers to start from). */
function Conflicts({ file, name, resolution, onResolve }: { file: MergePlanRow; name(sessionId: string): string; resolution: string | undefined; onResolve(text: string | undefined): void }) {
  const three = file.preview[0]
  const [text, setText] = useState(resolution ?? three?.merged ?? '')
  return (
    <div className="parallel-conflict" role="group" aria-label={`Conflicts in ${file.path}`}>
      <ul>
        {file.conflicts.map((conflict) => (
          <li key={`${conflict.sessionId}\0${conflict.hunk}`}>{describeConflict(conflict, name)}</li>
        ))}
      </ul>
      {file.preview.map((view) => (
        <div key={view.sessionId} className="parallel-three" role="group" aria-label={`Three-way preview of ${file.path} with ${name(view.sessionId)}`}>
          <figure>
            <figcaption>Fork point</figcaption>
            <pre aria-label={`${file.path} at the fork point`}>{view.base}</pre>
          </figure>
          <figure>
            <figcaption>Base (with the other picks)</figcaption>
            <pre aria-label={`${file.path} in the base`}>{view.ours}</pre>
          </figure>
          <figure>
            <figcaption>{name(view.sessionId)}</figcaption>
            <pre aria-label={`${file.path} in ${name(view.sessionId)}`}>{view.theirs}</pre>
          </figure>
        </div>
      ))}
      {three && (
        <div className="parallel-conflict__resolve">
          <label>
            Resolution of {file.path}
            <textarea value={text} rows={10} spellCheck={false} onChange={(event) => setText(event.target.value)} />
          </label>
          <button type="button" className="button button--small" onClick={() => onResolve(text)}>
            Use this resolution
          </button>
          {resolution !== undefined && (
            <button type="button" className="button button--small button--quiet" onClick={() => onResolve(undefined)}>
              Drop my resolution
            </button>
          )}
        </div>
      )}
    </div>
  )
}
