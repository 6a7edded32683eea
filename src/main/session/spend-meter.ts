import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { BudgetLine, Usage } from '../../shared/protocol/agent-event'
import { writeFileAtomicSync } from '../base/atomic-write'
import type { ModelService, ModelStreamEvent } from '../services/model/types'
import { BUDGET_KEYS, type BudgetCaps, type BudgetKey } from './guard-settings'

/** Dollars and tokens spent. Tokens are every token the API counted: input, cache reads and writes, output. */
export interface Spend {
  usd: number
  tokens: number
}

/** Output tokens assumed for a reply before any has been seen. */
const FIRST_OUTPUT_GUESS = 1_000

/** The share of a cap from which the guard warns. */
export const WARN_SHARE = 0.8

/** Every token of a usage. */
export function tokensOf(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
}

/**
 * One session's spend against its caps: the session's own (since it was opened or resumed in
 * this process, as Claude Code's `--max-budget-usd` counts a run) and its project's (all sessions
 * of the project, kept in `<projectDataDir>/spend.json`). Every request of the session goes
 * through {@link wrap}: the main agent's, subagents', and side requests' (memory recall and
 * extraction, compaction summaries), so all of them count.
 */
export class SpendMeter {
  readonly session: Spend = { usd: 0, tokens: 0 }
  private caps: BudgetCaps
  /** Output tokens of the replies so far, to forecast the next one. */
  private outputs = { total: 0, replies: 0, most: 0 }
  private readonly listeners = new Set<() => void>()

  constructor(
    caps: BudgetCaps,
    private readonly projectFile: string,
  ) {
    this.caps = { ...caps }
  }

  /** The project's spend as the file says now (other sessions of the project add to it too). */
  get project(): Spend {
    try {
      const data = JSON.parse(readFileSync(this.projectFile, 'utf8')) as Partial<Spend>
      return { usd: Number(data.usd) || 0, tokens: Number(data.tokens) || 0 }
    } catch {
      return { usd: 0, tokens: 0 }
    }
  }

  /** Counts one reply's usage, for the session and the project. */
  add(usage: Usage, costUsd: number): void {
    const tokens = tokensOf(usage)
    this.session.usd += costUsd
    this.session.tokens += tokens
    this.outputs.total += usage.outputTokens
    this.outputs.replies++
    this.outputs.most = Math.max(this.outputs.most, usage.outputTokens)
    const project = this.project
    try {
      mkdirSync(dirname(this.projectFile), { recursive: true })
      writeFileAtomicSync(this.projectFile, `${JSON.stringify({ usd: project.usd + costUsd, tokens: project.tokens + tokens })}\n`)
    } catch {
      // The project's tally is best effort; the session's own caps still hold.
    }
    for (const listener of this.listeners) listener()
  }

  /** Called after every counted reply (the guard's status line). Returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The output a reply is expected to have (the mean so far) and may have (the most so far); a modest guess before the first. */
  outputTokens(): { mean: number; most: number } {
    if (this.outputs.replies === 0) return { mean: FIRST_OUTPUT_GUESS, most: FIRST_OUTPUT_GUESS }
    return { mean: Math.ceil(this.outputs.total / this.outputs.replies), most: this.outputs.most }
  }

  /** Raises (or sets) one cap: the user's answer to a pause. */
  raise(key: BudgetKey, value: number): void {
    this.caps[key] = value
  }

  /** The caps in force. */
  currentCaps(): BudgetCaps {
    return { ...this.caps }
  }

  /** Each cap in force with what has been spent against it (plus `extra`, a forecast). */
  lines(extra: Spend = { usd: 0, tokens: 0 }): BudgetLine[] {
    const project = BUDGET_KEYS.some((key) => key.startsWith('project') && this.caps[key] !== undefined) ? this.project : { usd: 0, tokens: 0 }
    const spentOf: Record<BudgetKey, number> = {
      sessionUsd: this.session.usd + extra.usd,
      projectUsd: project.usd + extra.usd,
      sessionTokens: this.session.tokens + extra.tokens,
      projectTokens: project.tokens + extra.tokens,
    }
    return BUDGET_KEYS.flatMap((key) => (this.caps[key] === undefined ? [] : [{ key, spent: spentOf[key], cap: this.caps[key]! }]))
  }

  /** The first cap already reached (nothing more may be sent), if any. */
  reached(): BudgetLine | undefined {
    return this.lines().find((line) => line.spent >= line.cap)
  }

  /**
   * The model service with the meter on its line: each reply's usage is counted, and no request
   * starts once a cap is reached (it ends at once with an error that names the cap), whoever
   * sends it.
   */
  wrap(service: ModelService): ModelService {
    return {
      stream: (request) => this.metered(service, request),
    }
  }

  private async *metered(service: ModelService, request: Parameters<ModelService['stream']>[0]): AsyncGenerator<ModelStreamEvent> {
    const reached = this.reached()
    if (reached) {
      yield { type: 'error', reason: 'invalid_request', message: `The ${budgetLabel(reached.key)} cap of ${formatBudget(reached.key, reached.cap)} is reached; no further request is sent.`, midStream: false }
      return
    }
    for await (const event of service.stream(request)) {
      if (event.type === 'message_end') this.add(event.usage, event.costUsd)
      yield event
    }
  }
}

/** A cap's name as the user reads it. */
export function budgetLabel(key: BudgetKey): string {
  return { sessionUsd: 'session spending', projectUsd: 'project spending', sessionTokens: 'session token', projectTokens: 'project token' }[key]
}

/** A cap's value as the user reads it ($1.50, 200,000 tokens). */
export function formatBudget(key: BudgetKey, value: number): string {
  return key.endsWith('Usd') ? `$${value.toFixed(value < 1 ? 4 : 2)}` : `${Math.round(value).toLocaleString('en-US')} tokens`
}
