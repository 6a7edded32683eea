import { useEffect, useRef, type ReactNode } from 'react'
import { useFocusTrap } from './focus-trap'
import './dialog.css'

export interface DialogProps {
  /** The accessible name (the dialog is reachable by it). */
  label: string
  className: string
  backdropClassName?: string
  /** Escape, a click outside, or the header's Close. */
  onClose(): void
  /** A selector for what gets focus on open (the first match); the dialog itself by default. */
  initialFocus?: string
  children: ReactNode
}

/**
 * A modal dialog (WAI-ARIA dialog pattern): focus moves in when it opens, Tab stays inside, focus
 * goes back where it was when it closes; Escape or a click on the backdrop closes it. Mount it only
 * while it is open.
 */
export function Dialog({ label, className, backdropClassName, onClose, initialFocus, children }: DialogProps) {
  const dialog = useRef<HTMLDivElement>(null)
  useFocusTrap(dialog, true)
  const focusTarget = useRef(initialFocus)
  useEffect(() => {
    const root = dialog.current
    const target = focusTarget.current ? root?.querySelector<HTMLElement>(focusTarget.current) : root
    ;(target ?? root)?.focus()
  }, [])

  return (
    <div className={`dialog-backdrop${backdropClassName ? ` ${backdropClassName}` : ''}`} onClick={onClose}>
      <div
        ref={dialog}
        className={className}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return
          event.preventDefault()
          onClose()
        }}
      >
        {children}
      </div>
    </div>
  )
}

/** A dialog's title bar: the title, anything in between (a status), and Close. */
export function DialogHeader({ title, onClose, children }: { title: string; onClose(): void; children?: ReactNode }) {
  return (
    <header className="dialog__header">
      <h2 className="pane__title">{title}</h2>
      {children}
      <button type="button" className="button button--small" onClick={onClose}>
        Close
      </button>
    </header>
  )
}
