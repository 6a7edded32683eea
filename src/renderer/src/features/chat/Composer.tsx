import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react'
import { pathForFile } from '../../api'
import { droppedPaths, mentionsFor } from './mentions'
import { exactCommand, loadDraft, matchCommands, saveDraft, type SlashContext } from './slash-commands'

interface ComposerProps {
  running: boolean
  sending: boolean
  stopping: boolean
  /** Which conversation the draft belongs to. */
  draftKey: string
  /** Dropped files become `@path` mentions relative to it. */
  projectPath: string
  commands: SlashContext
  onSend(text: string): Promise<boolean>
  onStop(): void
}

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs. While the
 * agent works, Enter queues the message as a follow-up sent when the turn ends. Each conversation
 * keeps its own draft; `/` lists the slash commands.
 */
export function Composer({ running, sending, stopping, draftKey, projectPath, commands, onSend, onStop }: ComposerProps) {
  const [text, setTextState] = useState(() => loadDraft(draftKey))
  const [queued, setQueued] = useState<string>()
  const [selected, setSelected] = useState(0)
  const hintId = useId()
  const listId = useId()
  const busy = running || sending
  const key = useRef(draftKey)
  const setText = (next: string | ((current: string) => string)) => {
    setTextState((current) => {
      const value = typeof next === 'function' ? next(current) : next
      saveDraft(key.current, value)
      return value
    })
  }

  // Switching conversations swaps drafts; a queued follow-up belongs to the old one and is dropped.
  useEffect(() => {
    if (key.current === draftKey) return
    key.current = draftKey
    setTextState(loadDraft(draftKey))
    setQueued(undefined)
  }, [draftKey])

  // The turn ended: send the follow-up.
  useEffect(() => {
    if (busy || queued === undefined) return
    setQueued(undefined)
    void onSend(queued).then((sent) => {
      if (!sent) setText((current) => current || queued)
    })
  }, [busy, queued, onSend])

  const suggestions = matchCommands(text)
  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    const command = exactCommand(text) ?? (suggestions.length > 0 ? suggestions[Math.min(selected, suggestions.length - 1)] : undefined)
    if (command) {
      setText('')
      command.run(commands)
      return
    }
    if (!text.trim()) return
    const draft = text
    setText('')
    if (busy) {
      setQueued((current) => (current ? `${current}\n\n${draft}` : draft))
      return
    }
    // Keep what was typed if it could not be sent.
    if (!(await onSend(draft))) setText((current) => current || draft)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length > 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setSelected((current) => (current + step + suggestions.length) % suggestions.length)
      return
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void submit()
    }
  }

  // Files or folders dropped here are mentioned, not opened as a project (the window's drop).
  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    const paths = droppedPaths(event.dataTransfer, pathForFile)
    if (paths.length === 0) return
    // preventDefault also tells the window's drop handler not to open the drop as a project.
    event.preventDefault()
    const mention = mentionsFor(paths, projectPath)
    setText((current) => (current && !/\s$/.test(current) ? `${current} ${mention} ` : `${current}${mention} `))
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {suggestions.length > 0 && (
        <ul id={listId} className="composer__commands" role="listbox" aria-label="Slash commands">
          {suggestions.map((command, index) => (
            <li key={command.name} role="option" aria-selected={index === selected % suggestions.length}>
              <button type="button" className="composer__command" onClick={() => (setText(''), command.run(commands))}>
                <code>/{command.name}</code> <span>{command.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {queued !== undefined && (
        <p className="composer__queued" aria-label="Queued follow-up">
          Queued for when the agent finishes: <q>{queued.length > 120 ? `${queued.slice(0, 117)}…` : queued}</q>{' '}
          <button type="button" className="link" onClick={() => (setText((current) => current || queued), setQueued(undefined))}>
            Edit
          </button>
        </p>
      )}
      <textarea
        className="composer__input field"
        aria-label="Message"
        aria-describedby={hintId}
        aria-controls={suggestions.length > 0 ? listId : undefined}
        placeholder="Message the agent…  (/ for commands)"
        rows={3}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setSelected(0)
        }}
        onKeyDown={onKeyDown}
        onDrop={onDrop}
      />
      <div className="composer__actions">
        <span id={hintId} className="composer__hint">
          {busy ? 'Enter queues a follow-up · Shift+Tab switches mode' : 'Enter to send · Shift+Enter for a new line · Shift+Tab switches mode'}
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
