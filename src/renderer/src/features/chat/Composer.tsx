import { useId, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react'
import { pathForFile } from '../../api'
import type { SlashCommand, SlashContext } from '../../lib/slash-commands'
import { CommandOutput, MentionList, QueuedFollowUp, SlashCommandList } from './CompletionLists'
import { droppedPaths, mentionsFor } from './mentions'
import { useDraft } from './use-draft'
import { useFollowUp } from './use-follow-up'
import { useMentionPicker } from './use-mention-picker'
import { useSlashCompletion } from './use-slash-completion'
import { imageProblem, readAttachment, type Attachment } from './images'
import './composer.css'

interface ComposerProps {
  running: boolean
  sending: boolean
  stopping: boolean
  /** Which conversation the draft belongs to. */
  draftKey: string
  /** Dropped files become `@path` mentions relative to it; `@` completes its files. */
  projectPath: string
  /** What a slash command typed here may do to this conversation (the composer adds sending and answering). */
  commands: Omit<SlashContext, 'send' | 'say' | 'commands'>
  /** `images`: pasted or dropped pictures, sent as image blocks with the text. */
  onSend(text: string, images?: readonly Attachment[]): Promise<boolean>
  onStop(): void
  /** Esc Esc in an empty box (Claude Code's shortcut): open the rewind picker. */
  onRewind?(): void
}

/** Two Escapes this close together (ms) in an empty box open the rewind picker. */
const DOUBLE_ESCAPE_MS = 800

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; Stop while a turn runs. While the
 * agent works, Enter queues the message as a follow-up sent when the turn ends. Each conversation
 * keeps its own draft; `/` lists the slash commands of the shell's registry — built-ins run here
 * and answer under the box, the project's own are sent to Sous to be expanded — and `@` completes
 * the project's files and folders (↑/↓ to pick, Enter or Tab to insert, Esc to close). Each of
 * those is a hook with one job; this component wires them to the keyboard and lays them out.
 */
export function Composer({ running, sending, stopping, draftKey, projectPath, commands, onSend, onStop, onRewind }: ComposerProps) {
  const busy = running || sending
  const hintId = useId()
  const listId = useId()
  const input = useRef<HTMLTextAreaElement>(null)
  const [text, setText] = useDraft(draftKey)
  const restore = (queued: string) => setText((current) => current || queued)
  const followUp = useFollowUp(draftKey, busy, onSend, restore)
  const slash = useSlashCompletion(text)
  const mentions = useMentionPicker(projectPath, text, setText, input)
  const mentionList = mentions.completion
  const lastEscape = useRef(0)
  // A built-in command's answer (`/help`, `/model`…), shown under the box until dismissed.
  const [output, setOutput] = useState<string | null>(null)
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [imageError, setImageError] = useState<string | null>(null)

  /**
   * Attaches pasted files, or dropped ones when any is a picture (other drops are mentions); says
   * why a file is left out. True when the files were taken here.
   */
  const attach = (images: readonly File[], pasted: boolean): boolean => {
    if (images.length === 0 || (!pasted && !images.some((file) => file.type.startsWith('image/')))) return false
    let count = attachments.length
    let problem: string | null = null
    const accepted: File[] = []
    for (const file of images) {
      const refused = imageProblem(file, count)
      if (refused) problem = refused
      else {
        accepted.push(file)
        count++
      }
    }
    setImageError(problem)
    void Promise.all(accepted.map(readAttachment)).then((read) => setAttachments((current) => [...current, ...read]))
    return true
  }

  const send = async (draft: string) => {
    if (busy && attachments.length === 0) return followUp.queue(draft)
    if (busy) return restore(draft)
    const images = attachments
    setAttachments([])
    setImageError(null)
    // Keep what was typed (and attached) if it could not be sent.
    if (!(await onSend(draft, images))) {
      restore(draft)
      setAttachments((current) => (current.length > 0 ? current : images))
    }
  }

  const runCommand = (command: SlashCommand, args = '') => {
    setText('')
    setOutput(null)
    command.run({ ...commands, send: (line) => void send(line), say: setOutput, commands: slash.commands }, args)
  }

  const complete = (line: string) => {
    setText(line)
    slash.reset()
    input.current?.focus()
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    const chosen = slash.chosen()
    if (chosen && 'complete' in chosen) return complete(chosen.complete)
    if (chosen) return runCommand(chosen.run, chosen.args)
    if (!text.trim()) return
    const draft = text
    setText('')
    await send(draft)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const composing = event.nativeEvent.isComposing
    const arrow = event.key === 'ArrowDown' || event.key === 'ArrowUp'
    const step = event.key === 'ArrowDown' ? 1 : -1
    if (mentionList.open && !composing) {
      const pick = (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey
      if (arrow || event.key === 'Escape' || pick) {
        event.preventDefault()
        event.stopPropagation()
        if (event.key === 'Escape') mentionList.dismiss()
        else if (pick) mentions.pick()
        else mentionList.move(step)
        return
      }
    }
    if (event.key === 'Escape' && onRewind && !text.trim() && slash.suggestions.length === 0) {
      const now = event.timeStamp
      if (now - lastEscape.current < DOUBLE_ESCAPE_MS) {
        lastEscape.current = 0
        event.preventDefault()
        return onRewind()
      }
      lastEscape.current = now
    }
    if (slash.suggestions.length > 0 && arrow) {
      event.preventDefault()
      return slash.move(step)
    }
    const completion = event.key === 'Tab' && !event.shiftKey ? slash.completion() : undefined
    if (completion) {
      event.preventDefault()
      return complete(completion)
    }
    if (event.key === 'Enter' && !event.shiftKey && !composing) {
      event.preventDefault()
      void submit()
    }
  }

  // Files or folders dropped here are mentioned, not opened as a project (the window's drop).
  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    // Pictures (and files that are not images) dropped here are attachments or refused, never mentions.
    const files = [...event.dataTransfer.files]
    if (files.length > 0 && files.every((file) => !pathForFile(file)) && attach(files, false)) return event.preventDefault()
    const paths = droppedPaths(event.dataTransfer, pathForFile)
    if (paths.length === 0) return
    // preventDefault also tells the window's drop handler not to open the drop as a project.
    event.preventDefault()
    const mention = mentionsFor(paths, projectPath)
    setText((current) => (current && !/\s$/.test(current) ? `${current} ${mention} ` : `${current}${mention} `))
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {slash.suggestions.length > 0 && (
        <SlashCommandList
          id={listId}
          commands={slash.suggestions}
          selected={slash.selected}
          onPick={(command) => (command.custom ? complete(`/${command.name} `) : runCommand(command))}
        />
      )}
      {output !== null && <CommandOutput text={output} onDismiss={() => setOutput(null)} />}
      {followUp.queued !== undefined && <QueuedFollowUp text={followUp.queued} onEdit={() => restore(followUp.takeBack() ?? '')} />}
      {/* The ARIA 1.1 combobox pattern: the box stays a textbox, its wrapper is the combobox. */}
      <div
        className="composer__field"
        role="combobox"
        aria-label="Message"
        aria-haspopup="listbox"
        aria-expanded={mentionList.open}
        aria-owns={mentionList.open ? mentionList.listId : undefined}
      >
        {mentionList.open && <MentionList completion={mentionList} onPick={mentions.pick} />}
        <textarea
          ref={input}
          className="composer__input field"
          aria-label="Message"
          aria-describedby={hintId}
          aria-autocomplete="list"
          aria-controls={mentionList.open ? mentionList.listId : slash.suggestions.length > 0 ? listId : undefined}
          aria-activedescendant={mentionList.open ? mentionList.optionId(mentionList.selected) : undefined}
          placeholder="Message the agent…  (/ for commands, @ for files)"
          rows={3}
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            mentions.trackCaret(event.target.selectionStart)
            slash.reset()
          }}
          onSelect={(event) => mentions.trackCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onDrop={onDrop}
          onPaste={(event) => {
            const files = [...event.clipboardData.files]
            if (files.length > 0 && attach(files, true)) event.preventDefault()
          }}
        />
      </div>
      {imageError && (
        <p className="pane__error composer__image-error" role="alert">
          {imageError}
        </p>
      )}
      {attachments.length > 0 && (
        <ul className="composer__images" aria-label="Attached images">
          {attachments.map((image) => (
            <li key={image.id}>
              <img src={`data:${image.mediaType};base64,${image.data}`} alt={image.name} />
              <button type="button" className="button button--quiet button--small" aria-label={`Remove ${image.name}`} onClick={() => setAttachments((current) => current.filter((a) => a.id !== image.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer__actions">
        <span id={hintId} className="composer__hint">
          {slash.inUse ? (
            <>
              <code>
                /{slash.inUse.name} {slash.inUse.argumentHint ?? ''}
              </code>{' '}
              {slash.inUse.description}
            </>
          ) : busy ? (
            'Enter queues a follow-up · Shift+Tab switches mode'
          ) : (
            'Enter to send · Shift+Enter for a new line · Shift+Tab switches mode'
          )}
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
