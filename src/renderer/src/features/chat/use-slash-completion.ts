import { useEffect, useState } from 'react'
import { commandBeingUsed, exactCommand, matchCommands, useSlashCommands, type SlashCommand } from '../../lib/slash-commands'

/** The `/` completion of the composer, over the shell's slash-command registry. */
export interface SlashCompletion {
  /** Commands matching what is typed (empty when the text is not a command name). */
  suggestions: SlashCommand[]
  /** The highlighted suggestion. */
  selected: number
  /** The command whose arguments are being typed (its hint is shown). */
  inUse: SlashCommand | undefined
  /** Every command (for `/help`). */
  commands: readonly SlashCommand[]
  move(step: 1 | -1): void
  /** Back to the first suggestion (the text changed). */
  reset(): void
  /**
   * What Enter does: run the command the text names (a custom one is sent), or the highlighted
   * suggestion — except a highlighted custom command, whose name is filled in for its arguments.
   */
  chosen(): { run: SlashCommand; args: string } | { complete: string } | undefined
  /** What Tab fills in: the highlighted name and a space. */
  completion(): string | undefined
}

/** Lists the slash commands matching `text` and tracks the highlighted one. */
export function useSlashCompletion(text: string): SlashCompletion {
  const { commands, refresh } = useSlashCommands()
  const [selected, setSelected] = useState(0)
  const suggestions = matchCommands(text, commands)
  const current = suggestions.length > 0 ? selected % suggestions.length : 0
  const listing = suggestions.length > 0
  // Custom commands are files: read them again when the list opens.
  useEffect(() => {
    if (listing) refresh()
  }, [listing, refresh])
  const highlighted = suggestions[current]
  return {
    suggestions,
    selected: current,
    inUse: suggestions.length === 0 ? commandBeingUsed(text, commands) : undefined,
    commands,
    move: (step) => setSelected((index) => (index + step + suggestions.length) % suggestions.length),
    reset: () => setSelected(0),
    chosen() {
      const exact = exactCommand(text, commands)
      if (exact) return { run: exact.command, args: exact.args }
      if (!highlighted) return undefined
      return highlighted.custom ? { complete: `/${highlighted.name} ` } : { run: highlighted, args: '' }
    },
    completion: () => (highlighted ? `/${highlighted.name} ` : undefined),
  }
}
