/** Small helpers around SDK requests, kept free of SDK imports (see `sdk.ts`). */

/** JSON-RPC error codes the SDK uses (its `ErrorCode`), restated so callers need not load the SDK. */
export const REQUEST_TIMEOUT = -32001
export const CONNECTION_CLOSED = -32000

/** The JSON-RPC error code of an SDK error (`McpError.code`), if it has one. */
export function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'number' ? code : undefined
}

/**
 * A signal of its own for one request that follows `parent`. The SDK adds an abort listener to the
 * signal of every request and never removes it; on the turn's long-lived signal those would pile up
 * call after call, so each request gets a short-lived child instead.
 */
export function childSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController()
  const forward = () => controller.abort(parent.reason)
  if (parent.aborted) forward()
  else parent.addEventListener('abort', forward, { once: true })
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', forward) }
}

/** "30 s" for whole seconds, "500 ms" otherwise. */
export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
