import { useState } from 'react'
import { exactCommand, matchCommands, useSlashCommands, type SlashCommand } from '../../lib/slash-commands'

/** The `/` completion of the composer, over the shell's slash-command registry. */
export interface SlashCompletion {
  /** Commands matching what is typed (empty when the text is not a command name). */
  suggestions: SlashCommand[]
  /** The highlighted suggestion. */
  selected: number
  move(step: 1 | -1): void
  /** Back to the first suggestion (the text changed). */
  reset(): void
  /** What Enter runs: the command the text names, else the highlighted suggestion. */
  chosen(): { command: SlashCommand; args: string } | undefined
}

/** Lists the slash commands matching `text` and tracks the highlighted one. */
export function useSlashCompletion(text: string): SlashCompletion {
  const commands = useSlashCommands()
  const [selected, setSelected] = useState(0)
  const suggestions = matchCommands(text, commands)
  const current = suggestions.length > 0 ? selected % suggestions.length : 0
  return {
    suggestions,
    selected: current,
    move: (step) => setSelected((index) => (index + step + suggestions.length) % suggestions.length),
    reset: () => setSelected(0),
    chosen() {
      const exact = exactCommand(text, commands)
      if (exact) return exact
      const command = suggestions[current]
      return command ? { command, args: '' } : undefined
    },
  }
}
