import { taskNotificationText, type TaskNotice } from '../context/task-notification'
import type { ToolResult } from '../tools/types'
import type { AgentRecord } from './agent-record'
import type { SubagentOutcome } from './run-subagent'

/**
 * What the parent is told about a subagent: the Agent call's result (only the final text reaches
 * the model; usage and duration are in `details`, for the UI), the note that it went on in the
 * background, the task notification when a background agent ends, and TaskOutput's answer.
 */

/** The UI's part of an Agent call's result. */
export interface AgentCallDetails {
  agentId: string
  agentType: string
  description: string
  status: 'running' | 'completed' | 'failed' | 'stopped'
  background: boolean
  model: string
  usage?: SubagentOutcome['usage']
  costUsd?: number
  durationMs?: number
  turns?: number
}

/** The result of a foreground Agent call whose subagent ended. */
export function finishedResult(record: AgentRecord, outcome: SubagentOutcome): ToolResult {
  const details = detailsOf(record, outcome)
  if (outcome.status === 'completed') {
    return { content: `${outcome.resultText.trim() || '(The agent finished without a final message.)'}${worktreeLines(record)}`, details }
  }
  const partial = `${outcome.resultText.trim() ? `\n\nIts last message:\n${outcome.resultText.trim()}` : ''}${worktreeLines(record)}`
  const why = outcome.status === 'stopped' ? 'was stopped before it finished' : `failed: ${outcome.message ?? 'unknown error'}`
  return { content: `The ${record.make.type} agent ${why}.${partial}`, isError: true, details }
}

/** The result of an Agent call that runs (or went on) in the background. */
export function backgroundResult(record: AgentRecord, moved: boolean): ToolResult {
  const how = moved ? 'It ran for longer than the foreground limit and went on in the background' : 'It is running in the background'
  return {
    content: `${how}: agent id ${record.id}. You will be notified automatically when it completes. You know nothing about its results until that notification arrives — do not report, assume, or predict them; continue other work or respond to the user in the meantime. TaskOutput (task_id "${record.id}") reads its result, TaskStop stops it, SendMessage sends it a message. Do not poll it.`,
    details: detailsOf(record, undefined),
  }
}

/**
 * The task notification a parent gets when a background agent ends (Claude Code 2.1.328's fields:
 * the Agent call, the agent's transcript, its final text and usage).
 */
export function agentNotice(record: AgentRecord, outcome: SubagentOutcome, transcript?: string): TaskNotice {
  const result = outcome.resultText.trim()
  const tokens = outcome.usage.inputTokens + outcome.usage.outputTokens + outcome.usage.cacheReadTokens + outcome.usage.cacheWriteTokens
  return {
    taskId: record.id,
    ...(record.make.parentToolUseId && { toolUseId: record.make.parentToolUseId }),
    ...(transcript && { outputFile: transcript }),
    status: outcome.status === 'completed' ? 'completed' : outcome.status === 'failed' ? 'failed' : 'killed',
    summary: `Agent "${record.make.description}" ${summaryOf(outcome)}`,
    note: 'SendMessage to this task-id starts the agent again with your message (it keeps its conversation), so the same task-id may notify more than once.',
    ...((result || record.worktree) && { result: `${result}${worktreeLines(record)}`.trim() }),
    usage: { tokens, toolUses: toolUsesOf(outcome), durationMs: outcome.durationMs },
  }
}

/** The notification's text (header and XML). */
export function agentNotification(record: AgentRecord, outcome: SubagentOutcome, transcript?: string): string {
  return taskNotificationText(agentNotice(record, outcome, transcript))
}

/** Claude Code's lines after an isolated agent's result: where its kept worktree is (nothing when it was removed). */
function worktreeLines(record: AgentRecord): string {
  return record.worktree ? `\nworktreePath: ${record.worktree.path}\nworktreeBranch: ${record.worktree.branch}` : ''
}

function toolUsesOf(outcome: SubagentOutcome): number {
  return outcome.messages.reduce((sum, message) => sum + (message.role === 'assistant' && typeof message.content !== 'string' ? message.content.filter((block) => block.type === 'tool_use').length : 0), 0)
}

/** TaskOutput on an agent: its status and, once it has ended, its final text. */
export function outputResult(record: AgentRecord): ToolResult {
  const outcome = record.outcome
  const text = outcome ? outcome.resultText.trim() || '(no final message)' : '(still running: no result yet)'
  const status = outcome?.status ?? 'running'
  return {
    content: `<task_id>${record.id}</task_id>\n<status>${status}</status>${outcome?.message ? `\n<error>${outcome.message}</error>` : ''}\n<output>\n${text}\n</output>`,
    details: detailsOf(record, outcome),
  }
}

function summaryOf(outcome: SubagentOutcome): string {
  if (outcome.status === 'completed') return 'finished'
  if (outcome.status === 'stopped') return 'was stopped'
  return `failed: ${outcome.message ?? 'unknown error'}`
}

function detailsOf(record: AgentRecord, outcome: SubagentOutcome | undefined): AgentCallDetails {
  const { make } = record
  const details: AgentCallDetails = { agentId: make.id, agentType: make.type, description: make.description, status: outcome?.status ?? 'running', background: record.background, model: make.model }
  if (outcome) {
    details.usage = outcome.usage
    details.costUsd = outcome.costUsd
    details.durationMs = outcome.durationMs
    details.turns = outcome.turns
  }
  return details
}
