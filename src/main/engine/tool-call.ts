import type { ToolResultBlock, ToolUseBlock } from '../services/model/types'
import { resultText } from '../tools/result-text'
import { runToolCall } from '../tools/run-tool'
import type { AnyTool, ToolContext, ToolResult } from '../tools/types'
import { preview } from './events'
import { watchLongCall, type SummarizeCall } from './tool-summary'
import type { CanUseTool, EventBody, QueryHooks, ToolPermission } from './types'

/** What one call needs besides its block. */
export interface RunToolDeps {
  tools: ReadonlyMap<string, AnyTool>
  /** True for a deferred tool no ToolSearch result has loaded yet (its schema is unknown to the model). */
  notLoaded?: (name: string) => boolean
  canUseTool: CanUseTool
  hooks?: QueryHooks
  /** The tool context without the per-call fields. */
  context: Omit<ToolContext, 'toolUseId' | 'signal' | 'progress'>
  emit: (event: EventBody) => void
  /** Queues text for the model's next request (a hook's context after a call). */
  remind?: (text: string, source: string) => void
  /** The small model's summaries of calls that run long (see tool-summary.ts); absent: none. */
  summaries?: { summarize: SummarizeCall; afterMs: number }
}

/** One finished call: the block for the model, whether permission was refused, whether the turn must end. */
export interface CallOutcome {
  block: ToolResultBlock
  denial?: { toolName: string; toolUseId: string; input: unknown; message: string }
  /** A hook answered `continue: false`: the turn ends once every result is in, for this reason. */
  stop?: string
  /** The tool's result said the turn ends with it (a final-output tool). */
  ends?: true
}

/** How much of a call's progress output its summary request carries (the tail: what it does now). */
const PROGRESS_FOR_SUMMARY = 2_000

