/**
 * Helpers for compaction tests and benchmarks: a scenario that answers summary requests (the
 * ones sent with `tool_choice: none`) from one list and every other request from another, and
 * small facts about recorded requests. Not used in production.
 */
import type { JsonStep, RecordedRequest, Step, StepAction, StepOptions } from '../model-server'
import type { Message } from '../../src/main/services/model/types'

/** Whether the request is compaction's summary request. */
export function isSummaryRequest(request: RecordedRequest): boolean {
  return (request.body['tool_choice'] as { type?: string } | undefined)?.type === 'none'
}

/** A summary reply in the shape the summary prompt asks for. */
export function summaryReply(text = 'The user asked for the build to be fixed; work is in progress.'): JsonStep {
  return { reply: { content: [{ type: 'text', text: `<analysis>Going through the conversation.</analysis>\n<summary>\n${text}\n</summary>` }] } }
}

/**
 * One looping step that plays `work` in order for ordinary requests and `summaries` in order for
 * summary requests (the last summary step repeats). Running out of work is a scenario failure.
 */
export function withSummaries(work: ReadonlyArray<JsonStep | ((request: RecordedRequest) => JsonStep)>, summaries: ReadonlyArray<JsonStep | ((request: RecordedRequest) => JsonStep)> = [summaryReply()]): { steps: Step[]; loop: true } {
  let next = 0
  let summary = 0
  const step = (request: RecordedRequest): StepAction & StepOptions => {
    if (isSummaryRequest(request)) {
      const chosen = summaries[Math.min(summary++, summaries.length - 1)]!
      return typeof chosen === 'function' ? chosen(request) : chosen
    }
    const chosen = work[next++]
    if (!chosen) return { reply: { content: [{ type: 'text', text: 'unexpected' }] }, expect: () => { throw new Error(`the work script ran out at request #${request.index}`) } }
    return typeof chosen === 'function' ? chosen(request) : chosen
  }
  return { steps: [step], loop: true }
}

/** The messages a recorded request sent. */
export function messagesOf(request: RecordedRequest): Message[] {
  return request.body['messages'] as Message[]
}

/** The simulated prompt size of a recorded request. */
export function promptTokensOf(request: RecordedRequest): number {
  const usage = request.simulatedUsage
  return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
}
