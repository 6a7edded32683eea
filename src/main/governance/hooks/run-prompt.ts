import type { HookEvent, HookRun } from './types'

/** A side question to a small model: what a `prompt` hook asks with (the session's model service). */
export type HookModelAsk = (request: { system: string; user: string; model?: string; signal: AbortSignal }) => Promise<string>

/** What one `prompt` hook needs. */
export interface RunPromptOptions {
  event: HookEvent
  /** The hook's instruction; `$ARGUMENTS` is replaced by the input JSON (appended when absent). */
  prompt: string
  input: string
  model?: string
  ask?: HookModelAsk
  timeoutMs: number
  signal?: AbortSignal
}

const SYSTEM = `You are a hook in a coding agent: you judge one event against the user's instruction below.
Answer with one JSON object and nothing else:
{"decision": "allow" | "deny" | "ask", "reason": "<one line>"}
"allow" lets the action proceed, "deny" stops it and tells the agent the reason, "ask" leaves it to the user.
(Claude Code's form {"ok": true} / {"ok": false, "reason": "..."} is read as well.)`

/** A verdict read from the model's reply. */
type Verdict = { decision: 'allow' | 'deny' | 'ask' | 'none'; reason?: string }

/**
 * Runs one `prompt` hook: a small model request over the hook's instruction and the event's input,
 * whose allow / deny / ask (with a reason) becomes the JSON a command hook would print, so it folds
 * through the same protocol. A reply that is not a clean verdict, a model error or a timeout is an
 * `error` (the event's non-blocking error). Contract: never throws.
 */
export async function runPromptHook(o: RunPromptOptions): Promise<HookRun> {
  const started = performance.now()
  const done = (fields: Partial<HookRun>): HookRun => ({ exitCode: null, stdout: '', stderr: '', timedOut: false, ...fields, durationMs: Math.round(performance.now() - started) })
  if (!o.ask) return done({ error: 'prompt hook: no model is available to this session' })
  const user = o.prompt.includes('$ARGUMENTS') ? o.prompt.split('$ARGUMENTS').join(o.input) : `${o.prompt}\n\nHook input:\n${o.input}`
  const timeout = AbortSignal.timeout(o.timeoutMs)
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout
  let reply: string
  try {
    reply = await o.ask({ system: SYSTEM, user, ...(o.model && { model: o.model }), signal })
  } catch (error) {
    if (timeout.aborted) return done({ timedOut: true, error: `prompt hook timed out after ${o.timeoutMs} ms` })
    return done({ error: `prompt hook's model request failed: ${error instanceof Error ? error.message : String(error)}` })
  }
  const verdict = readVerdict(reply)
  if (!verdict) return done({ stderr: reply.slice(0, 2000), error: 'prompt hook: the model did not answer with a clean allow / deny / ask (no decision)' })
  return done({ exitCode: 0, stdout: JSON.stringify(asHookOutput(o.event, verdict)), stderr: reply.slice(0, 2000) })
}

/** The verdict in a reply: one JSON object (a code fence around it is fine); undefined for anything else. */
export function readVerdict(reply: string): Verdict | undefined {
  const text = reply.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof json !== 'object' || json === null) return undefined
  const { decision, ok, reason } = json as { decision?: unknown; ok?: unknown; reason?: unknown }
  const why = typeof reason === 'string' && reason.trim() ? reason.trim() : undefined
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') return { decision, ...(why && { reason: why }) }
  if (decision === undefined && ok === true) return { decision: 'none', ...(why && { reason: why }) }
  if (decision === undefined && ok === false) return { decision: 'deny', ...(why && { reason: why }) }
  return undefined
}

/** The verdict as the JSON a command hook of that event would print. */
function asHookOutput(event: HookEvent, verdict: Verdict): Record<string, unknown> {
  const reason = verdict.reason ?? `prompt hook: ${verdict.decision}`
  if (event === 'PreToolUse') {
    if (verdict.decision === 'none') return {}
    return { hookSpecificOutput: { hookEventName: event, permissionDecision: verdict.decision, permissionDecisionReason: reason } }
  }
  if (event === 'PermissionRequest') {
    if (verdict.decision !== 'allow' && verdict.decision !== 'deny') return {}
    return { hookSpecificOutput: { hookEventName: event, decision: { behavior: verdict.decision, ...(verdict.decision === 'deny' && { message: reason }) } } }
  }
  // Other events know block or not: deny blocks where the event can be blocked.
  return verdict.decision === 'deny' ? { decision: 'block', reason } : {}
}
