/** One decision auto mode's classifier took, as the tool card and the decision log show it. */
export interface AutoDecision {
  /** Unique in the session: `auto-<n>`. */
  id: string
  toolUseId: string
  toolName: string
  /** The call in one line (the command, the path…). */
  summary: string
  /** The rule pattern "ask me next time" would save (`Bash(npm run build:*)`, `Edit(/src/**)`, `WebFetch`). */
  pattern: string
  decision: 'allow' | 'ask'
  reason: string
  durationMs: number
  model: string
  /** Epoch ms. */
  at: number
  /** The subagent that made the call (absent: the session's main agent). */
  agentId?: string
  /** Set once the user chose "ask me next time" for this decision's pattern. */
  askNextTime?: 'session' | 'project'
}

const KEPT = 500

/** The session's auto-mode decisions, oldest first (the last {@link KEPT}). */
export class AutoDecisionLog {
  private readonly entries: AutoDecision[] = []
  private next = 1

  /** Records a decision; returns it with its id. */
  add(decision: Omit<AutoDecision, 'id'>): AutoDecision {
    const entry = { ...decision, id: `auto-${this.next++}` }
    this.entries.push(entry)
    if (this.entries.length > KEPT) this.entries.shift()
    return entry
  }

  list(): AutoDecision[] {
    return this.entries.map((entry) => ({ ...entry }))
  }

  get(id: string): AutoDecision | undefined {
    return this.entries.find((entry) => entry.id === id)
  }

  /** Marks every decision with this pattern as turned back into a prompt. */
  markAskNextTime(pattern: string, scope: 'session' | 'project'): void {
    for (const entry of this.entries) if (entry.pattern === pattern) entry.askNextTime = scope
  }
}
