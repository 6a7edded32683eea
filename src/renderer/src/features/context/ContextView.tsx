import { useEffect, useState } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { ContextBar } from './ContextBar'
import { CompactionHistory, NextCompaction, PartsTable } from './ContextTables'
import { percent, tokens } from './format'
import { useContextView } from './store'
import './context.css'

/**
 * The context view: what the session's next request will contain, sized in tokens against the
 * window and the compaction thresholds; what the next compaction would do; the compactions so far;
 * and `/compact` with instructions. Opened from the status bar's meter, the palette and `/context`.
 */
export function ContextView({ sessionId, onClose }: { sessionId: string | null; onClose(): void }) {
  const { breakdown, loading, error, compacting, load, compact, clear } = useContextView()
  const [instructions, setInstructions] = useState('')

  useEffect(() => {
    if (sessionId) void load(sessionId)
    else clear()
  }, [sessionId, load, clear])

  return (
    <Dialog label="Context" className="context-view" onClose={onClose} initialFocus="button">
      <DialogHeader title="Context" onClose={onClose}>
        <span className="status" role="status">
          {loading ? 'Loading…' : (compacting ?? '')}
        </span>
      </DialogHeader>
      <div className="context-view__body">
        {!sessionId && <p>Start a conversation to see what each request to the model holds.</p>}
        {error && (
          <p className="pane__error" role="alert">
            {error}
          </p>
        )}
        {breakdown && (
          <>
            <p className="context-view__summary">
              The next request holds about <strong>{tokens(breakdown.total)}</strong> of {tokens(breakdown.window)} tokens ({percent(breakdown.total, breakdown.window)}), {breakdown.messageCount} messages, for {breakdown.model}.
            </p>
            <ContextBar breakdown={breakdown} />
            <form
              className="context-view__compact"
              aria-label="Compact now"
              onSubmit={(event) => {
                event.preventDefault()
                void compact(instructions)
                setInstructions('')
              }}
            >
              <label htmlFor="context-instructions">Compact now, keeping in detail (optional)</label>
              <input id="context-instructions" value={instructions} placeholder="e.g. the API decisions and the failing test" onChange={(event) => setInstructions(event.target.value)} />
              <button type="submit" className="button button--small">
                Compact now
              </button>
            </form>
            <PartsTable breakdown={breakdown} />
            <NextCompaction breakdown={breakdown} />
            <CompactionHistory history={breakdown.history} />
            {breakdown.notes.length > 0 && (
              <section className="context-section" aria-labelledby="context-notes">
                <h3 id="context-notes">Left out of the instruction files</h3>
                <ul>
                  {breakdown.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </div>
    </Dialog>
  )
}
