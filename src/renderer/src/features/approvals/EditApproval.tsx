import { useEffect, useMemo, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { describeHunk, reviewChange, type Hunk, type HunkDecision } from '../../../../shared/edit-review'
import type { RequestInput } from '../../../../shared/ipc/contract'
import { decide, decideAll, editReply, tally, type Decisions } from './hunks'
import { languageFor, loadMonaco } from '../../lib/monaco'
import type * as MonacoApi from 'monaco-editor/editor/editor.api'
import { RejectReason } from './RejectReason'
import { DiffOptions, type DiffStyle } from '../../lib/DiffOptions'
import { setDiffLayout, useLayout } from '../../state/layout'

type Monaco = typeof MonacoApi

interface EditApprovalProps {
  id: string
  filePath: string
  before: string
  after: string
  busy: boolean
  onReply(input: RequestInput<'approval.reply'>): void
}

/** What the mounted diff editor exposes to the component. */
interface DiffHandle {
  /** Puts hunk `index` in the proposed side as proposed (`accepted`) or as the original (`rejected`). */
  setHunk(index: number, decision: HunkDecision): void
  /** The proposed side as it reads now (with the user's edits). */
  text(): string
  reveal(index: number): void
  /** Redraws inline or side by side, wrapped or not. */
  setStyle(style: DiffStyle): void
  /** Where each hunk's bar is drawn (view zones above the hunks, in the proposed side). */
  zones: HTMLElement[]
  dispose(): void
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
        mounted = mountDiff(monaco, host.current, filePath, before, after, review.hunks, languageFor(monaco, filePath), initialStyle.current)
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
        <ol className="edit-approval__hunks" aria-label="Hunks">
          {review.hunks.map((hunk) => (
            <li key={hunk.index}>
              <button type="button" className="link" onClick={() => handle?.reveal(hunk.index)}>
                {describeHunk(hunk)}
              </button>
              <HunkButtons hunk={hunk} decision={decisions[hunk.index]} disabled={busy || !handle} onChoose={choose} />
            </li>
          ))}
        </ol>
      </div>
      <div className="edit-approval__editor" ref={host} aria-label={`Proposed change to ${filePath}`}>
        {!handle && !failed && <p className="edit-approval__loading">Loading the diff…</p>}
      </div>
      {failed && (
        <p className="pane__error" role="alert">
          {failed}
        </p>
      )}
      {handle?.zones.map((zone, index) =>
        createPortal(
          <HunkButtons hunk={review.hunks[index]!} decision={decisions[index]} disabled={busy} onChoose={choose} compact />,
          zone,
          `zone-${index}`,
        ),
      )}
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

function HunkButtons(props: { hunk: Hunk; decision: HunkDecision | undefined; disabled: boolean; onChoose(index: number, d: HunkDecision): void; compact?: boolean }) {
  const { hunk, decision, disabled, onChoose, compact } = props
  const name = `hunk ${hunk.index + 1}`
  return (
    <span className={`hunk-buttons${compact ? ' hunk-buttons--zone' : ''}`} data-decision={decision ?? 'open'} title={describeHunk(hunk)}>
      <button type="button" className="button button--small" aria-pressed={decision === 'accepted'} aria-label={`Accept ${name}`} disabled={disabled} onClick={() => onChoose(hunk.index, 'accepted')}>
        ✓ Accept
      </button>
      <button type="button" className="button button--small" aria-pressed={decision === 'rejected'} aria-label={`Reject ${name}`} disabled={disabled} onClick={() => onChoose(hunk.index, 'rejected')}>
        ✕ Reject
      </button>
    </span>
  )
}

/** Creates the diff editor, tracks each hunk in the proposed side and draws a bar above it. */
function mountDiff(monaco: Monaco, element: HTMLElement, filePath: string, before: string, after: string, hunks: Hunk[], language: string, style: DiffStyle): DiffHandle {
  const uri = (side: string) => monaco.Uri.from({ scheme: 'sous-approval', path: `/${side}/${crypto.randomUUID()}${filePath}` })
  const original = monaco.editor.createModel(before, language, uri('before'))
  const modified = monaco.editor.createModel(after, language, uri('proposed'))
  const diff = monaco.editor.createDiffEditor(element, {
    automaticLayout: true,
    originalEditable: false,
    readOnly: false,
    ...diffOptions(style),
    useInlineViewWhenSpaceIsLimited: false,
    renderMarginRevertIcon: false,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    // The shell sets data-theme from the user's preference; the system's when it has not yet.
    theme: (document.documentElement.dataset.theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')) === 'dark' ? 'vs-dark' : 'vs',
    fontSize: 13,
  })
  diff.setModel({ original, modified })
  const computed = diff.onDidUpdateDiff(() => {
    performance.mark('sous:diff:computed')
    computed.dispose()
  })
  const editor = diff.getModifiedEditor()

  // One tracked range per hunk: where its text sits in the proposed side, following the user's edits.
  let offset = 0
  const ranges: MonacoApi.editor.IModelDeltaDecoration[] = []
  let line = 1
  for (const hunk of hunks) {
    // Offsets of each hunk in `after`: walk the lines up to its first proposed line.
    while (line < hunk.afterLine) {
      offset = after.indexOf('\n', offset) + 1
      line++
    }
    const start = modified.getPositionAt(offset)
    const end = modified.getPositionAt(offset + hunk.added.length)
    ranges.push({
      range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
      options: { stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges },
    })
  }
  let ids = modified.deltaDecorations([], ranges)

  const zones: HTMLElement[] = []
  editor.changeViewZones((accessor) => {
    for (const hunk of hunks) {
      const node = document.createElement('div')
      node.className = 'hunk-zone'
      zones.push(node)
      accessor.addZone({ afterLineNumber: Math.max(hunk.afterLine - 1, 0), heightInPx: 28, domNode: node, suppressMouseDown: false })
    }
  })

  return {
    zones,
    setHunk(index, decision) {
      const hunk = hunks[index]
      const id = ids[index]
      const range = id ? modified.getDecorationRange(id) : null
      if (!hunk || !id || !range) return
      const replacement = decision === 'accepted' ? hunk.added : hunk.removed
      if (modified.getValueInRange(range) === replacement) return
      const at = modified.getOffsetAt(range.getStartPosition())
      modified.pushEditOperations([], [{ range, text: replacement }], () => null)
      const start = modified.getPositionAt(at)
      const end = modified.getPositionAt(at + replacement.length)
      const next = modified.deltaDecorations([id], [{ range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), options: { stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges } }])
      ids = ids.map((old, i) => (i === index ? next[0]! : old))
    },
    text: () => modified.getValue(),
    setStyle: (next) => diff.updateOptions(diffOptions(next)),
    reveal(index) {
      const range = ids[index] ? modified.getDecorationRange(ids[index]) : null
      if (range) editor.revealLineInCenter(range.startLineNumber)
    },
    dispose() {
      diff.dispose()
      original.dispose()
      modified.dispose()
    },
  }
}

/** Monaco's options for a diff style (wrap applies to both sides and to the inline view). */
function diffOptions(style: DiffStyle): MonacoApi.editor.IDiffEditorOptions {
  return { renderSideBySide: !style.inline, wordWrap: style.wrap ? 'on' : 'off', diffWordWrap: style.wrap ? 'on' : 'off' }
}
