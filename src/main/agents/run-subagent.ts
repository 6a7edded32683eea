import type { AgentEndStatus, AgentEvent, Usage } from '../../shared/protocol/agent-event'
import { query } from '../engine/query'
import type { QueryParams, QueryResult } from '../engine/types'
import { addUsage, zeroUsage } from '../engine/usage'
import type { Message } from '../services/model/types'
import type { TranscriptFile } from '../store/transcript-file'
import { keptInTranscript } from '../store/transcript-file'
import { emptyResult, runToEnd, turnEnd } from '../engine/run'

/** Events the sidechain does not keep (as the session's transcript: replayable, or noise). */

/** The longest final text an `agent_end` event carries (the parent gets all of it). */
const RESULT_PREVIEW_CHARS = 2_000

/** Who a subagent is, for its events. */
export interface SubagentIdentity {
  sessionId: string
  agentId: string
  /** The agent whose Agent call started it (`main` or a subagent's id). */
  parentAgentId: string
  /** That Agent call (absent for a fork started by code rather than by a call). */
  parentToolUseId?: string
}

/**
 * One run of a subagent: the loop's own parameters (its conversation, system prompt, tools, model,
 * gate, signal…) plus what the tree and the sidechain need. `messages` is where it starts: a fresh
 * conversation holding its prompt, or (a fork) the parent's conversation with the directive.
 */
export interface SubagentRunSpec
  extends Omit<QueryParams, 'sessionId' | 'agentId' | 'parentToolUseId' | 'onMessage'> {
  identity: SubagentIdentity
  agentType: string
  description: string
  /** The task as given (shown in the tree and kept in the sidechain's `agent_start`). */
  prompt: string
  background: boolean
  /** A teammate's team, name and colour (carried by its `agent_start`). */
  team?: { name: string; member: string; color: string }
  /** Where its messages and events are kept (nothing is written without one). */
  sidechain?: TranscriptFile
  /** Every event, after the sidechain has it (the session's hub). */
  emit(event: AgentEvent): void
  /** Messages the run starts from that are not in the sidechain yet (a fresh run: all of `messages`). */
  unsaved?: number
  now?(): number
}

/** How a subagent's run ended. */
export interface SubagentOutcome {
  status: AgentEndStatus
  /** Why it failed or stopped. */
  message?: string
  /** Its final text: what the parent gets. */
  resultText: string
  /** The whole conversation after the run (to continue it later). */
  messages: Message[]
  /** This run's usage and cost (plus `usageSoFar`). */
  usage: Usage
  costUsd: number
  turns: number
  durationMs: number
}

/**
 * Runs a subagent to its end: the same `query` loop as the main agent, its events stamped with its
 * own id and the Agent call that started it, written to its sidechain and emitted. `agent_start`
 * comes first and `agent_end` last. Contract: never throws; a crash below ends it as `failed`.
 */
export async function runSubagent(spec: SubagentRunSpec): Promise<SubagentOutcome> {
  const now = spec.now ?? Date.now
  const started = now()
  const { identity } = spec
  const stampOf = { sessionId: identity.sessionId, agentId: identity.agentId, ...(identity.parentToolUseId !== undefined && { parentToolUseId: identity.parentToolUseId }) }
  const emit = (event: AgentEvent): void => {
    if (keptInTranscript(event)) spec.sidechain?.appendEvent(event)
    spec.emit(event)
  }
  emit({ ...stampOf, type: 'agent_start', parentAgentId: identity.parentAgentId, agentType: spec.agentType, description: spec.description, prompt: spec.prompt, model: spec.modelName, background: spec.background, ...(spec.team && { team: spec.team }), at: started })
  const unsaved = spec.unsaved ?? spec.messages.length
  for (const message of spec.messages.slice(spec.messages.length - unsaved)) spec.sidechain?.appendMessage(message)
  const before = spec.usageSoFar ?? { usage: zeroUsage(), costUsd: 0 }
  let result: QueryResult
  try {
    const run = query({ ...spec, ...stampOf, onMessage: (message) => spec.sidechain?.appendMessage(message) })
    result = await runToEnd(run, emit)
    // The run's own end (the loop does not close it); agent_end follows with the outcome.
    emit(turnEnd(result, stampOf))
  } catch (error) {
    const message = `Internal error: ${error instanceof Error ? error.message : String(error)}`
    result = emptyResult('model_error', spec.messages, { message })
  }
  const status: AgentEndStatus = result.reason === 'completed' ? 'completed' : result.reason === 'aborted' ? 'stopped' : 'failed'
  const usage = addUsage(before.usage, result.usage)
  const costUsd = before.costUsd + result.costUsd
  const durationMs = Math.max(0, now() - started)
  const message = status === 'completed' ? undefined : (result.message ?? result.reason)
  emit({
    ...stampOf,
    type: 'agent_end',
    status,
    ...(message !== undefined && { message }),
    result: result.resultText.length > RESULT_PREVIEW_CHARS ? `${result.resultText.slice(0, RESULT_PREVIEW_CHARS)}…` : result.resultText,
    usage,
    costUsd,
    durationMs,
    turns: result.turns,
    at: now(),
  })
  return { status, ...(message !== undefined && { message }), resultText: result.resultText, messages: result.messages, usage, costUsd, turns: result.turns, durationMs }
}
