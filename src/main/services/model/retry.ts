import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import type { RetryPolicy } from './config'
import type { ModelErrorReason } from './types'

/** What went wrong with one attempt, and whether another attempt may help. */
export interface ClassifiedError {
  reason: ModelErrorReason
  message: string
  status?: number
  retryable: boolean
  /** From `retry-after-ms` or `retry-after`, when the server asked for a delay. */
  retryAfterMs?: number
}

const PROMPT_TOO_LONG = [/prompt is too long/i, /input length and `?max_tokens`? exceed context limit/i]

/**
 * Maps anything an SDK call can throw to a {@link ClassifiedError}. Statuses decide first; a
 * body-less mid-stream `event: error` is classified by its error type; anything else is a
 * connection failure when it looks like one.
 */
export function classifyError(error: unknown, signal?: AbortSignal): ClassifiedError {
  const message = (error instanceof APIError ? innerMessage(error.error) : undefined) ?? errorMessage(error)
  if (signal?.aborted || error instanceof APIUserAbortError) return { reason: 'aborted', message: 'request aborted', retryable: false }
  if (error instanceof APIConnectionError) return { reason: 'connection', message, retryable: true }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined
    const type = error.type ?? bodyErrorType(error.error)
    const base = status !== undefined ? { message, status } : { message }
    if (status === undefined) return { ...base, ...byType(type) }
    if (status === 400 && PROMPT_TOO_LONG.some((re) => re.test(message))) return { ...base, reason: 'prompt_too_long', retryable: false }
    if (status === 429) {
      // A reached spend limit will not lift by waiting a few seconds.
      const spendLimit = error.errorCode === 'enforced_spend_limit_reached'
      const retryAfterMs = retryAfterOf(error.headers)
      return { ...base, reason: 'rate_limited', retryable: !spendLimit, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }
    }
    if (status === 529 || type === 'overloaded_error') return { ...base, reason: 'overloaded', retryable: true }
    if (status === 401) return { ...base, reason: 'authentication', retryable: false }
    if (status === 402 || status === 403) return { ...base, reason: 'permission', retryable: false }
    if (status === 404) return { ...base, reason: 'not_found', retryable: false }
    if (status === 408 || status === 409 || status >= 500) return { ...base, reason: 'server_error', retryable: true }
    return { ...base, reason: 'invalid_request', retryable: false }
  }
  if (looksLikeNetworkError(error)) return { reason: 'connection', message, retryable: true }
  return { reason: 'unknown', message, retryable: false }
}

function byType(type: string | null | undefined): Pick<ClassifiedError, 'reason' | 'retryable'> {
  switch (type) {
    case 'overloaded_error':
      return { reason: 'overloaded', retryable: true }
    case 'rate_limit_error':
      return { reason: 'rate_limited', retryable: true }
    case 'api_error':
    case 'timeout_error':
      return { reason: 'server_error', retryable: true }
    case 'invalid_request_error':
      return { reason: 'invalid_request', retryable: false }
    default:
      return { reason: 'unknown', retryable: false }
  }
}

function innerMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const message = (body as { error?: { message?: unknown } }).error?.message
  return typeof message === 'string' && message !== '' ? message : undefined
}

function bodyErrorType(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const inner = (body as { error?: { type?: unknown }; type?: unknown }).error
  const type = inner?.type ?? (body as { type?: unknown }).type
  return typeof type === 'string' ? type : undefined
}

/** `retry-after-ms` wins over `retry-after` (seconds, or an HTTP date). */
export function retryAfterOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '')
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms)
  const raw = headers.get('retry-after')
  if (raw === null || raw.trim() === '') return undefined
  const seconds = Number(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const date = Date.parse(raw)
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined
}

/**
 * Delay before backoff retry number `n` (0-based): base·2ⁿ capped at maxDelayMs, then shortened by
 * up to `jitter` of itself at random.
 */
export function backoffDelay(n: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(n, 30))
  return Math.round(ceiling * (1 - policy.jitter * random()))
}

function looksLikeNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code
  if (typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE)/.test(code)) return true
  return /terminated|socket|network|premature close|other side closed|fetch failed/i.test(error.message)
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : 'unknown error'
}
