/** One thing the palette can do. */
export interface Command {
  id: string
  title: string
  /** Shown on the right, e.g. "Ctrl+Shift+`". */
  shortcut?: string
  run(): void
}

/**
 * How well `query` matches `title`: every query character must appear in order (case-insensitive);
 * contiguous runs and word starts score higher. `null` when it does not match. Pure.
 */
export function score(query: string, title: string): number | null {
  const q = query.trim().toLowerCase()
  if (!q) return 0
  const t = title.toLowerCase()
  let at = 0
  let total = 0
  let previous = -2
  for (const char of q) {
    if (char === ' ') continue
    const found = t.indexOf(char, at)
    if (found === -1) return null
    total += 1
    if (found === previous + 1) total += 2
    if (found === 0 || t[found - 1] === ' ') total += 3
    previous = found
    at = found + 1
  }
  return total
}

/** The commands matching `query`, best first (ties keep their order). Pure. */
export function filterCommands<C extends Pick<Command, 'title'>>(commands: readonly C[], query: string): C[] {
  return commands
    .map((command, index) => ({ command, index, score: score(query, command.title) }))
    .filter((item): item is { command: C; index: number; score: number } => item.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((item) => item.command)
}
