import { useId, useMemo, useState } from 'react'
import { Dialog } from '../../lib/Dialog'
import { filterCommands, type Command } from './match'
import './palette.css'

/** The command palette (Ctrl/Cmd+Shift+P): type to filter, arrows to choose, Enter to run, Escape to close. */
export function Palette({ commands, onClose }: { commands: readonly Command[]; onClose(): void }) {
  const [query, setQuery] = useState('')
  const [index, setIndex] = useState(0)
  const listId = useId()
  const shown = useMemo(() => filterCommands(commands, query), [commands, query])
  const selected = shown[Math.min(index, shown.length - 1)]

  const run = (command: Command | undefined) => {
    if (!command) return
    onClose()
    // After the palette is gone, so the command can move focus where it wants.
    requestAnimationFrame(() => command.run())
  }

  return (
    <Dialog
      label="Command palette"
      className="palette"
      backdropClassName="palette-backdrop"
      onClose={onClose}
      initialFocus="input"
    >
      <input
        className="field palette__input"
        role="combobox"
        aria-label="Command"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={selected ? `${listId}-${selected.id}` : undefined}
        placeholder="Type a command"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          setIndex(0)
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, shown.length - 1))
          else if (event.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0))
          else if (event.key === 'Enter') run(selected)
          else return
          event.preventDefault()
        }}
      />
      <ul className="palette__list" role="listbox" id={listId} aria-label="Commands">
        {shown.map((command) => (
          <li
            key={command.id}
            id={`${listId}-${command.id}`}
            role="option"
            aria-selected={command === selected}
            className={`palette__item${command === selected ? ' palette__item--selected' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(command)}
          >
            <span>{command.title}</span>
            {command.shortcut && <kbd className="palette__kbd">{command.shortcut}</kbd>}
          </li>
        ))}
        {shown.length === 0 && <li className="palette__empty">No command matches.</li>}
      </ul>
    </Dialog>
  )
}