/** Parses a call's input against its tool; `ok: false` with the reason when the tool is unknown or the input invalid. */
export function parseInput(tool: AnyTool | undefined, input: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!tool) return { ok: false, error: 'unknown tool' }
  const parsed = tool.inputSchema.safeParse(input)
  if (parsed.success) return { ok: true, value: parsed.data }
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`)
    .join('; ')
  return { ok: false, error: issues }
}

/** Fail closed: a call is concurrency-safe only if its tool exists, its input parses and the tool says so. */
export function isSafeCall(tool: AnyTool | undefined, input: unknown): boolean {
  const parsed = parseInput(tool, input)
  if (!tool || !parsed.ok) return false
  try {
    return tool.isConcurrencySafe(parsed.value) === true
  } catch {
    return false
  }
}

/**
 * Runs one tool call from permission to result: find → parse → validate (the tool's own check) →
 * canUseTool (which runs the PreToolUse hooks) → execute → PostToolUse. Contract: never throws;
 * every path yields exactly one tool_result and one `tool_end`; a permission check or hook that
 * throws is reported as a notice.
 */
export async function processToolCall(block: ToolUseBlock, signal: AbortSignal, deps: RunToolDeps): Promise<CallOutcome> {
  const tool = deps.tools.get(block.name)
  const finish = (result: ToolResult, denial?: CallOutcome['denial'], stop?: string): CallOutcome => {
    const isError = result.isError === true
    deps.emit({ type: 'tool_state', toolUseId: block.id, name: block.name, state: isError ? 'error' : 'done' })
    deps.emit({
      type: 'tool_end',
      toolUseId: block.id,
      name: block.name,
      isError,
      content: preview(resultText(result.content)),
      details: result.details,
      // An error while the turn is being stopped is the stop's doing, not the tool's.
      ...(isError && signal.aborted && { interrupted: true as const }),
    })
    const out: ToolResultBlock = { type: 'tool_result', tool_use_id: block.id, content: result.content }
    if (isError) out.is_error = true
    return { block: out, ...(denial && { denial }), ...(stop !== undefined && { stop }), ...(result.endsTurn === true && !isError && { ends: true as const }) }
  }
  if (!tool) {
    const names = [...deps.tools.keys()].join(', ')
    return finish({ content: `Error: no tool named ${block.name}. Available tools: ${names}.`, isError: true })
  }
  if (deps.notLoaded?.(block.name)) {
    return finish({ content: `<tool_use_error>InputValidationError: ${block.name} is a deferred tool and its schema is not loaded yet. Call ToolSearch with query "select:${block.name}" first, then call ${block.name}.</tool_use_error>`, isError: true })
  }
  const parsed = parseInput(tool, block.input)
  if (!parsed.ok) {
    return finish({ content: `InputValidationError: ${block.name}: ${parsed.error}`, isError: true })
  }
  let progressTail = ''
  const ctx: ToolContext = {
    ...deps.context,
    toolUseId: block.id,
    signal,
    progress: (text) => {
      progressTail = (progressTail + text).slice(-PROGRESS_FOR_SUMMARY)
      deps.emit({ type: 'tool_progress', toolUseId: block.id, text })
    },
  }
  // The tool's own checks (read before edit, a unique match, not stale) come before any question,
  // so the user is only asked about calls that can run — and sees the real diff.
  const invalid = await validateCall(tool, parsed.value, ctx)
  if (invalid !== undefined) return finish({ content: invalid, isError: true })
  let input = parsed.value
  const checked = await reported(deps, 'The permission check', () => deps.canUseTool(tool, input, block.id, { signal }))
  // A permission check that crashed fails closed: the call is denied, saying why.
  const decision: ToolPermission = checked.ok ? checked.value : { behavior: 'deny', message: `The permission check failed: ${checked.error}` }
  if (decision.behavior === 'deny') {
    const message = decision.message
    return finish(
      { content: `Permission to use ${block.name} was denied: ${message}`, isError: true, ...(decision.rejectedByUser && { details: { rejected: true } }) },
      { toolName: block.name, toolUseId: block.id, input, message },
      decision.stopTurn,
    )
  }
  if (decision.updatedInput !== undefined) input = decision.updatedInput
  let runner: AnyTool = tool
  if (decision.runAs !== undefined && decision.runAs !== tool.name) {
    const substitute = deps.tools.get(decision.runAs)
    const reparsed = parseInput(substitute, input)
    if (!substitute || !reparsed.ok) {
      const why = substitute ? (reparsed.ok ? '' : reparsed.error) : 'no such tool in this session'
      return finish({ content: `Error: the approved change could not be applied as ${decision.runAs}: ${why}`, isError: true })
    }
    runner = substitute
    input = reparsed.value
  }
  if (signal.aborted) return finish(notExecuted('the turn was interrupted'))
  const checkpointed = mayChange(runner, input) ? ctx.checkpoints : undefined
  const checkpointNote = await checkpointed?.before({ toolUseId: block.id, name: runner.name, agentId: ctx.agentId, summary: summaryOf(runner, input) }).catch(() => undefined)
  // Said once, on this call's card; the user chose to run the call, so it runs.
  if (checkpointNote) deps.emit({ type: 'tool_progress', toolUseId: block.id, text: checkpointNote })
  deps.emit({ type: 'tool_state', toolUseId: block.id, name: block.name, state: 'running' })
  const summaries = deps.summaries
  const calledInput = input
  const stopWatch = summaries
    ? watchLongCall({
        ...summaries,
        request: (elapsedMs) => ({ toolName: runner.name, summary: summaryOf(runner, calledInput), input: calledInput, progress: progressTail, elapsedMs }),
        emit: (summary) => deps.emit({ type: 'tool_summary', toolUseId: block.id, summary }),
      })
    : undefined
  let result: ToolResult
  try {
    result = await runToolCall(runner, input, ctx)
  } catch (error) {
    result = { content: `Error: ${block.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true }
  } finally {
    stopWatch?.()
  }
  // The tree the call left is recorded off the critical path: the recorder's chain makes the
  // next call's checkpoint wait for it, and it is taken once. A PostToolUse hook may change
  // files (a formatter) — those changes are someone else's — so with one configured it waits.
  // The rest of its checkpoint (stored while it ran) is claimed first, then the after-state is
  // enqueued at once (before any other call's checkpoint), then the rest is awaited: a failure
  // there is said on this call's card, once, as one before it would be.
  const tail = checkpointed?.tail?.(block.id).catch(() => undefined)
  const left = checkpointed?.after(block.id).catch(() => undefined)
  const lateNote = await tail
  if (lateNote) deps.emit({ type: 'tool_progress', toolUseId: block.id, text: lateNote })
  if (left && deps.hooks?.postToolUse && (deps.hooks.runsPostToolUseHooks?.() ?? true)) await left
  if (decision.userNote && result.isError !== true) result = withNote(result, decision.userNote)
  const postToolUse = deps.hooks?.postToolUse
  const after = postToolUse ? await reported(deps, 'The PostToolUse hook', () => postToolUse({ tool: runner, input, toolUseId: block.id }, result)) : undefined
  const outcome = after?.ok ? after.value : undefined
  if (outcome?.additionalContext) deps.remind?.(outcome.additionalContext, 'hook')
  return finish(result, undefined, outcome?.stopReason)
}

/**
 * The tool's own check of a parsed input; a message for the model when the call cannot run. The
 * tool layer checks again when it executes (the file may change while the user decides).
 */
async function validateCall(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<string | undefined> {
  try {
    return (await tool.validate?.(input, ctx)) || undefined
  } catch (error) {
    return `Error: ${tool.name} could not check its input: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Fail closed: a call may change the workspace unless its tool says it is read-only or bookkeeping. */
function mayChange(tool: AnyTool, input: unknown): boolean {
  try {
    return !(tool.isReadOnly(input) || tool.isBookkeeping(input))
  } catch {
    return true
  }
}

function summaryOf(tool: AnyTool, input: unknown): string {
  try {
    return tool.summarize(input)
  } catch {
    return tool.name
  }
}

/** The result with the user's note after the tool's own text. */
function withNote(result: ToolResult, note: string): ToolResult {
  const content = typeof result.content === 'string' ? `${result.content}\n\n${note}` : [...result.content, { type: 'text' as const, text: note }]
  return { ...result, content }
}

/** The result a call gets when it never ran or was cut off. */
export function notExecuted(why: string): ToolResult {
  return { content: `Tool call not executed because ${why}.`, isError: true }
}

/**
 * Runs a callback that must not throw (the permission check, a hook). If it does, the failure is
 * reported as a warning notice (the user sees it; the loop goes on) and handed back as a value.
 */
async function reported<T>(deps: RunToolDeps, what: string, callback: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await callback() }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    deps.emit({ type: 'notice', level: 'warning', message: `${what} failed: ${message}` })
    return { ok: false, error: message }
  }
}
