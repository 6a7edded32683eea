import { BLOCKING_EVENTS, type HookAggregate, type HookEvent, type HookPermission, type HookRun } from './types'

const RANK: Record<HookPermission, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

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
    if (BLOCKING_EVENTS.has(event)) {
      agg.blocked = true
      agg.blockReason = join(agg.blockReason, run.stderr.trim() || `blocked by hook ${label}`)
      if (event === 'PreToolUse' || event === 'PermissionRequest') bump(agg, 'deny', agg.blockReason)
    } else if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
      // Cannot block; stderr is shown to the model.
      if (run.stderr.trim()) agg.additionalContext.push(run.stderr.trim())
    } else agg.errors.push(`${label}: exit 2: ${run.stderr.trim()}`)
    return
  }
  if (run.exitCode !== 0) {
    agg.errors.push(`${label}: exit ${run.exitCode}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`)
    return
  }
  const out = run.stdout.trim()
  if (!out.startsWith('{')) {
    if (out && (event === 'UserPromptSubmit' || event === 'SessionStart')) agg.additionalContext.push(out)
    return
  }
  let json: Record<string, unknown>
  try {
    json = JSON.parse(out) as Record<string, unknown>
  } catch (e) {
    agg.errors.push(`${label}: stdout is not valid JSON (${(e as Error).message})`)
    return
  }
  applyJson(agg, event, json)
}

function applyJson(agg: HookAggregate, event: HookEvent, json: Record<string, unknown>): void {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  if (json.continue === false) {
    agg.stop = true
    agg.stopReason = str(json.stopReason) ?? agg.stopReason
  }
  if (str(json.systemMessage)) agg.systemMessages.push(json.systemMessage as string)
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
