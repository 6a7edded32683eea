import type { AgentEvent, BudgetLine, PauseChoice, PauseReason } from '../../shared/protocol/agent-event'
import { fixedTokens, messagesTokens, promptTokensOf } from '../compaction/tokens'
import type { GuardVerdict, GuardedReply, RequestGuard } from '../engine/guard'
import { forecastCostOf } from '../services/model/pricing'
import type { ModelRequest } from '../services/model/types'
import type { LoopBrakeSettings } from './guard-settings'
import { LoopBrake } from './loop-brake'
import { budgetLabel, formatBudget, WARN_SHARE, type Spend, type SpendMeter } from './spend-meter'

/** A pause's answer: a choice, and for `raise` the cap's new value. */
export interface PauseAnswer {
  choice: PauseChoice
  raiseTo?: number
}

/** Where a paused run waits for the user (the session's pause desk); absent headless and in subagents. */
export interface PauseDesk {
  /** Resolves with the user's answer; with `stop` when the signal aborts. */
  wait(pauseId: string, signal: AbortSignal): Promise<PauseAnswer>
}

/** What one run's guard is built from. */
export interface RunGuardOptions {
  meter: SpendMeter
  loopBrake: LoopBrakeSettings
  identity: { sessionId: string; agentId: string; parentToolUseId?: string }
  emit(event: AgentEvent): void
  /** Where a pause waits, and the run's signal that ends the wait; without them a trip ends the run. */
  desk?: { desk: PauseDesk; signal: AbortSignal }
  /** The user chose "compact": the next prepare summarizes. */
  requestCompaction?(): void
  /** The prompt size of the agent's last request, kept across its runs (the cached prefix of its next one). */
  lastPrompt: { tokens: number }
}

let pauseCounter = 0

/**
 * The budget guard and loop brake of one run (a turn of the main agent, or a subagent's run).
 * Before each request it forecasts the request's cost (its prompt estimated from the request
 * itself, the previous request's prompt read back from the cache, the session's mean output) and
 * pauses when spend plus forecast would cross a cap — so spend stays at or below it — or when the
 * loop brake tripped on the last reply. With a desk (the app) the pause is a card the user
 * answers (raise the cap, compact, continue, stop); without one the run ends with
 * `budget_exceeded` or `loop_detected`. From 80 % of a cap it warns, once per cap.
 */
export class RunGuard implements RequestGuard {
  private readonly brake: LoopBrake
  private tripped: string | undefined
  private static readonly warned = new WeakMap<SpendMeter, Set<string>>()

  constructor(private readonly o: RunGuardOptions) {
    this.brake = new LoopBrake(o.loopBrake)
  }

  async beforeRequest(request: ModelRequest): Promise<GuardVerdict> {
    if (this.tripped) {
      const message = this.tripped
      this.tripped = undefined
      return this.pause('loop', message, ['continue', 'stop'])
    }
    const { expected, bound } = this.forecast(request)
    const likely = this.o.meter.lines(expected)
    this.status(expected, likely)
    this.warn(likely)
    // The check takes the bound, so spend stays at or below the cap whatever the cache does.
    const lines = this.o.meter.lines(bound)
    const over = lines.find((line) => line.spent > line.cap)
    if (!over) return { kind: 'go' }
    const next = over.key.endsWith('Usd') ? bound.usd : bound.tokens
    const message = `The ${budgetLabel(over.key)} cap is ${formatBudget(over.key, over.cap)}: ${formatBudget(over.key, over.spent - next)} spent, and the next request may cost up to ${formatBudget(over.key, next)} (budget.${over.key}).`
    return this.pause('budget', message, ['raise', 'compact', 'stop'], over)
  }

  afterReply(reply: GuardedReply): void {
    this.o.lastPrompt.tokens = promptTokensOf(reply.usage)
    this.tripped = this.brake.observe(reply.content)
    const lines = this.o.meter.lines()
    this.status({ usd: 0, tokens: 0 }, lines)
    this.warn(lines)
  }

  /**
   * The next request's cost: `expected` (what the status bar shows: the previous prompt read back
   * from the cache, the rest written, the mean output so far) and `bound` (what the check uses:
   * every prompt token at the cache-write price, the dearest way to send it, and the largest
   * output so far), so a cache miss cannot carry spend past a cap.
   */
  private forecast(request: ModelRequest): { expected: Spend; bound: Spend } {
    const prompt = fixedTokens(request.system, request.tools) + messagesTokens(request.messages)
    const cached = Math.min(this.o.lastPrompt.tokens, prompt)
    const { mean, most } = this.o.meter.outputTokens()
    const cost = (cachedTokens: number, outputTokens: number): number => forecastCostOf(request.model, { cachedTokens, newTokens: prompt - cachedTokens, outputTokens })
    return { expected: { usd: cost(cached, mean), tokens: prompt + mean }, bound: { usd: cost(0, most), tokens: prompt + most } }
  }

  private async pause(reason: PauseReason, message: string, choices: PauseChoice[], line?: BudgetLine): Promise<GuardVerdict> {
    const stopReason = reason === 'budget' ? 'budget_exceeded' : 'loop_detected'
    if (!this.o.desk) return { kind: 'stop', reason: stopReason, message }
    const pauseId = `pause-${++pauseCounter}`
    this.o.emit({ ...this.o.identity, type: 'session_pause', pauseId, reason, message, choices })
    const answer = await this.o.desk.desk.wait(pauseId, this.o.desk.signal)
    const choice = choices.includes(answer.choice) ? answer.choice : 'stop'
    this.o.emit({ ...this.o.identity, type: 'session_resume', pauseId, choice })
    switch (choice) {
      case 'continue':
        this.brake.reset()
        return { kind: 'go' }
      case 'raise':
        if (line && answer.raiseTo !== undefined && answer.raiseTo > 0) this.o.meter.raise(line.key, answer.raiseTo)
        return { kind: 'again' }
      case 'compact':
        this.o.requestCompaction?.()
        return { kind: 'again' }
      case 'stop':
        return { kind: 'stop', reason: stopReason, message }
    }
  }

  /** The status line: spend so far against each cap (`lines`), the forecast, and the level that spend plus forecast (`likely`) reaches. */
  private status(forecast: Spend, likely: BudgetLine[]): void {
    const share = Math.max(0, ...likely.map((line) => line.spent / line.cap))
    const level = share > 1 ? 'exceeded' : share >= WARN_SHARE ? 'warning' : 'ok'
    const { session } = this.o.meter
    const lines = this.o.meter.lines()
    this.o.emit({ ...this.o.identity, type: 'budget_status', spentUsd: session.usd, spentTokens: session.tokens, forecastUsd: forecast.usd, forecastTokens: forecast.tokens, lines, level })
  }

  /** One notice per cap and meter when spend plus forecast passes 80 % of it. */
  private warn(lines: BudgetLine[]): void {
    let warned = RunGuard.warned.get(this.o.meter)
    if (!warned) RunGuard.warned.set(this.o.meter, (warned = new Set()))
    for (const line of lines) {
      if (line.spent < line.cap * WARN_SHARE || warned.has(line.key)) continue
      warned.add(line.key)
      const percent = Math.round((line.spent / line.cap) * 100)
      this.o.emit({ ...this.o.identity, type: 'notice', level: 'warning', topic: 'budget', message: `${percent} % of the ${budgetLabel(line.key)} cap (${formatBudget(line.key, line.cap)}) is spent or about to be; at the cap the session pauses.` })
    }
  }
}
