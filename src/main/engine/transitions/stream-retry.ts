import type { ModelErrorReason } from '../../services/model/types'

/** Re-issues of one request after its stream broke, before the run ends with `model_error`. */
export const MAX_STREAM_RETRIES = 3

const FATAL: ReadonlySet<ModelErrorReason> = new Set([
  'prompt_too_long',
  'authentication',
  'permission',
  'invalid_request',
  'not_found',
  'aborted',
])

/**
 * The mid-stream transition: an error after the stream had started (an `error` event, a dropped
 * connection) voids the partial reply; the request is re-issued with a doubling delay. Errors
 * before the stream are the model service's to retry, so they are final here.
 */
export function streamRetryDelay(
  error: { reason: ModelErrorReason; midStream: boolean },
  retriesSoFar: number,
  baseDelayMs: number,
): number | undefined {
  if (!error.midStream || FATAL.has(error.reason) || retriesSoFar >= MAX_STREAM_RETRIES) return undefined
  return baseDelayMs * 2 ** retriesSoFar
}
