import { MAX_HOOK_OUTPUT } from './run-command'
import { BLOCKING_EVENTS, type HookAggregate, type HookEvent, type HookPermission, type HookRun } from './types'

const RANK: Record<HookPermission, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

/** Claude Code caps each string a hook hands over (context, reasons) at 10,000 characters. */
export const MAX_HOOK_TEXT = 10_000

/** A hook's text for the model or the user, cut at {@link MAX_HOOK_TEXT} with a visible mark. */
export function capHookText(text: string): string {
  if (text.length <= MAX_HOOK_TEXT) return text
  return `${text.slice(0, MAX_HOOK_TEXT)}\n[… ${(text.length - MAX_HOOK_TEXT).toLocaleString('en-US')} more characters cut]`
}

/** An empty aggregate. */
export function emptyAggregate(): HookAggregate {
  return { blocked: false, additionalContext: [], stop: false, systemMessages: [], suppressOutput: false, errors: [], count: 0 }
}

/**
 * Folds one hook's run into the aggregate (Claude Code's protocol): exit 2 blocks and stderr is the
 * reason (JSON cannot override it); any other non-zero exit is a non-blocking error; exit 0 with
 * stdout starting with `{` is parsed as JSON; plain stdout of UserPromptSubmit/SessionStart is context.
 */
export function foldRun(agg: HookAggregate, event: HookEvent, run: HookRun, label: string): void {
  agg.count++
  if (run.error || run.timedOut) {
    agg.errors.push(`${label}: ${run.error ?? 'timed out'}`)
    return
  }
  if (run.exitCode === 2) {
    // Exit 2 is a block whatever stdout says (parseable or not): stderr is the reason.
    const stderr = capHookText(run.stderr.trim())
    if (BLOCKING_EVENTS.has(event)) {
      agg.blocked = true
      agg.blockReason = join(agg.blockReason, stderr || `blocked by hook ${label}`)
      if (event === 'PreToolUse' || event === 'PermissionRequest') bump(agg, 'deny', agg.blockReason)
    } else if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
      // Cannot block; stderr is shown to the model.
      if (stderr) agg.additionalContext.push(stderr)
    } else agg.errors.push(`${label}: exit 2: ${stderr}`)
    return
  }
  if (run.exitCode !== 0) {
    agg.errors.push(`${label}: exit ${run.exitCode}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`)
    return
  }
  const out = run.stdout.trim()
  if (!out.startsWith('{')) {
    if (out && (event === 'UserPromptSubmit' || event === 'SessionStart')) agg.additionalContext.push(capHookText(out))
    return
  }
  // An answer that cannot be read is no decision (the call goes through the normal permission flow).
  if (run.stdoutTruncated) {
    agg.errors.push(`${label}: stdout is over ${(MAX_HOOK_OUTPUT / 1_000_000).toString()} MB, so its JSON was not read (no decision)`)
    return
  }
  let json: unknown
  try {
    json = JSON.parse(out)
  } catch (e) {
    agg.errors.push(`${label}: stdout is not valid JSON, so it was read as no decision (${(e as Error).message})`)
    return
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return
  applyJson(agg, event, json as Record<string, unknown>)
}

function applyJson(agg: HookAggregate, event: HookEvent, json: Record<string, unknown>): void {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? capHookText(v) : undefined)
  if (json.continue === false) {
    agg.stop = true
    agg.stopReason = str(json.stopReason) ?? agg.stopReason
  }
  const systemMessage = str(json.systemMessage)
  if (systemMessage) agg.systemMessages.push(systemMessage)
  if (json.suppressOutput === true) agg.suppressOutput = true
  const reason = str(json.reason)
  // Deprecated top-level approve/block map to allow/deny for tool events.
  if (json.decision === 'block') {
    if (event === 'PreToolUse') bump(agg, 'deny', reason)
    else if (BLOCKING_EVENTS.has(event) || event === 'PostToolUse') {
      agg.blocked = true
      agg.blockReason = join(agg.blockReason, reason ?? 'blocked by hook')
    }
  } else if (json.decision === 'approve' && event === 'PreToolUse') bump(agg, 'allow', reason)
  const specific = json.hookSpecificOutput as Record<string, unknown> | undefined
  if (!specific || typeof specific !== 'object') return
  const ctx = str(specific.additionalContext)
  if (ctx) agg.additionalContext.push(ctx)
  if (event === 'PreToolUse') {
    const d = specific.permissionDecision
    if (d === 'allow' || d === 'deny' || d === 'ask' || d === 'defer') bump(agg, d, str(specific.permissionDecisionReason))
    if ('updatedInput' in specific && agg.updatedInput === undefined && (d === 'allow' || d === 'ask' || d === undefined)) agg.updatedInput = specific.updatedInput
  }
  if (event === 'PermissionRequest') {
    const dec = specific.decision as { behavior?: string; message?: string; updatedInput?: unknown } | undefined
    if (dec?.behavior === 'allow' || dec?.behavior === 'deny') bump(agg, dec.behavior, dec.message)
    if (dec?.behavior === 'allow' && dec.updatedInput !== undefined && agg.updatedInput === undefined) agg.updatedInput = dec.updatedInput
  }
}

function bump(agg: HookAggregate, p: HookPermission, reason: string | undefined): void {
  if (agg.permission === undefined || RANK[p] > RANK[agg.permission]) {
    agg.permission = p
    agg.permissionReason = reason
  }
}

function join(a: string | undefined, b: string): string {
  return a ? `${a}\n${b}` : b
}
