import { useId, useState, type FormEvent, type KeyboardEvent } from 'react'

interface ComposerProps {
  running: boolean
  sending: boolean
  stopping: boolean
  onSend(text: string): Promise<boolean>
  onStop(): void
}

/** The prompt box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs. */
export function Composer({ running, sending, stopping, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('')
  const hintId = useId()
  const busy = running || sending

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (busy || !text.trim()) return
    const draft = text
    setText('')
    // Keep what was typed if it could not be sent.
    if (!(await onSend(draft))) setText((current) => current || draft)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void submit()
    }
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      <textarea
        className="composer__input field"
        aria-label="Message"
        aria-describedby={hintId}
        placeholder="Message the agent…"
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer__actions">
        <span id={hintId} className="composer__hint">
          Enter to send · Shift+Enter for a new line
        </span>
        {busy ? (
          <button type="button" className="button" onClick={onStop} disabled={stopping || !running}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="submit" className="button button--primary" disabled={!text.trim()}>
            Send
          </button>
        )}
      </div>
    </form>
  )
}
