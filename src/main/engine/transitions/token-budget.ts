import type { Message } from '../../services/model/types'

/**
 * Token-budget continuation, as the design has it: a user who writes "+500k" (or "use 2M tokens")
 * gives the turn an output-token target. A turn that would stop well under it goes on, with what
 * is left in a reminder; it stops at 90 % of the target, or when a continuation produced almost
 * nothing (the model has nothing more to do, and more nudges would only spend).
 */

/** Stop continuing once this share of the budget is spent. */
const ENOUGH = 0.9
/** A continuation that added fewer output tokens than this ends the run. */
const DIMINISHING = 500

/** The target a prompt sets ("+500k", "+1.5m", "use 200k tokens"), in tokens; undefined without one. */
export function parseTokenBudget(prompt: string): number | undefined {
  const match = /(?:^|\s)\+(\d+(?:\.\d+)?)([km])\b/i.exec(prompt) ?? /\b(?:use|spend)\s+(\d+(?:\.\d+)?)([km])\s+tokens\b/i.exec(prompt)
  if (!match) return undefined
  const amount = Number(match[1]) * (match[2]!.toLowerCase() === 'm' ? 1_000_000 : 1_000)
  return amount > 0 ? Math.round(amount) : undefined
}

/**
 * The message that keeps a stopping turn going, or undefined when it should stop. `spent`: output
 * tokens of the turn so far; `atLastNudge`: what had been spent at the previous continuation.
 */
export function budgetContinuation(budget: number, spent: number, atLastNudge: number | undefined): Message | undefined {
  if (spent >= budget * ENOUGH) return undefined
  if (atLastNudge !== undefined && spent - atLastNudge < DIMINISHING) return undefined
  const percent = Math.round((spent / budget) * 100)
  const text = `<system-reminder>\nStopped at ${percent}% of the user's token target (${spent.toLocaleString('en-US')} / ${budget.toLocaleString('en-US')} output tokens). ${(budget - spent).toLocaleString('en-US')} tokens of the budget remain: keep working on the task — go deeper, check your work, cover what you skipped. Do not summarize or stop early.\n</system-reminder>`
  return { role: 'user', content: [{ type: 'text', text }] }
}
