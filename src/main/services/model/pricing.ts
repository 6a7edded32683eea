import type { Usage } from '../../../shared/protocol/agent-event'

/** USD per million tokens. Cache writes cost 1.25× input (5-minute TTL) or 2× (1 hour); reads 0.1×. */
export interface ModelPrice {
  input: number
  output: number
}

/**
 * List prices by model id prefix (dated ids such as `claude-sonnet-4-5-20250929` match their
 * alias). Longest prefix wins. Checked against Anthropic's pricing page at the time of writing;
 * an id not listed is priced as Sonnet and says so.
 */
const PRICES: Array<[prefix: string, price: ModelPrice]> = [
  ['claude-opus-4-6', { input: 5, output: 25 }],
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-1', { input: 15, output: 75 }],
  ['claude-opus-4-0', { input: 15, output: 75 }],
  ['claude-opus-4-2025', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4-5', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25 }],
]

const SONNET: ModelPrice = { input: 3, output: 15 }

/** The list price of a model, and a note when it is a guess. */
export function priceOf(model: string): { price: ModelPrice; note?: string } {
  let best: [string, ModelPrice] | undefined
  for (const entry of PRICES) {
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry
  }
  if (best) return { price: best[1] }
  return { price: SONNET, note: `unknown model ${model}: cost estimated at Sonnet prices` }
}

/** Cache-write tokens split by TTL, when the API reports it. */
export interface CacheWriteSplit {
  oneHourTokens: number
}

/** Dollar cost of one request's usage. */
export function costOf(model: string, usage: Usage, split: CacheWriteSplit = { oneHourTokens: 0 }): { costUsd: number; note?: string } {
  const { price, note } = priceOf(model)
  const oneHour = Math.min(split.oneHourTokens, usage.cacheWriteTokens)
  const fiveMinute = usage.cacheWriteTokens - oneHour
  const micro =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    fiveMinute * price.input * 1.25 +
    oneHour * price.input * 2 +
    usage.cacheReadTokens * price.input * 0.1
  const costUsd = micro / 1_000_000
  return note ? { costUsd, note } : { costUsd }
}

/** The shape of a request not sent yet, as a forecast sees it. */
export interface RequestForecast {
  /** Prompt tokens the previous request already sent (read back from the prompt cache). */
  cachedTokens: number
  /** Prompt tokens new since then (written to the cache). */
  newTokens: number
  /** Output tokens expected. */
  outputTokens: number
}

/**
 * The expected dollar cost of a request before it is sent: its cached prefix at the cache-read
 * price, what is new at the 5-minute cache-write price (1.25× input, the dearer way to send it),
 * and the expected output.
 */
export function forecastCostOf(model: string, forecast: RequestForecast): number {
  const { price } = priceOf(model)
  const micro = forecast.cachedTokens * price.input * 0.1 + forecast.newTokens * price.input * 1.25 + forecast.outputTokens * price.output
  return micro / 1_000_000
}
