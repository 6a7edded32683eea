import type { AgentEvent } from '../shared/protocol/agent-event'
import type { QueryResult } from '../main/engine/types'
import type { PermissionDenial } from './print-permissions'
import { STRUCTURED_OUTPUT_TOOL } from '../main/tools/structured-output'

/** The final JSON of `--output-format json` (and the last line of `stream-json`), shaped like Claude Code's. */
export interface PrintResult {
  type: 'result'
  subtype: 'success' | 'error_max_turns' | 'error_during_execution'
  is_error: boolean
  duration_ms: number
  num_turns: number
  result: string
  session_id: string
  total_cost_usd: number
  usage: {
    input_tokens: number
    output_tokens: number
    cache_creation_input_tokens: number
    cache_read_input_tokens: number
  }
  permission_denials: PermissionDenial[]
  /**
   * Why the run ended (Sous's terminal reason); `invalid_input` for a stream-json input line that is
   * not a user message; `background_wait_exceeded` when `--max-background-wait` stopped background work.
   */
  terminal_reason: QueryResult['reason'] | 'invalid_input' | 'background_wait_exceeded'
  /** One line on why it failed, when it did. */
  error?: string
  /** What the agent handed back with StructuredOutput (Claude Code's key), when it did. */
  structured_output?: unknown
  /** The plan the agent proposed with ExitPlanMode (`--permission-mode plan`), as Markdown. */
  plan?: string
  /** Where that plan is saved. */
  plan_file?: string
}

/** A plan the main agent proposed, as ExitPlanMode's result reports it. */
export interface ProposedPlan {
  plan: string
  filePath?: string
}

/** The plan in an ExitPlanMode result event of the main agent; undefined for any other event. */
export function proposedPlan(event: AgentEvent): ProposedPlan | undefined {
  if (event.type !== 'tool_end' || event.name !== 'ExitPlanMode' || event.parentToolUseId) return undefined
  const details = event.details as { plan?: unknown; filePath?: unknown } | undefined
  if (typeof details?.plan !== 'string') return undefined
  return { plan: details.plan, ...(typeof details.filePath === 'string' ? { filePath: details.filePath } : {}) }
}

/** What `--output-format text` prints: the final reply, then the proposed plan when there is one. */
export function printText(resultText: string, plan: ProposedPlan | undefined): string {
  if (!plan) return resultText.endsWith('\n') ? resultText : `${resultText}\n`
  const parts = [resultText.trim(), plan?.plan.trim()].filter((part): part is string => !!part)
  return `${parts.join('\n\n')}\n`
}

/** Builds the result object of a finished run. */
export function toPrintResult(run: QueryResult, sessionId: string, denials: PermissionDenial[], durationMs: number, plan?: ProposedPlan): PrintResult {
  const subtype = run.reason === 'completed' ? 'success' : run.reason === 'max_turns' ? 'error_max_turns' : 'error_during_execution'
  const out: PrintResult = {
    type: 'result',
    subtype,
    is_error: run.reason !== 'completed',
    duration_ms: Math.round(durationMs),
    num_turns: run.turns,
    result: run.resultText,
    session_id: sessionId,
    total_cost_usd: run.costUsd,
    usage: {
      input_tokens: run.usage.inputTokens,
      output_tokens: run.usage.outputTokens,
      cache_creation_input_tokens: run.usage.cacheWriteTokens,
      cache_read_input_tokens: run.usage.cacheReadTokens,
    },
    permission_denials: denials,
    terminal_reason: run.reason,
  }
  if (run.reason !== 'completed') out.error = failureLine(run)
  const structured = structuredOutputOf(run.messages)
  if (structured !== undefined) out.structured_output = structured
  if (plan) {
    out.plan = plan.plan
    if (plan.filePath) out.plan_file = plan.filePath
  }
  return out
}

/** The input of the run's last StructuredOutput call (Claude Code's `structured_output`), if it made one. */
function structuredOutputOf(messages: QueryResult['messages']): unknown {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue
    const call = [...message.content].reverse().find((block) => block.type === 'tool_use' && block.name === STRUCTURED_OUTPUT_TOOL)
    if (call?.type === 'tool_use') return call.input
  }
  return undefined
}

/** The one-line reason printed on stderr when a run did not complete. */
export function failureLine(run: Pick<QueryResult, 'reason' | 'message'>): string {
  return `sous: ${run.reason}${run.message ? `: ${run.message.split('\n')[0]}` : ''}`
}

/** One line of `--verbose` activity for people watching stderr; undefined for events not worth a line. */
export function verboseLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tool_state':
      return event.state === 'running' ? `→ ${event.name}${event.summary ? ` ${event.summary}` : ''}` : undefined
    case 'tool_end':
      return event.isError ? `✗ ${event.name}: ${event.content.split('\n')[0]}` : undefined
    case 'model_retry':
      return `… retrying the model request (${event.reason}, attempt ${event.attempt})`
    case 'model_fallback':
      return `… switched to ${event.to} (${event.reason})`
    case 'notice':
      return `${event.level}: ${event.message}`
    default:
      return undefined
  }
}

/**
 * What `sous -p` says on stderr when Bash finds no working sandbox (once per run, whatever the
 * output format): the reason, what follows from it in this mode, and how to get the sandbox.
 */
export function sandboxWarningLine(event: Extract<AgentEvent, { type: 'sandbox_unavailable' }>): string {
  const reason = event.reason.replace(/^sandbox unavailable:\s*/, '')
  const consequence = event.unconfined
    ? 'bypassPermissions runs commands without it (unconfined)'
    : 'commands that change files need approval, which -p cannot give (allow them with --allowedTools, or use --permission-mode bypassPermissions to run them unconfined)'
  return `sous: warning: the OS sandbox is unavailable (${reason}); ${consequence}. On Linux it needs bubblewrap and socat (e.g. apt install bubblewrap socat).`
}

/** The result line for a `--input-format stream-json` line that is not a user message (no turn ran). */
export function inputErrorResult(sessionId: string, error: string): PrintResult {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    duration_ms: 0,
    num_turns: 0,
    result: '',
    session_id: sessionId,
    total_cost_usd: 0,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    permission_denials: [],
    terminal_reason: 'invalid_input',
    error,
  }
}
