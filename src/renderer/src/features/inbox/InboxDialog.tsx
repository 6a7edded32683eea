import type { KeyboardEvent } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import type { InboxEntry, InboxKind } from '../../state/inbox-model'
import './inbox.css'

/** An inbox entry with the name of its project, as the list shows it. */
export interface InboxRow extends InboxEntry {
  projectName: string
}

const KIND_LABELS: Record<InboxKind, string> = {
  approval: 'Approval',
  plan: 'Plan',
  question: 'Question',
  pause: 'Paused',
  input: 'Input',
  finished: 'Finished',
  failed: 'Failed',
  scheduled: 'Scheduled',
  peer: 'Message',
}

/**
 * The attention inbox: everything that waits for the user, in every open project and session,
 * oldest first. Enter (or a click) on an entry opens its project and session with its card; the
 * arrow keys move between entries. It takes the focus only because the user opened it. A message
 * another session sent and this one holds is released into the conversation or dropped here.
 */
export function InboxDialog({ rows, onOpen, onDismiss, onPeer, onClose }: { rows: readonly InboxRow[]; onOpen(row: InboxRow): void; onDismiss(id: string): void; onPeer?(row: InboxRow, action: 'release' | 'drop'): void; onClose(): void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.inbox__open')]
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    buttons[Math.min(Math.max(at + (event.key === 'ArrowDown' ? 1 : -1), 0), buttons.length - 1)]?.focus()
    event.preventDefault()
  }
  return (
    <Dialog label="Inbox" className="dialog-frame dialog inbox" onClose={onClose} initialFocus=".inbox__open">
      <DialogHeader title={`Inbox (${rows.length})`} onClose={onClose} />
      {rows.length === 0 ? (
        <p className="inbox__empty">Nothing waits for you.</p>
      ) : (
        <ul className="inbox__list" aria-label="Waiting for you" onKeyDown={onKeyDown}>
          {rows.map((row) => (
            <li key={row.id} className="inbox__entry" data-kind={row.kind}>
              <button type="button" className="inbox__open" onClick={() => onOpen(row)} aria-label={`${KIND_LABELS[row.kind]} in ${row.projectName}: ${row.title}`}>
                <span className="inbox__kind">{KIND_LABELS[row.kind]}</span>
                <span className="inbox__project">{row.projectName}</span>
                <span className="inbox__title">{row.title}</span>
              </button>
              {row.kind === 'peer' && onPeer && (
                <>
                  <button type="button" className="button button--small" aria-label={`Release: ${row.title} in ${row.projectName}`} onClick={() => onPeer(row, 'release')}>
                    Release
                  </button>
                  <button type="button" className="button button--quiet button--small" aria-label={`Drop: ${row.title} in ${row.projectName}`} onClick={() => onPeer(row, 'drop')}>
                    Drop
                  </button>
                </>
              )}
              {(row.kind === 'finished' || row.kind === 'failed' || row.kind === 'scheduled') && (
                <button type="button" className="button button--quiet button--small" aria-label={`Dismiss: ${row.title} in ${row.projectName}`} onClick={() => onDismiss(row.id)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}

/** The top bar's way in: the count of what waits, always visible; it never opens by itself. */
export function InboxButton({ count, onOpen }: { count: number; onOpen(): void }) {
  return (
    <button type="button" className="button button--quiet inbox-button" onClick={onOpen} aria-label={`Inbox, ${count} waiting`} aria-keyshortcuts="Alt+Shift+I" title="Everything waiting for you (Alt+Shift+I)">
      Inbox
      {count > 0 && (
        <span className="inbox-button__count" aria-hidden="true">
          {count}
        </span>
      )}
    </button>
  )
}
