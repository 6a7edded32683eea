import { useEffect, useRef, useState } from 'react'
import { type HunkDecision, type Review } from '../../../../shared/edit-review'
import { DiffArea, HunkButtons, HunkList, mountDiff, type DiffHandle, type HunkWords } from '../../lib/hunk-diff'
import { DiffOptions } from '../../lib/DiffOptions'
import { languageFor, loadMonaco } from '../../lib/monaco'
import { setDiffLayout, useLayout } from '../../state/layout'
import type { Decisions } from './choices'

const WORDS: HunkWords = { accept: 'Restore', reject: 'Keep' }

/**
 * One file of a restore preview in the approvals' per-hunk Monaco view: the file now on the
 * left, the file as the restore would write it on the right (read-only). Each hunk is restored
 * (the default) or kept as it is now; the right side follows the choices.
 */
export function RewindFileDiff(props: { path: string; current: string; target: string; review: Review; decisions: Decisions; disabled: boolean; onChoose(index: number, decision: HunkDecision): void }) {
  const { path, current, target, review, decisions, disabled, onChoose } = props
  const host = useRef<HTMLDivElement>(null)
  const [handle, setHandle] = useState<DiffHandle>()
  const [failed, setFailed] = useState<string>()
  // The choices made before this file's editor was mounted (the user looked at another file).
  const initial = useRef(decisions)
  initial.current = decisions
  // Inline or side by side, wrapped or not: the window's one choice for every diff (approvals share it).
  const style = useLayout((state) => state.diff)
  const initialStyle = useRef(style)
  useEffect(() => handle?.setStyle(style), [handle, style])

  useEffect(() => {
    let disposed = false
    let mounted: DiffHandle | undefined
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return
        mounted = mountDiff(monaco, host.current, path, current, target, review.hunks, languageFor(monaco, path), { readOnly: true, scheme: 'sous-rewind', style: initialStyle.current })
        initial.current.forEach((decision, index) => decision === 'rejected' && mounted?.setHunk(index, 'rejected'))
        setHandle(mounted)
      })
      .catch((error: unknown) => setFailed(`The diff view could not load: ${String(error)}`))
    return () => {
      disposed = true
      mounted?.dispose()
      setHandle(undefined)
    }
  }, [path, current, target, review])

  const choose = (index: number, decision: HunkDecision) => {
    handle?.setHunk(index, decision)
    onChoose(index, decision)
  }

  return (
    <div className="rewind-diff edit-approval" data-testid="rewind-diff">
      <DiffOptions label={`Diff options of ${path}`} value={style} onChange={setDiffLayout} />
      <HunkList label={`Hunks of ${path}`} hunks={review.hunks} decisions={decisions} fallback="accepted" disabled={disabled || !handle} onChoose={choose} onReveal={(index) => handle?.reveal(index)} words={WORDS} subject={path} />
      <DiffArea
        host={host}
        label={`What restoring ${path} writes`}
        className="rewind-diff__editor"
        handle={handle}
        failed={failed}
        bar={(index) => <HunkButtons hunk={review.hunks[index]!} decision={decisions[index] ?? 'accepted'} disabled={disabled} onChoose={choose} compact words={WORDS} subject={`${path} (in the diff)`} />}
      />
    </div>
  )
}
