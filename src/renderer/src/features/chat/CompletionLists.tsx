import type { SlashCommand } from '../../lib/slash-commands'
import type { MentionCompletion } from './use-mentions'

/** The slash commands matching what is typed; a click runs one. */
export function SlashCommandList({ id, commands, selected, onRun }: { id: string; commands: readonly SlashCommand[]; selected: number; onRun(command: SlashCommand): void }) {
  return (
    <ul id={id} className="composer__commands" role="listbox" aria-label="Slash commands">
      {commands.map((command, index) => (
        <li key={command.name} role="option" aria-selected={index === selected}>
          <button type="button" className="composer__command" onClick={() => onRun(command)}>
            <code>/{command.name}</code> <span>{command.description}</span>
          </button>
        </li>
      ))}
    </ul>
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
