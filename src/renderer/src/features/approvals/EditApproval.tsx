import { useEffect, useMemo, useRef, useState } from 'react'
import { reviewChange, type HunkDecision } from '../../../../shared/edit-review'
import type { RequestInput } from '../../../../shared/ipc/contract'
import { decide, decideAll, editReply, tally, type Decisions } from './hunks'
import { DiffArea, HunkButtons, HunkList, mountDiff, type DiffHandle } from '../../lib/hunk-diff'
import { languageFor, loadMonaco } from '../../lib/monaco'
import { RejectReason } from './RejectReason'
import { DiffOptions } from '../../lib/DiffOptions'
import { setDiffLayout, useLayout } from '../../state/layout'

interface EditApprovalProps {
  id: string
  filePath: string
  before: string
  after: string
  busy: boolean
  onReply(input: RequestInput<'approval.reply'>): void
}

/**
 * An Edit/Write waiting for approval, side by side in Monaco: the file before, the proposal on the
 * right (editable). Each hunk has its own accept/reject; Apply sends exactly the right side's text.
 * Contract: the editor never takes focus by itself, so nothing typed elsewhere lands in it.
 */
export function EditApproval({ id, filePath, before, after, busy, onReply }: EditApprovalProps) {
  const review = useMemo(() => reviewChange(before, after), [before, after])
  const total = review.hunks.length
  const [decisions, setDecisions] = useState<Decisions>([])
  const [message, setMessage] = useState('')
  const [failed, setFailed] = useState<string>()
  const [handle, setHandle] = useState<DiffHandle>()
  const host = useRef<HTMLDivElement>(null)
  // Inline or side by side, wrapped or not: the window's one choice for every diff (remembered).
  const style = useLayout((state) => state.diff)
  const initialStyle = useRef(style)
  useEffect(() => handle?.setStyle(style), [handle, style])

  useEffect(() => {
    let disposed = false
    let mounted: DiffHandle | undefined
    // Marks for bench/ui.bench.ts: open → first paint → computed diff (hunks actionable).
    performance.mark('sous:diff:open')
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return
        mounted = mountDiff(monaco, host.current, filePath, before, after, review.hunks, languageFor(monaco, filePath), { style: initialStyle.current })
        setHandle(mounted)
        requestAnimationFrame(() => performance.mark('sous:diff:painted'))
      })
      .catch((error: unknown) => setFailed(`The diff view could not load: ${String(error)}`))
    return () => {
      disposed = true
      mounted?.dispose()
    }
  }, [filePath, before, after, review])

  // The editor text changes only when a hunk flips between proposed and original, so accepting a
  // hunk the user has edited keeps the user's edit.
  const choose = (index: number, decision: HunkDecision) => {
    if (decision === 'rejected' || decisions[index] === 'rejected') handle?.setHunk(index, decision)
    setDecisions((current) => decide(current, index, decision, total))
  }
  const acceptAll = () => {
    review.hunks.forEach((h) => decisions[h.index] === 'rejected' && handle?.setHunk(h.index, 'accepted'))
    const all = decideAll(total, 'accepted')
    setDecisions(all)
    if (handle) onReply(editReply(id, review, before, handle.text(), all, message))
  }
  const apply = () => handle && onReply(editReply(id, review, before, handle.text(), decisions, message))
  const rejectAll = () => onReply(editReply(id, review, before, before, decideAll(total, 'rejected'), message))
  const counts = tally(decisions, total)

  return (
    <div className="edit-approval" data-testid="edit-approval">
      <div className="edit-approval__toolbar">
        <span className="edit-approval__counts" aria-live="polite">
          {total} {total === 1 ? 'hunk' : 'hunks'} · {counts.accepted} accepted · {counts.rejected} rejected · {counts.open} open
        </span>
        <DiffOptions label="Approval diff options" value={style} onChange={setDiffLayout} />
        <HunkList label="Hunks" hunks={review.hunks} decisions={decisions} disabled={busy || !handle} onChoose={choose} onReveal={(index) => handle?.reveal(index)} />
      </div>
      <DiffArea
        host={host}
        label={`Proposed change to ${filePath}`}
        handle={handle}
        failed={failed}
        bar={(index) => <HunkButtons hunk={review.hunks[index]!} decision={decisions[index]} disabled={busy} onChoose={choose} compact />}
      />
      <div className="approval__actions">
        <RejectReason value={message} onChange={setMessage} />
        <button type="button" className="button" data-approval-action="reject" disabled={busy} onClick={rejectAll}>
          Reject all
        </button>
        <button type="button" className="button" disabled={busy || !handle} onClick={apply} title="Write the right side as it now reads">
          Apply{counts.rejected > 0 || counts.accepted > 0 ? ` (${total - counts.rejected} of ${total})` : ''}
        </button>
        <button type="button" className="button button--primary" data-approval-action="approve" disabled={busy || !handle} onClick={acceptAll}>
          Accept all
        </button>
      </div>
    </div>
  )
}
