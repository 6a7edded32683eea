import { isIP } from 'node:net'
import { MAX_HOOK_OUTPUT } from './run-command'
import type { HookRun } from './types'

/** What one `http` hook needs. */
export interface RunHttpOptions {
  url: string
  /** The hook's input JSON, sent as the body. */
  body: string
  headers?: Record<string, string>
  /** Variables a header value may name (`$NAME`, `${NAME}`); any other reference becomes empty. */
  allowedEnvVars?: string[]
  env: NodeJS.ProcessEnv
  /** `allowedHttpHookUrls`: the URL patterns besides the local machine it may reach. */
  allowedUrls: readonly string[]
  timeoutMs: number
  signal?: AbortSignal
}

/**
 * Runs one `http` hook as Claude Code does: POSTs the input JSON and reads the response body as a
 * command hook's stdout (same protocol). Reaches only the local machine, or a URL an
 * `allowedHttpHookUrls` pattern names; redirects are not followed (they could leave that set).
 * Unreachable, slow, non-2xx or non-JSON answers come back as `error` (the event's non-blocking error).
 * Contract: never throws.
 */
export async function runHttpHook(o: RunHttpOptions): Promise<HookRun> {
  const started = performance.now()
  const done = (fields: Partial<HookRun>): HookRun => ({ exitCode: null, stdout: '', stderr: '', timedOut: false, ...fields, durationMs: Math.round(performance.now() - started) })
  const refused = urlRefusal(o.url, o.allowedUrls)
  if (refused) return done({ error: refused })
  const timeout = AbortSignal.timeout(o.timeoutMs)
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetch(o.url, { method: 'POST', body: o.body, headers: { ...interpolated(o.headers, o.allowedEnvVars, o.env), 'content-type': 'application/json' }, redirect: 'manual', signal })
  } catch (error) {
    if (timeout.aborted) return done({ timedOut: true, error: `http hook timed out after ${o.timeoutMs} ms` })
    return done({ error: `http hook could not reach ${o.url}: ${causeOf(error)}` })
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    return done({ timedOut: timeout.aborted, error: timeout.aborted ? `http hook timed out after ${o.timeoutMs} ms` : `http hook's response could not be read: ${causeOf(error)}` })
  }
  if (response.status < 200 || response.status > 299) return done({ stderr: text.slice(0, 2000), error: `http hook answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}` })
  const body = text.trim()
  if (body !== '') {
    try {
      JSON.parse(body)
    } catch {
      return done({ stderr: body.slice(0, 2000), error: 'http hook answered with a body that is not JSON (no decision)' })
    }
  }
  return done({ exitCode: 0, stdout: body.slice(0, MAX_HOOK_OUTPUT), ...(body.length > MAX_HOOK_OUTPUT && { stdoutTruncated: true }) })
}

/** Why a URL may not be reached, if it may not: http(s) only; loopback, or matched by a pattern. */
export function urlRefusal(raw: string, allowed: readonly string[]): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return `http hook URL is not a URL: ${raw}`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `http hook URL must be http or https: ${raw}`
  if (isLoopback(url.hostname)) return undefined
  if (allowed.some((pattern) => urlMatches(url.href, pattern) || urlMatches(raw, pattern))) return undefined
  return `http hook blocked: ${raw} is not on this machine and matches no pattern in allowedHttpHookUrls`
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

/** Claude Code's URL patterns: `*` matches any run of characters; the rest is literal, whole URL. */
function urlMatches(url: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${source}$`).test(url)
}

function interpolated(headers: Record<string, string> | undefined, allowed: string[] = [], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    // Content-Length and Transfer-Encoding come from the body (as Claude Code ignores them).
    if (/^(content-length|transfer-encoding)$/i.test(name)) continue
    out[name] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced: string | undefined, bare: string | undefined) => {
      const key = (braced ?? bare) as string
      return allowed.includes(key) ? (env[key] ?? '') : ''
    })
  }
  return out
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause
  if (cause instanceof Error) return cause.message
  return error instanceof Error ? error.message : String(error)
}
