import { ONE_MILLION_SUFFIX } from '../../../shared/context-window'
import { err, ok, type Result } from '../../../shared/ipc/result'
import { DEFAULT_ALIAS_MODELS, resolveModelName } from './aliases'

/** The model used when neither ANTHROPIC_MODEL nor an override names one. */
export const DEFAULT_MODEL = 'claude-sonnet-4-6'

/** Where requests go when neither the preferences nor `ANTHROPIC_BASE_URL` say (the SDK's default). */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com'

/** Where one part of the model configuration comes from. */
export type ConfigSource = 'settings' | 'environment' | 'default'

/**
 * The model and endpoint a new turn uses, by the same precedence as the model cache (preferences,
 * then the environment, then the default), with the source of each — what Settings and the status
 * bar show before any request was made.
 */
export function endpointInUse(
  preferences: { model?: string; baseUrl?: string },
  env: Record<string, string | undefined>,
): { model: string; modelFrom: ConfigSource; baseUrl: string; baseUrlFrom: ConfigSource } {
  const pick = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined)
  const [model, modelFrom] = choose(pick(preferences.model), pick(env['ANTHROPIC_MODEL']), DEFAULT_MODEL)
  const [baseUrl, baseUrlFrom] = choose(pick(preferences.baseUrl), pick(env['ANTHROPIC_BASE_URL']), DEFAULT_BASE_URL)
  return { model, modelFrom, baseUrl: baseUrl.replace(/\/+$/, ''), baseUrlFrom }
}

function choose(fromSettings: string | undefined, fromEnv: string | undefined, fallback: string): [string, ConfigSource] {
  if (fromSettings) return [fromSettings, 'settings']
  if (fromEnv) return [fromEnv, 'environment']
  return [fallback, 'default']
}

/** Claude Code's model aliases, each for the newest model of its family that Sous knows. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = DEFAULT_ALIAS_MODELS

/** The beta that opens the 1M-token context window, sent in `anthropic-beta`. */
export const CONTEXT_1M_BETA = 'context-1m-2025-08-07'

/**
 * A model name as Sous keeps it: an alias (`opus`) becomes its model; anything else is kept. A
 * `[1m]` suffix survives (`sonnet[1m]` → `claude-sonnet-4-6[1m]`): it sets the context window
 * compaction works to, and {@link wireModel} turns it into the API's terms.
 */
export function resolveModelAlias(name: string): string {
  return resolveModelName(name)
}

/**
 * What a request for a model name sends: the API's model id (the name without `[1m]`) and the
 * betas it needs (the 1M-window beta for a `[1m]` name). The API knows no `[1m]` ids.
 */
export function wireModel(name: string): { id: string; betas: string[] } {
  const id = name.replace(ONE_MILLION_SUFFIX, '')
  return { id, betas: id === name ? [] : [CONTEXT_1M_BETA] }
}

/** How we retry. Defaults mirror Claude Code: 0.5 s doubling to ~32 s with up to 25% jitter, 10 attempts. */
export interface RetryPolicy {
  /** Total attempts per stream() call, the first included. */
  maxAttempts: number
  /** First backoff delay; doubles with each backoff retry. */
  baseDelayMs: number
  /** Ceiling of one backoff delay. */
  maxDelayMs: number
  /** Fraction (0..1) a backoff delay may be shortened by at random, so clients don't retry in lockstep. */
  jitter: number
  /** Consecutive overloads (529) after which we switch to the fallback model, when there is one. */
  overloadsBeforeFallback: number
  /** A 429 asking us to wait longer than this is returned as an error rather than waited out. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 500,
  maxDelayMs: 32_000,
  jitter: 0.25,
  overloadsBeforeFallback: 3,
  maxRetryAfterMs: 5 * 60_000,
}

export interface ModelConfig {
  /** Sent as the API key. One of apiKey or authToken is needed to reach the API. */
  apiKey?: string
  /** Bearer token alternative (ANTHROPIC_AUTH_TOKEN), e.g. for gateways. */
  authToken?: string
  /** Defaults to the SDK's https://api.anthropic.com. */
  baseURL?: string
  model: string
  fallbackModel?: string
  /** Per-request timeout of the HTTP call (SDK default 10 min). */
  timeoutMs?: number
  retry: RetryPolicy
  /** How HTTP requests are sent (default the global fetch); a remote host's goes through the model relay. */
  fetch?: typeof globalThis.fetch
}

export type ModelConfigOverrides = Partial<Omit<ModelConfig, 'retry'>> & { retry?: Partial<RetryPolicy> }

/**
 * Builds the model configuration from the environment (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN,
 * ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, ANTHROPIC_FALLBACK_MODEL) with overrides on top.
 * Fails closed: a base URL that is not http(s) or a retry number out of range is an error, not a default.
 */
export function resolveModelConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: ModelConfigOverrides = {},
): Result<ModelConfig> {
  const pick = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined)
  const config: ModelConfig = {
    model: overrides.model ?? pick(env['ANTHROPIC_MODEL']) ?? DEFAULT_MODEL,
    retry: { ...DEFAULT_RETRY_POLICY, ...overrides.retry },
  }
  const apiKey = overrides.apiKey ?? pick(env['ANTHROPIC_API_KEY'])
  const authToken = overrides.authToken ?? pick(env['ANTHROPIC_AUTH_TOKEN'])
  const baseURL = overrides.baseURL ?? pick(env['ANTHROPIC_BASE_URL'])
  const fallbackModel = overrides.fallbackModel ?? pick(env['ANTHROPIC_FALLBACK_MODEL'])
  if (apiKey) config.apiKey = apiKey
  if (authToken) config.authToken = authToken
  if (fallbackModel) config.fallbackModel = fallbackModel
  if (overrides.timeoutMs !== undefined) config.timeoutMs = overrides.timeoutMs

  if (baseURL) {
    let url: URL
    try {
      url = new URL(baseURL)
    } catch {
      return err('INVALID_INPUT', `ANTHROPIC_BASE_URL is not a valid URL: ${baseURL}`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return err('INVALID_INPUT', `ANTHROPIC_BASE_URL must be http(s): ${baseURL}`)
    }
    config.baseURL = baseURL.replace(/\/+$/, '')
  }
  const problem = checkRetryPolicy(config.retry)
  if (problem) return err('INVALID_INPUT', problem)
  if (config.timeoutMs !== undefined && !(config.timeoutMs > 0)) return err('INVALID_INPUT', 'timeoutMs must be positive')
  return ok(config)
}

function checkRetryPolicy(policy: RetryPolicy): string | undefined {
  const integer = (n: number, min: number): boolean => Number.isInteger(n) && n >= min
  if (!integer(policy.maxAttempts, 1)) return 'retry.maxAttempts must be an integer >= 1'
  if (!(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) return 'retry delays must satisfy 0 <= baseDelayMs <= maxDelayMs'
  if (!(policy.jitter >= 0 && policy.jitter <= 1)) return 'retry.jitter must be between 0 and 1'
  if (!integer(policy.overloadsBeforeFallback, 1)) return 'retry.overloadsBeforeFallback must be an integer >= 1'
  if (!(policy.maxRetryAfterMs >= 0)) return 'retry.maxRetryAfterMs must be >= 0'
  return undefined
}
