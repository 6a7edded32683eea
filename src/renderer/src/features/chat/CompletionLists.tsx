import { useEffect, useRef } from 'react'
import type { SlashCommand } from '../../lib/slash-commands'
import type { MentionCompletion } from './use-mentions'

/**
 * The slash commands matching what is typed, each with its arguments and where it comes from; a
 * click picks one (a built-in runs, a custom one is filled in for its arguments).
 */
export function SlashCommandList({ id, commands, selected, onPick }: { id: string; commands: readonly SlashCommand[]; selected: number; onPick(command: SlashCommand): void }) {
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' })
  }, [selected])
  return (
    <ul ref={list} id={id} className="composer__commands composer__slash" role="listbox" aria-label="Slash commands">
      {commands.map((command, index) => (
        <li key={command.name} role="option" aria-selected={index === selected} aria-label={`/${command.name}`}>
          <button type="button" tabIndex={-1} className="composer__command" onMouseDown={(event) => event.preventDefault()} onClick={() => onPick(command)}>
            <code>/{command.name}</code>
            {command.argumentHint && <code className="composer__argument-hint">{command.argumentHint}</code>}
            <span>{command.description}</span>
            {command.origin && <em className="composer__origin">{command.origin}</em>}
          </button>
        </li>
      ))}
    </ul>
  )
}

/** What a built-in command answered (`/help`, `/model`…): never part of the conversation. */
export function CommandOutput({ text, onDismiss }: { text: string; onDismiss(): void }) {
  return (
    <section className="composer__output" aria-label="Command output">
      <pre role="status">{text}</pre>
      <button type="button" className="button button--small button--quiet" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  )
}

/** The files and folders matching the `@…` at the caret; a click inserts one. */
export function MentionList({ completion, onPick }: { completion: MentionCompletion; onPick(index: number): void }) {
  return (
    <ul id={completion.listId} className="composer__commands composer__mentions" role="listbox" aria-label="Files and folders">
      {completion.items.map((path, index) => (
        <li key={path} id={completion.optionId(index)} role="option" aria-selected={index === completion.selected}>
          <button
            type="button"
            tabIndex={-1}
            className="composer__command"
            // Keep focus (and the caret) in the message box.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(index)}
          >
            <code>@{path}</code>
          </button>
        </li>
      ))}
    </ul>
  )
}

/** The follow-up waiting for the turn to end, with a way to take it back into the box. */
export function QueuedFollowUp({ text, onEdit }: { text: string; onEdit(): void }) {
  return (
    <p className="composer__queued" aria-label="Queued follow-up">
      Queued for when the agent finishes: <q>{text.length > 120 ? `${text.slice(0, 117)}…` : text}</q>{' '}
      <button type="button" className="link" onClick={onEdit}>
        Edit
      </button>
    </p>
  )
}
