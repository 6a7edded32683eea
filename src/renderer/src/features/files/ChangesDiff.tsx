import type { FileChange } from '../../../../shared/ipc/contract'
import { DiffOptions } from '../../lib/DiffOptions'
import { setDiffLayout, useLayout } from '../../state/layout'
import { diffLineKind } from './changes'
import { sideBySide, type SideCell } from './side-by-side'

/**
 * The session's combined diff: each changed file's patch, inline (one column) or side by side,
 * long lines wrapped or scrolled: the same choice as every other diff in the window.
 */
export function ChangesDiff({ changes }: { changes: readonly FileChange[] | undefined }) {
  const style = useLayout((state) => state.diff)
  return (
    <>
      <div className="viewer__toolbar">
        <DiffOptions label="Changes diff options" value={style} onChange={setDiffLayout} />
      </div>
      <div className="viewer__diff" role="document" aria-label="Combined diff" data-wrap={style.wrap || undefined}>
        {(changes ?? []).map((change) =>
          style.inline ? (
            <pre key={change.path} className="diff">
              {change.patch.split('\n').map((line, i) => (
                <span key={i} className={`diff__line diff__line--${diffLineKind(line)}`}>
                  {line}
                  {'\n'}
                </span>
              ))}
            </pre>
          ) : (
            <div key={change.path} className="diff diff--split" role="table" aria-label={`${change.path} side by side`}>
              {sideBySide(change.patch).map((row, i) =>
                row.kind === 'pair' ? (
                  <div key={i} className="diff__row" role="row">
                    <Cell cell={row.left} side="before" />
                    <Cell cell={row.right} side="after" />
                  </div>
                ) : (
                  <div key={i} className={`diff__line diff__line--${row.kind} diff__row--full`} role="row">
                    <span role="cell">{row.text}</span>
                  </div>
                ),
              )}
            </div>
          ),
        )}
        {changes?.length === 0 && <p className="viewer__note">The agent has not changed any file in this session.</p>}
      </div>
    </>
  )
}

function Cell({ cell, side }: { cell: SideCell | undefined; side: 'before' | 'after' }) {
  return (
    <span role="cell" className={`diff__line diff__cell diff__cell--${side}${cell ? ` diff__line--${cell.kind}` : ' diff__cell--blank'}`}>
      {cell?.text ?? ''}
    </span>
  )
}
