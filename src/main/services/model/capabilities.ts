import { EffortLevel } from '../../../shared/ipc/effort'
import { wireModel } from './config'

export type { EffortLevel }
/** How much effort `output_config.effort` asks of a model (the SDK's `OutputConfig.effort`). */
export const EFFORT_LEVELS: readonly EffortLevel[] = EffortLevel.options

/** What a model can do on the wire, by model id prefix. */
export interface ModelCapabilities {
  /** The most output tokens one reply may have: what the first request of a turn asks for. */
  maxOutputTokens: number
  /**
   * Extended thinking: `adaptive` (the model decides how much; `thinking: {type: "adaptive"}`),
   * `budget` (`thinking: {type: "enabled", budget_tokens}`), or `none` (no thinking field).
   */
  thinking: 'adaptive' | 'budget' | 'none'
  /** Whether the model takes `output_config.effort`. */
  effort: boolean
}

/**
 * The one table of model capabilities. Longest prefix wins, so a dated id (`claude-sonnet-4-5-20250929`)
 * takes its family's row. Ceilings are the models' documented output limits; Claude Code 2.1.328
 * asks the newest models for 128,000 and Sonnet 4.5 for a 31,999-token thinking budget.
 * An id not listed (a gateway's name, a newer model) gets the conservative last row: a ceiling
 * every current model accepts and no thinking, so a request never fails for a field it sent;
 * a too-high ceiling is still recovered from (see `ceilingFromError`).
 */
const TABLE: Array<[prefix: string, capabilities: ModelCapabilities]> = [
  ['claude-opus-4-6', { maxOutputTokens: 128_000, thinking: 'adaptive', effort: true }],
  ['claude-opus-4-7', { maxOutputTokens: 128_000, thinking: 'adaptive', effort: true }],
  ['claude-opus-4-8', { maxOutputTokens: 128_000, thinking: 'adaptive', effort: true }],
  ['claude-opus-5', { maxOutputTokens: 128_000, thinking: 'adaptive', effort: true }],
  ['claude-sonnet-4-6', { maxOutputTokens: 64_000, thinking: 'adaptive', effort: true }],
  ['claude-sonnet-5', { maxOutputTokens: 128_000, thinking: 'adaptive', effort: true }],
  ['claude-haiku-5', { maxOutputTokens: 64_000, thinking: 'adaptive', effort: true }],
  ['claude-opus-4-5', { maxOutputTokens: 64_000, thinking: 'budget', effort: true }],
  ['claude-sonnet-4-5', { maxOutputTokens: 64_000, thinking: 'budget', effort: false }],
  ['claude-haiku-4-5', { maxOutputTokens: 64_000, thinking: 'budget', effort: false }],
  ['claude-opus-4-1', { maxOutputTokens: 32_000, thinking: 'budget', effort: false }],
  ['claude-opus-4-', { maxOutputTokens: 32_000, thinking: 'budget', effort: false }],
  ['claude-sonnet-4-', { maxOutputTokens: 64_000, thinking: 'budget', effort: false }],
  ['claude-3-7-sonnet', { maxOutputTokens: 64_000, thinking: 'budget', effort: false }],
  ['claude-3-5-haiku', { maxOutputTokens: 8_192, thinking: 'none', effort: false }],
  ['claude-3-haiku', { maxOutputTokens: 4_096, thinking: 'none', effort: false }],
]

const UNKNOWN: ModelCapabilities = { maxOutputTokens: 32_000, thinking: 'none', effort: false }

/** Claude Code's thinking budget for models that need one (Sonnet 4.5 in 2.1.328). */
export const DEFAULT_THINKING_BUDGET = 31_999
/** The API's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1_024

/** The capabilities of a model name (a `[1m]` suffix is ignored). */
export function capabilitiesOf(model: string): ModelCapabilities {
  const id = wireModel(model).id
  let best: [string, ModelCapabilities] | undefined
  for (const entry of TABLE) {
    if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry
  }
  return best?.[1] ?? UNKNOWN
}

/** What the user asked for thinking and effort (settings, flags, `/think`). */
export interface ReasoningPreference {
  /** Thinking on where the model has it (`alwaysThinkingEnabled`; default true). */
  thinking?: boolean
  /** `MAX_THINKING_TOKENS`: the budget for budget models; 0 turns thinking off everywhere. */
  thinkingBudget?: number
  /** `effortLevel` / `--effort`; sent only to models that take it. */
  effort?: EffortLevel
  /** How thinking comes back: `summarized` (shown folded in the app) or `omitted` (headless, as Claude Code's -p). */
  display?: 'summarized' | 'omitted'
}

/** The request's thinking field, in our shape (the wire's one to one). */
export type ThinkingConfig =
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }

/** The parts of a request that depend on the model and the user's reasoning preference. */
export interface RequestReasoning {
  maxTokens: number
  thinking?: ThinkingConfig
  effort?: EffortLevel
}

/**
 * Output limit, thinking and effort for a request to `model`: the model's ceiling unless
 * `maxTokens` overrides it (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`, see {@link maxOutputFromEnv}). A
 * budget is kept below the limit (the API requires it) and at least the API's minimum, else
 * thinking is left off.
 */
export function requestReasoning(model: string, preference: ReasoningPreference = {}, maxTokensOverride?: number): RequestReasoning {
  const capabilities = capabilitiesOf(model)
  const maxTokens = maxTokensOverride ?? capabilities.maxOutputTokens
  const out: RequestReasoning = { maxTokens }
  if (capabilities.effort && preference.effort) out.effort = preference.effort
  const on = preference.thinking !== false && preference.thinkingBudget !== 0
  if (!on) return out
  const display = preference.display ? { display: preference.display } : {}
  if (capabilities.thinking === 'adaptive') out.thinking = { type: 'adaptive', ...display }
  if (capabilities.thinking === 'budget') {
    const budget = Math.min(preference.thinkingBudget ?? DEFAULT_THINKING_BUDGET, maxTokens - 1)
    if (budget >= MIN_THINKING_BUDGET) out.thinking = { type: 'enabled', budget_tokens: budget, ...display }
  }
  return out
}

/**
 * The model's real ceiling from the API's 400 for a too-large limit (`max_tokens: 128001 > 64000,
 * which is the maximum allowed number of output tokens for …`), so an unknown model's first
 * request is sent again once with the limit the API named.
 */
export function ceilingFromError(message: string): number | undefined {
  const match = /max_tokens:\s*\d+\s*>\s*(\d+)/.exec(message)
  const ceiling = match ? Number(match[1]) : NaN
  return Number.isInteger(ceiling) && ceiling > 0 ? ceiling : undefined
}

/** `CLAUDE_CODE_MAX_OUTPUT_TOKENS` as a positive integer, or undefined (unset, or not one: then the model's ceiling applies). */
export function maxOutputFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = Number(env['CLAUDE_CODE_MAX_OUTPUT_TOKENS']?.trim() || NaN)
  return Number.isInteger(value) && value > 0 ? value : undefined
}

/** `MAX_THINKING_TOKENS` as a number (0 turns thinking off), or undefined when unset or not a non-negative integer. */
export function thinkingBudgetFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env['MAX_THINKING_TOKENS']?.trim()
  if (!raw) return undefined
  const value = Number(raw)
  return Number.isInteger(value) && value >= 0 ? value : undefined
}
