import { parseRule } from '../rules/parse'
import type { LoadedRule } from '../settings/types'

/**
 * "Allow for this session" grants: allow rules kept in memory only (Claude Code's `session`
 * source). They behave like allow rules from settings and vanish with the session.
 */
export class SessionGrants {
  private readonly list: LoadedRule[] = []
  /** Grants that end with the turn: a skill's or command's `allowed-tools` (Claude Code clears them at the next prompt). */
  private turn: LoadedRule[] = []

  constructor(private readonly projectRoot: string) {}

  /** Adds an allow rule; returns an error message when the rule cannot be parsed. */
  add(text: string): string | undefined {
    const parsed = parseRule(text)
    if (!parsed.ok) return parsed.error
    if (this.list.some((x) => x.origin.text === text)) return undefined
    this.list.push({ parsed: parsed.rule, origin: { text, behavior: 'allow', source: 'session' }, sourceRoot: this.projectRoot })
    return undefined
  }

  /**
   * Adds allow rules for the current turn only (source `command`: the rules a command or skill's
   * `allowed-tools` brings, named by its file); returns one message per rule that does not parse.
   */
  addForTurn(texts: readonly string[], file?: string): string[] {
    const errors: string[] = []
    for (const text of texts) {
      const r = parseRule(text)
      if (!r.ok) errors.push(r.error)
      else if (!this.turn.some((x) => x.origin.text === text)) this.turn.push({ parsed: r.rule, origin: { text, behavior: 'allow', source: 'command', ...(file && { file }) }, sourceRoot: this.projectRoot })
    }
    return errors
  }

  /** Ends the turn's grants (a new prompt starts). */
  clearTurn(): void {
    this.turn = []
  }

  /** The grants, oldest first (the turn's last). */
  rules(): LoadedRule[] {
    return [...this.list, ...this.turn]
  }

  /** Forgets every grant. */
  clear(): void {
    this.list.length = 0
    this.turn = []
  }
}
