import { useEffect, useId, useLayoutEffect, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react'
import { pathForFile } from '../../api'
import { droppedPaths, mentionsFor } from './mentions'
import { exactCommand, loadDraft, matchCommands, saveDraft, type SlashContext } from './slash-commands'
import { useMentions } from './use-mentions'

interface ComposerProps {
  running: boolean
  sending: boolean
  stopping: boolean
  /** Which conversation the draft belongs to. */
  draftKey: string
  /** Dropped files become `@path` mentions relative to it; `@` completes its files. */
  projectPath: string
  commands: SlashContext
  onSend(text: string): Promise<boolean>
  onStop(): void
}

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs. While the
 * agent works, Enter queues the message as a follow-up sent when the turn ends. Each conversation
 * keeps its own draft; `/` lists the slash commands and `@` completes the project's files and
 * folders (↑/↓ to pick, Enter or Tab to insert, Esc to close).
 */
export function Composer({ running, sending, stopping, draftKey, projectPath, commands, onSend, onStop }: ComposerProps) {
  const [text, setTextState] = useState(() => loadDraft(draftKey))
  const [queued, setQueued] = useState<string>()
  const [selected, setSelected] = useState(0)
  const hintId = useId()
  const listId = useId()
  const busy = running || sending
  const input = useRef<HTMLTextAreaElement>(null)
  const [caret, setCaret] = useState(0)
  // Where the caret goes once an inserted mention is on screen.
  const caretAfter = useRef<number>(undefined)
  const mentions = useMentions(projectPath, text, caret)
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

  useLayoutEffect(() => {
    const at = caretAfter.current
    if (at === undefined || !input.current) return
    caretAfter.current = undefined
    input.current.setSelectionRange(at, at)
    setCaret(at)
  }, [text])

  // Arrow keys move the pick; keep it in view in the scrolled list.
  const pickedId = mentions.open ? mentions.optionId(mentions.selected) : undefined
  useEffect(() => {
    if (pickedId) document.getElementById(pickedId)?.scrollIntoView({ block: 'nearest' })
  }, [pickedId])

  const pickMention = (index?: number) => {
    const next = mentions.choose(index)
    if (!next) return
    caretAfter.current = next.caret
    setText(next.text)
  }

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
    if (mentions.open && !event.nativeEvent.isComposing) {
      const pick = (event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey)
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp' || event.key === 'Escape' || pick) {
        event.preventDefault()
        event.stopPropagation()
        if (event.key === 'Escape') mentions.dismiss()
        else if (pick) pickMention()
        else mentions.move(event.key === 'ArrowDown' ? 1 : -1)
        return
      }
    }
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
      {/* The ARIA 1.1 combobox pattern: the box stays a textbox, its wrapper is the combobox. */}
      <div
        className="composer__field"
        role="combobox"
        aria-label="Message"
        aria-haspopup="listbox"
        aria-expanded={mentions.open}
        aria-owns={mentions.open ? mentions.listId : undefined}
      >
        {mentions.open && (
          <ul id={mentions.listId} className="composer__commands composer__mentions" role="listbox" aria-label="Files and folders">
            {mentions.items.map((path, index) => (
              <li key={path} id={mentions.optionId(index)} role="option" aria-selected={index === mentions.selected}>
                <button
                  type="button"
                  tabIndex={-1}
                  className="composer__command"
                  // Keep focus (and the caret) in the message box.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pickMention(index)}
                >
                  <code>@{path}</code>
                </button>
              </li>
            ))}
          </ul>
        )}
        <textarea
          ref={input}
          className="composer__input field"
          aria-label="Message"
          aria-describedby={hintId}
          aria-autocomplete="list"
          aria-controls={mentions.open ? mentions.listId : suggestions.length > 0 ? listId : undefined}
          aria-activedescendant={mentions.open ? mentions.optionId(mentions.selected) : undefined}
          placeholder="Message the agent…  (/ for commands, @ for files)"
          rows={3}
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            setCaret(event.target.selectionStart)
            setSelected(0)
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onDrop={onDrop}
        />
      </div>
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
