import { parseRule } from '../rules/parse'
import type { LoadedRule } from '../settings/types'

/**
 * "Allow for this session" grants: allow rules kept in memory only (Claude Code's `session`
 * source). They behave like allow rules from settings and vanish with the session.
 */
export class SessionGrants {
  private readonly list: LoadedRule[] = []

  constructor(private readonly projectRoot: string) {}

  /** Adds an allow rule; returns an error message when the rule cannot be parsed. */
  add(text: string): string | undefined {
    const parsed = parseRule(text)
    if (!parsed.ok) return parsed.error
    if (this.list.some((x) => x.origin.text === text)) return undefined
    this.list.push({ parsed: parsed.rule, origin: { text, behavior: 'allow', source: 'session' }, sourceRoot: this.projectRoot })
    return undefined
  }

  /** The grants, oldest first. */
  rules(): LoadedRule[] {
    return [...this.list]
  }

  /** Forgets every grant. */
  clear(): void {
    this.list.length = 0
  }
}
