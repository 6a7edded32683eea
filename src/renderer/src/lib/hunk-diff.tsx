import type { ReactNode, RefObject } from 'react'
import { createPortal } from 'react-dom'
import type * as MonacoApi from 'monaco-editor/editor/editor.api'
import { describeHunk, type Hunk, type HunkDecision } from '../../../shared/edit-review'
import type { DiffStyle } from './DiffOptions'

/**
 * The per-hunk Monaco diff that approvals and the rewind preview share: the left side read-only,
 * the right side the text that will be written, a bar of accept/reject buttons above each hunk
 * (portalled into view zones by the caller) and the same buttons in a list beside it.
 */

type Monaco = typeof MonacoApi

/** What the mounted diff editor exposes to the component. */
export interface DiffHandle {
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
 * The diff editor's area: the element Monaco mounts in (`host`), "Loading the diff…" until it is
 * mounted, why it could not load, and each hunk's bar portalled into its view zone.
 */
export function DiffArea(props: { host: RefObject<HTMLDivElement | null>; label: string; className?: string; handle: DiffHandle | undefined; failed: string | undefined; bar(index: number): ReactNode }) {
  const { host, label, className, handle, failed, bar } = props
  return (
    <>
      <div className={`edit-approval__editor${className ? ` ${className}` : ''}`} ref={host} aria-label={label}>
        {!handle && !failed && <p className="edit-approval__loading">Loading the diff…</p>}
      </div>
      {failed && (
        <p className="pane__error" role="alert">
          {failed}
        </p>
      )}
      {handle?.zones.map((zone, index) => createPortal(bar(index), zone, `zone-${index}`))}
    </>
  )
}

/** What the two buttons say; approvals: ✓ Accept / ✕ Reject. */
export interface HunkWords {
  accept: string
  reject: string
}

const APPROVAL_WORDS: HunkWords = { accept: 'Accept', reject: 'Reject' }

/**
 * Accept/reject buttons of one hunk, named "Accept hunk 2" (or with `words` and `subject`:
 * "Restore hunk 2 of a.txt").
 */
export function HunkButtons(props: { hunk: Hunk; decision: HunkDecision | undefined; disabled: boolean; onChoose(index: number, d: HunkDecision): void; compact?: boolean; words?: HunkWords; subject?: string }) {
  const { hunk, decision, disabled, onChoose, compact, words = APPROVAL_WORDS, subject } = props
  const name = `hunk ${hunk.index + 1}${subject ? ` of ${subject}` : ''}`
  return (
    <span className={`hunk-buttons${compact ? ' hunk-buttons--zone' : ''}`} data-decision={decision ?? 'open'} title={describeHunk(hunk)}>
      <button type="button" className="button button--small" aria-pressed={decision === 'accepted'} aria-label={`${words.accept} ${name}`} disabled={disabled} onClick={() => onChoose(hunk.index, 'accepted')}>
        ✓ {words.accept}
      </button>
      <button type="button" className="button button--small" aria-pressed={decision === 'rejected'} aria-label={`${words.reject} ${name}`} disabled={disabled} onClick={() => onChoose(hunk.index, 'rejected')}>
        ✕ {words.reject}
      </button>
    </span>
  )
}

/**
 * The list beside the diff: each hunk's summary (a link that scrolls the diff to it) and its
 * buttons. A hunk with no decision yet shows `fallback` (undefined: open).
 */
export function HunkList(props: {
  label: string
  hunks: readonly Hunk[]
  decisions: ReadonlyArray<HunkDecision | undefined>
  fallback?: HunkDecision
  disabled: boolean
  onChoose(index: number, d: HunkDecision): void
  onReveal(index: number): void
  words?: HunkWords
  subject?: string
}) {
  const { label, hunks, decisions, fallback, disabled, onChoose, onReveal, words, subject } = props
  return (
    <ol className="edit-approval__hunks" aria-label={label}>
      {hunks.map((hunk) => (
        <li key={hunk.index}>
          <button type="button" className="link" onClick={() => onReveal(hunk.index)}>
            {describeHunk(hunk)}
          </button>
          <HunkButtons hunk={hunk} decision={decisions[hunk.index] ?? fallback} disabled={disabled} onChoose={onChoose} {...(words && { words })} {...(subject !== undefined && { subject })} />
        </li>
      ))}
    </ol>
  )
}

/** Creates the diff editor, tracks each hunk in the proposed side and draws a bar above it. */
export function mountDiff(monaco: Monaco, element: HTMLElement, filePath: string, before: string, after: string, hunks: Hunk[], language: string, options: { readOnly?: boolean; scheme?: string; style?: DiffStyle } = {}): DiffHandle {
  const uri = (side: string) => monaco.Uri.from({ scheme: options.scheme ?? 'sous-approval', path: `/${side}/${crypto.randomUUID()}${filePath.startsWith('/') ? '' : '/'}${filePath}` })
  const original = monaco.editor.createModel(before, language, uri('before'))
  const modified = monaco.editor.createModel(after, language, uri('proposed'))
  const diff = monaco.editor.createDiffEditor(element, {
    automaticLayout: true,
    originalEditable: false,
    readOnly: options.readOnly ?? false,
    ...diffOptions(options.style ?? { inline: false, wrap: false }),
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
