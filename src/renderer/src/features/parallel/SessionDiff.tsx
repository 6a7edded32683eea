import { useEffect, useMemo, useRef, useState } from 'react'
import { reviewChange, type HunkDecision } from '../../../../shared/edit-review'
import type { SessionFileDiff } from '../../../../shared/ipc/contract'
import { DiffArea, HunkButtons, HunkList, mountDiff, type DiffHandle, type HunkWords } from '../../lib/hunk-diff'
import { DiffOptions } from '../../lib/DiffOptions'
import { languageFor, loadMonaco } from '../../lib/monaco'
import { setDiffLayout, useLayout } from '../../state/layout'
import type { FilePick } from './picks'

const WORDS: HunkWords = { accept: 'Pick', reject: 'Skip' }

/**
 * One session's file in the approvals' per-hunk Monaco view: the file at the session's fork point
 * on the left, what picking takes on the right (read-only). Each hunk is picked or skipped
 * (skipped until picked); a binary file, a deletion or a very large file is picked whole.
 */
export function SessionDiff(props: { diff: SessionFileDiff; session: string; pick: FilePick | undefined; disabled: boolean; onHunk(index: number, decision: HunkDecision): void; onFile(pick: FilePick | undefined): void }) {
  const { diff, session, pick, disabled, onHunk, onFile } = props
  const host = useRef<HTMLDivElement>(null)
  const [handle, setHandle] = useState<DiffHandle>()
  const [failed, setFailed] = useState<string>()
  const whole = diff.whole || diff.change === 'deleted' || diff.unsupported !== undefined
  const review = useMemo(() => (whole ? undefined : reviewChange(diff.before ?? '', diff.after ?? '')), [diff, whole])
  const decisions = pick === 'all' ? (review?.hunks.map(() => 'accepted' as const) ?? []) : (pick ?? [])
  const initial = useRef(decisions)
  initial.current = decisions
  const style = useLayout((state) => state.diff)
  const initialStyle = useRef(style)
  useEffect(() => handle?.setStyle(style), [handle, style])

  useEffect(() => {
    if (!review) return
    let disposed = false
    let mounted: DiffHandle | undefined
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return
        mounted = mountDiff(monaco, host.current, diff.path, diff.before ?? '', diff.after ?? '', review.hunks, languageFor(monaco, diff.path), { readOnly: true, scheme: 'sous-parallel', style: initialStyle.current })
        review.hunks.forEach((hunk) => initial.current[hunk.index] !== 'accepted' && mounted?.setHunk(hunk.index, 'rejected'))
        setHandle(mounted)
      })
      .catch((error: unknown) => setFailed(`The diff view could not load: ${String(error)}`))
    return () => {
      disposed = true
      mounted?.dispose()
      setHandle(undefined)
    }
  }, [diff, review])

  const choose = (index: number, decision: HunkDecision) => {
    handle?.setHunk(index, decision)
    onHunk(index, decision)
  }
  const subject = `${diff.path} from ${session}`
  const allPicked = pick === 'all' || (review !== undefined && review.hunks.length > 0 && review.hunks.every((hunk) => decisions[hunk.index] === 'accepted'))

  return (
    <section className="parallel-diff edit-approval" aria-label={`Diff of ${diff.path} in ${session}`} data-testid="parallel-diff">
      <div className="parallel-diff__bar">
        <label>
          <input
            type="checkbox"
            checked={allPicked}
            disabled={disabled || diff.unsupported !== undefined}
            onChange={(event) => {
              review?.hunks.forEach((hunk) => handle?.setHunk(hunk.index, event.target.checked ? 'accepted' : 'rejected'))
              // A text file picked whole is every hunk picked (each can still be skipped); other files go whole.
              const on = event.target.checked
              onFile(!on ? undefined : review ? review.hunks.map(() => 'accepted' as const) : 'all')
            }}
          />{' '}
          Pick the whole file {diff.path} from {session}
        </label>
        {diff.unsupported && <span className="parallel-diff__note">Not merged here: {diff.unsupported}</span>}
        {whole && !diff.unsupported && <span className="parallel-diff__note">{diff.change === 'deleted' ? 'Deleted in this session: picked whole.' : 'Binary or very large: picked whole.'}</span>}
        {review && <DiffOptions label={`Diff options of ${diff.path}`} value={style} onChange={setDiffLayout} />}
      </div>
      {review && (
        <>
          <HunkList label={`Hunks of ${diff.path} in ${session}`} hunks={review.hunks} decisions={decisions} fallback="rejected" disabled={disabled || !handle} onChoose={choose} onReveal={(index) => handle?.reveal(index)} words={WORDS} subject={subject} />
          <DiffArea
            host={host}
            label={`What picking from ${diff.path} in ${session} takes`}
            className="parallel-diff__editor"
            handle={handle}
            failed={failed}
            bar={(index) => <HunkButtons hunk={review.hunks[index]!} decision={decisions[index] ?? 'rejected'} disabled={disabled} onChoose={choose} compact words={WORDS} subject={`${subject} (in the diff)`} />}
          />
        </>
      )}
    </section>
  )
}
