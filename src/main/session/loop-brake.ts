import type { AssistantBlock } from '../services/model/types'
import type { LoopBrakeSettings } from './guard-settings'

/**
 * The loop brake of one agent's run: it watches the replies and says when the agent goes round in
 * circles — the same tool call with the same input `repeatedCalls` times in a row (across replies
 * and within one), or `idleRequests` replies in a row that bring neither a tool call nor a text not
 * seen before in this run. Pure bookkeeping; the guard decides what a trip does.
 */
export class LoopBrake {
  private lastCall: string | undefined
  private repeats = 0
  private idle = 0
  private readonly seen = new Set<string>()

  constructor(private readonly settings: LoopBrakeSettings) {}

  /** Takes one reply; returns why the run should pause, or undefined. */
  observe(content: readonly AssistantBlock[]): string | undefined {
    if (!this.settings.enabled) return undefined
    let fresh = false
    let tripped: string | undefined
    for (const block of content) {
      if (block.type === 'tool_use') {
        const key = `${block.name} ${stableJson(block.input)}`
        if (!this.seen.has(key)) fresh = true
        this.seen.add(key)
        this.repeats = key === this.lastCall ? this.repeats + 1 : 1
        this.lastCall = key
        if (this.repeats >= this.settings.repeatedCalls) {
          tripped ??= `The agent made the same ${block.name} call with the same input ${this.repeats} times in a row (loop brake: loopBrake.repeatedCalls = ${this.settings.repeatedCalls}).`
        }
      } else if (block.type === 'text' && block.text.trim() !== '') {
        const key = `text ${block.text.trim()}`
        if (!this.seen.has(key)) fresh = true
        this.seen.add(key)
      }
    }
    this.idle = fresh ? 0 : this.idle + 1
    if (tripped) return tripped
    if (this.idle >= this.settings.idleRequests) {
      return `${this.idle} model requests in a row brought no new tool call and no new text (loop brake: loopBrake.idleRequests = ${this.settings.idleRequests}).`
    }
    return undefined
  }

  /** The user said go on: count afresh from here. */
  reset(): void {
    this.repeats = 0
    this.idle = 0
    this.lastCall = undefined
  }
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same input. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
